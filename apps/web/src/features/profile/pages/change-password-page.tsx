import { Button, Card, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { changePasswordSchema, ErrorCode } from '@wren/contracts';
import { z } from 'zod';
import { applySubmitError } from '@/lib/form-errors';
import { HttpError } from '@/lib/http/http-error';
import { PASSWORD_HINT, usePasswordProblem } from '@/lib/password-feedback';
import { getUser } from '@/lib/session';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { useChangePassword } from '../api/change-password';

const formSchema = changePasswordSchema
  .extend({ confirmPassword: z.string().min(1, 'Confirm the new password') })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

type PasswordForm = z.input<typeof formSchema>;

export default function ChangePasswordPage() {
  const change = useChangePassword();
  const form = useForm<PasswordForm>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: zodResolver(formSchema),
  });
  const user = getUser();
  const passwordProblem = usePasswordProblem(form.values.newPassword, {
    username: user?.username,
    email: user?.email,
  });

  const submit = form.onSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      form.reset();
      toast.success('Your password has been changed. Your other sessions have been signed out.');
    } catch (error) {
      if (error instanceof HttpError && error.code === ErrorCode.WRONG_PASSWORD) {
        form.setFieldError('currentPassword', error.message);
        return;
      }
      const message = applySubmitError(form, error);
      if (message) toast.error(message);
    }
  });

  return (
    <Card withBorder radius="md" padding="xl">
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Stack>
          <Text size="sm" c="dimmed">
            After the change, every other device signed in to your account is signed out.
          </Text>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            {...form.getInputProps('currentPassword')}
          />
          <PasswordInput
            label="New password"
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            autoComplete="new-password"
            required
            {...form.getInputProps('newPassword')}
            description={
              <Text component="span" size="xs" c={passwordProblem ? 'red' : 'dimmed'} aria-live="polite">
                {passwordProblem ?? PASSWORD_HINT}
              </Text>
            }
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmPassword')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
