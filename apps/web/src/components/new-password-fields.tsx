import { PasswordInput, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { PasswordContext } from '@wren/contracts';
import { PASSWORD_HINT, usePasswordProblem } from '@/lib/password-feedback';
import { useT } from '@/lib/i18n';

interface NewPasswordFieldsProps<V extends { confirmPassword: string }> {
  form: UseFormReturnType<V>;
  /** The new password's field; its confirmation is `confirmPassword`. */
  field: keyof V & string;
  label: string;
  confirmLabel: string;
  /** What the password must not contain (the username, the email). */
  context?: PasswordContext;
}

/**
 * A new password and its confirmation: the first says, as the user types, why it would be refused
 * (or the hint, before anything is typed).
 */
export function NewPasswordFields<V extends { confirmPassword: string }>({
  form,
  field,
  label,
  confirmLabel,
  context,
}: NewPasswordFieldsProps<V>) {
  const problem = usePasswordProblem(String(form.values[field]), context);
  const t = useT();
  return (
    <>
      <PasswordInput
        label={label}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        autoComplete="new-password"
        required
        {...form.getInputProps(field)}
        description={
          <Text component="span" size="xs" c={problem ? 'red' : 'dimmed'} aria-live="polite">
            {problem ?? t(PASSWORD_HINT)}
          </Text>
        }
      />
      <PasswordInput
        label={confirmLabel}
        autoComplete="new-password"
        required
        {...form.getInputProps('confirmPassword')}
      />
    </>
  );
}
