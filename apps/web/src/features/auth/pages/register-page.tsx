import { useMemo, useState } from 'react';
import { Alert, Anchor, Button, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { registerSchema } from '@wren/contracts';
import { z } from 'zod';
import { FormAlert } from '@/components/form-alert';
import { NewPasswordFields } from '@/components/new-password-fields';
import { RETURN_URL_PARAM, paths, safeReturnUrl } from '@/config/paths';
import { applySubmitError } from '@/lib/form-errors';
import { withPasswordConfirmation } from '@/lib/confirm-password';
import { zodResolver } from '@/lib/zod-resolver';
import { useRegister } from '../api/register';
import { useCaptcha } from '../components/captcha';
import { useT } from '@/lib/i18n';

const schemaOf = (required: string) => withPasswordConfirmation(registerSchema, 'password', required);

type RegisterForm = z.input<ReturnType<typeof schemaOf>>;

export default function RegisterPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const register = useRegister();
  const t = useT();
  const formSchema = useMemo(() => schemaOf(t('Confirm your password')), [t]);
  const [formError, setFormError] = useState<string | null>(null);
  const captcha = useCaptcha();
  const [checkEmail, setCheckEmail] = useState<string | null>(null);
  const form = useForm<RegisterForm>({
    initialValues: { username: '', name: '', email: '', phone: '', password: '', confirmPassword: '' },
    validate: zodResolver(formSchema),
  });

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const { confirmPassword: _confirm, ...input } = formSchema.parse(values);
      const result = await register.mutateAsync({ ...input, captcha: await captcha.solution() });
      if ('message' in result) {
        setCheckEmail(result.message);
        return;
      }
      await navigate(safeReturnUrl(params.get(RETURN_URL_PARAM)), { replace: true });
    } catch (error) {
      setFormError(applySubmitError(form, error));
      captcha.renew(); // a solved challenge is single-use
    }
  });

  if (checkEmail) {
    return (
      <Stack>
        <Alert color="teal" variant="light" role="status" title={t('Check your email')}>
          {checkEmail}
        </Alert>
        <Text size="sm" ta="center">
          <Anchor component={Link} to={paths.auth.login.getHref()}>
            {t('Back to sign in')}
          </Anchor>
        </Text>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('Create account')}>
      <Stack>
        <FormAlert message={formError} />
        {captcha.widget}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label={t('Username')}
            autoComplete="username"
            required
            {...form.getInputProps('username')}
          />
          <TextInput label={t('Full name')} autoComplete="name" required {...form.getInputProps('name')} />
          <TextInput
            label={t('Email')}
            type="email"
            autoComplete="email"
            required
            {...form.getInputProps('email')}
          />
          <TextInput
            label={t('Phone')}
            type="tel"
            autoComplete="tel"
            required
            {...form.getInputProps('phone')}
          />
          <NewPasswordFields
            form={form}
            field="password"
            label={t('Password')}
            confirmLabel={t('Confirm password')}
            context={{ username: form.values.username, email: form.values.email }}
          />
        </SimpleGrid>
        <Button type="submit" fullWidth loading={register.isPending}>
          {t('Create account')}
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          {t('Already have an account?')}{' '}
          <Anchor component={Link} to={paths.auth.login.getHref()} underline="always">
            {t('Sign in')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
