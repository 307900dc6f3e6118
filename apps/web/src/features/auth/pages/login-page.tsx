import { useState } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { loginSchema, type LoginInput, type LoginResponse, type TwoFactorChallenge } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { RETURN_URL_PARAM, paths, safeReturnUrl, withQuery } from '@/config/paths';
import { applySubmitError } from '@/lib/form-errors';
import { setSession } from '@/lib/session';
import { zodResolver } from '@/lib/zod-resolver';
import { useLogin } from '../api/login';
import { TwoFactorStep } from '../components/two-factor-step';
import { useT } from '@/lib/i18n';

export default function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const login = useLogin();
  const t = useT();
  const [formError, setFormError] = useState<string | null>(null);
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  const form = useForm<LoginInput>({
    initialValues: { username: '', password: '' },
    validate: zodResolver(loginSchema),
  });
  const returnUrl = params.get(RETURN_URL_PARAM);

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const result = await login.mutateAsync(loginSchema.parse(values));
      if ('twoFactor' in result) {
        setChallenge(result);
        return;
      }
      await navigate(safeReturnUrl(returnUrl), { replace: true });
    } catch (error) {
      setFormError(applySubmitError(form, error));
    }
  });

  if (challenge) {
    const signedIn = async (session: LoginResponse) => {
      setSession(session);
      await navigate(safeReturnUrl(returnUrl), { replace: true });
    };
    const back = () => {
      setChallenge(null);
      form.setFieldValue('password', '');
    };
    return <TwoFactorStep challenge={challenge} onSignedIn={signedIn} onBack={back} />;
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('Sign in')}>
      <Stack>
        <FormAlert message={formError} />
        <TextInput
          label={t('Username')}
          autoComplete="username"
          required

          {...form.getInputProps('username')}
        />
        <PasswordInput
          label={t('Password')}
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end">
          <Anchor component={Link} to={paths.auth.forgotPassword.getHref()} size="sm">
            {t('Forgot password?')}
          </Anchor>
        </Group>
        <Button type="submit" fullWidth loading={login.isPending}>
          {t('Sign in')}
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          {t('New to Wren?')}{' '}
          <Anchor
            component={Link}
            to={withQuery(paths.auth.register.getHref(), { [RETURN_URL_PARAM]: returnUrl })}
          >
            {t('Create an account')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
