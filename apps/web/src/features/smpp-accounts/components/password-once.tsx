import { Stack, Text } from '@mantine/core';
import { InlineCode } from '@/components/inline-code';
import { SecretOnce } from '@/components/secret-once';
import { useT } from '@/lib/i18n';
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
  const t = useT();
  return (
    <SecretOnce
      secret={password}
      title={t('Copy the SMPP password now')}
      copyLabel={t('Copy password')}
      testId="smpp-password"
      doneLabel={doneLabel}
      onDone={onDone}
    >
      <Stack gap="xs">
        <Text size="sm">
          <InlineCode
            text={t(
              "This is the only time the password of `{{systemId}}` is shown: Wren stores only a hash of it. Put it in the client's bind settings (system_id `{{systemId}}`) and nowhere else. If it is lost, rotate it.",
              { systemId },
            )}
          />
        </Text>
        <SmppServerEndpoints />
      </Stack>
    </SecretOnce>
  );
}
