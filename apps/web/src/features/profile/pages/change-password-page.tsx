import { Button, Card, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { changePasswordSchema, ErrorCode } from '@wren/contracts';
import { z } from 'zod';
import { NewPasswordFields } from '@/components/new-password-fields';
import { withPasswordConfirmation } from '@/lib/confirm-password';
import { applySubmitError } from '@/lib/form-errors';
import { HttpError } from '@/lib/http/http-error';
import { getUser } from '@/lib/session';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { useChangePassword } from '../api/change-password';

const formSchema = withPasswordConfirmation(changePasswordSchema, 'newPassword', 'Confirm the new password');

type PasswordForm = z.input<typeof formSchema>;

export default function ChangePasswordPage() {
  const change = useChangePassword();
  const form = useForm<PasswordForm>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: zodResolver(formSchema),
  });
  const user = getUser();

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
          <NewPasswordFields
            form={form}
            field="newPassword"
            label="New password"
            confirmLabel="Confirm new password"
            context={{ username: user?.username, email: user?.email }}
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
