import { useMemo, useState } from 'react';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { passwordSchema } from '@wren/contracts';
import { z } from 'zod';
import { FormAlert } from '@/components/form-alert';
import { NewPasswordFields } from '@/components/new-password-fields';
import { paths } from '@/config/paths';
import { withPasswordConfirmation } from '@/lib/confirm-password';
import { applySubmitError } from '@/lib/form-errors';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { useResetPassword } from '../api/reset-password';
import { useT } from '@/lib/i18n';

const schemaOf = (required: string) =>
  withPasswordConfirmation(z.object({ password: passwordSchema }), 'password', required);

type ResetForm = z.input<ReturnType<typeof schemaOf>>;

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const t = useT();
  const formSchema = useMemo(() => schemaOf(t('Confirm your password')), [t]);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ResetForm>({
    initialValues: { password: '', confirmPassword: '' },
    validate: zodResolver(formSchema),
  });

  const requestNewLink = (
    <Anchor component={Link} to={paths.auth.forgotPassword.getHref()}>
      {t('Request a new link')}
    </Anchor>
  );

  if (!token) {
    return (
      <Stack>
        <Alert color="red" variant="light" role="alert" title={t('This link is incomplete')}>
          {t('Open the link from the email exactly as it was sent, or ask for a new one.')}
        </Alert>
        <Text size="sm" ta="center">
          {requestNewLink}
        </Text>
      </Stack>
    );
  }

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      await reset.mutateAsync({ token, password: values.password });
      toast.success(t('Your password has been reset. Sign in with the new password.'));
      await navigate(paths.auth.login.getHref(), { replace: true });
    } catch (error) {
      setFormError(applySubmitError(form, error));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('Reset password')}>
      <Stack>
        <FormAlert message={formError} />
        <NewPasswordFields
          form={form}
          field="password"
          label={t('New password')}
          confirmLabel={t('Confirm new password')}
        />
        <Button type="submit" fullWidth loading={reset.isPending}>
          {t('Set new password')}
        </Button>
        <Text size="sm" ta="center">
          {formError ? (
            requestNewLink
          ) : (
            <Anchor component={Link} to={paths.auth.login.getHref()}>
              {t('Back to sign in')}
            </Anchor>
          )}
        </Text>
      </Stack>
    </form>
  );
}
