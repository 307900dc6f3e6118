import { useState } from 'react';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router';
import { forgotPasswordSchema, type ForgotPasswordInput } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { paths } from '@/config/paths';
import { applySubmitError } from '@/lib/form-errors';
import { zodResolver } from '@/lib/zod-resolver';
import { useForgotPassword } from '../api/forgot-password';
import { useCaptcha } from '../components/captcha';
import { useT } from '@/lib/i18n';

export default function ForgotPasswordPage() {
  const forgot = useForgotPassword();
  const t = useT();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const captcha = useCaptcha();
  const form = useForm<ForgotPasswordInput>({
    initialValues: { email: '' },
    validate: zodResolver(forgotPasswordSchema),
  });

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const input = forgotPasswordSchema.parse(values);
      await forgot.mutateAsync({ ...input, captcha: await captcha.solution() });
      setSentTo(input.email);
    } catch (error) {
      setFormError(applySubmitError(form, error));
      captcha.renew(); // a solved challenge is single-use
    }
  });

  const backToLogin = (
    <Text size="sm" ta="center">
      <Anchor component={Link} to={paths.auth.login.getHref()}>
        {t('Back to sign in')}
      </Anchor>
    </Text>
  );

  if (sentTo) {
    return (
      <Stack>
        <Alert color="teal" variant="light" role="status" title={t('Check your email')}>
          {t(
            'If an account uses {{email}}, we have sent it a link to reset the password. The link works once and expires soon.',
            { email: sentTo },
          )}
        </Alert>
        {backToLogin}
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('Forgot password')}>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('Enter the email address of your account and we will send you a link to choose a new password.')}
        </Text>
        <FormAlert message={formError} />
        {captcha.widget}
        <TextInput
          label={t('Email')}
          type="email"
          autoComplete="email"
          required
          {...form.getInputProps('email')}
        />
        <Button type="submit" fullWidth loading={forgot.isPending}>
          {t('Send reset link')}
        </Button>
        {backToLogin}
      </Stack>
    </form>
  );
}
