import { Button, Card, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { changePasswordSchema, ErrorCode } from '@wren/contracts';
import { z } from 'zod';
import { NewPasswordFields } from '@/components/new-password-fields';
import { withPasswordConfirmation } from '@/lib/confirm-password';
import { applySubmitError } from '@/lib/form-errors';
import { HttpError } from '@/lib/http/http-error';
import { translate, useT } from '@/lib/i18n';
import { getUser } from '@/lib/session';
import { toast } from '@/lib/toast';
import { zodResolver } from '@/lib/zod-resolver';
import { useChangePassword } from '../api/change-password';

/** Built when validating, so its message is in the language shown then. */
const formSchema = () =>
  withPasswordConfirmation(changePasswordSchema, 'newPassword', translate('Confirm the new password'));

type PasswordForm = z.input<ReturnType<typeof formSchema>>;

export default function ChangePasswordPage() {
  const t = useT();
  const change = useChangePassword();
  const form = useForm<PasswordForm>({
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: (values) => zodResolver(formSchema())(values),
  });
  const user = getUser();

  const submit = form.onSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      form.reset();
      toast.success(t('Your password has been changed. Your other sessions have been signed out.'));
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
      <form onSubmit={submit} noValidate aria-label={t('Change password')}>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('After the change, every other device signed in to your account is signed out.')}
          </Text>
          <PasswordInput
            label={t('Current password')}
            autoComplete="current-password"
            required
            {...form.getInputProps('currentPassword')}
          />
          <NewPasswordFields
            form={form}
            field="newPassword"
            label={t('New password')}
            confirmLabel={t('Confirm new password')}
            context={{ username: user?.username, email: user?.email }}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              {t('Change password')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
