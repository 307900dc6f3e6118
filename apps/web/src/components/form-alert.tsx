import { Alert } from '@mantine/core';

/** A form-level message (one not tied to a field), announced to screen readers. */
export function FormAlert({ message, color = 'red' }: { message: string | null; color?: string }) {
  if (!message) return null;
  return (
    <Alert color={color} variant="light" role="alert" style={{ whiteSpace: 'pre-line' }}>
      {message}
    </Alert>
  );
}
