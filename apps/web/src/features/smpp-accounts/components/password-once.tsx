import { Code, Stack, Text } from '@mantine/core';
import { SecretOnce } from '@/components/secret-once';
import { SmppServerEndpoints } from './server-info';

/** An SMPP account's new password, shown this once, with where to bind. */
export function PasswordOnce({
  systemId,
  password,
  doneLabel,
  onDone,
}: {
  systemId: string;
  password: string;
  doneLabel: string;
  onDone: () => void;
}) {
  return (
    <SecretOnce
      secret={password}
      title="Copy the SMPP password now"
      copyLabel="Copy password"
      testId="smpp-password"
      doneLabel={doneLabel}
      onDone={onDone}
    >
      <Stack gap="xs">
        <Text size="sm">
          This is the only time the password of <Code>{systemId}</Code> is shown: Wren stores only a hash of
          it. Put it in the client&apos;s bind settings (system_id <Code>{systemId}</Code>) and nowhere else.
          If it is lost, rotate it.
        </Text>
        <SmppServerEndpoints />
      </Stack>
    </SecretOnce>
  );
}
