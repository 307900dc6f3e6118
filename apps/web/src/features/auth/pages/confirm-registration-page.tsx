import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { useConfirmRegistration } from '../api/register';
import { translate, useT } from '@/lib/i18n';

/** The page of the emailed registration link: creates the account it carries and signs in. */
export default function ConfirmRegistrationPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const confirm = useConfirmRegistration();
  const t = useT();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    confirm.mutateAsync(token).then(
      () => navigate(paths.dashboard.getHref(), { replace: true }),
      (err: unknown) =>
        setError(err instanceof Error && err.message ? err.message : translate('This link did not work.')),
    );
  }, [token, confirm, navigate]);

  const registerAgain = (
    <Text size="sm" ta="center">
      <Anchor component={Link} to={paths.auth.register.getHref()}>
        {t('Register again')}
      </Anchor>
    </Text>
  );

  if (!token || error) {
    return (
      <Stack>
        <Alert color="red" variant="light" role="alert" title={t('This link did not work')}>
          {error ?? t('Open the link from the email exactly as it was sent.')}
        </Alert>
        {registerAgain}
      </Stack>
    );
  }
  return (
    <Stack align="center">
      <Loader aria-label={t('Creating your account')} />
      <Text size="sm">{t('Creating your account…')}</Text>
    </Stack>
  );
}
