import { useState } from 'react';
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

const formSchema = withPasswordConfirmation(
  z.object({ password: passwordSchema }),
  'password',
  'Confirm your password',
);

type ResetForm = z.input<typeof formSchema>;

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ResetForm>({
    initialValues: { password: '', confirmPassword: '' },
    validate: zodResolver(formSchema),
  });

  const requestNewLink = (
    <Anchor component={Link} to={paths.auth.forgotPassword.getHref()}>
      Request a new link
    </Anchor>
  );

  if (!token) {
    return (
      <Stack>
        <Alert color="red" variant="light" role="alert" title="This link is incomplete">
          Open the link from the email exactly as it was sent, or ask for a new one.
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
      toast.success('Your password has been reset. Sign in with the new password.');
      await navigate(paths.auth.login.getHref(), { replace: true });
    } catch (error) {
      setFormError(applySubmitError(form, error));
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Reset password">
      <Stack>
        <FormAlert message={formError} />
        <NewPasswordFields
          form={form}
          field="password"
          label="New password"
          confirmLabel="Confirm new password"
        />
        <Button type="submit" fullWidth loading={reset.isPending}>
          Set new password
        </Button>
        <Text size="sm" ta="center">
          {formError ? (
            requestNewLink
          ) : (
            <Anchor component={Link} to={paths.auth.login.getHref()}>
              Back to sign in
            </Anchor>
          )}
        </Text>
      </Stack>
    </form>
  );
}
