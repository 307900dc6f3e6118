import { useState } from 'react';
import { Alert, Button, Checkbox, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { saveBlob } from '@/lib/download';
import { useT } from '@/lib/i18n';

/**
 * Recovery codes, shown once: copy, download, and a confirmation that they were saved before
 * going on (each code signs in once when the authenticator app is not at hand).
 */
export function RecoveryCodesPanel({
  codes,
  onDone,
  doneLabel,
}: {
  codes: string[];
  onDone: () => void;
  doneLabel?: string;
}) {
  const t = useT();
  const [saved, setSaved] = useState(false);
  const text = `${t('Wren recovery codes (each works once)')}\n\n${codes.join('\n')}\n`;
  return (
    <Stack aria-label={t('Recovery codes')}>
      <Alert color="yellow" title={t('Save your recovery codes')}>
        {t(
          'If you lose your authenticator app, each of these codes signs you in once. They are shown only now.',
        )}
      </Alert>
      <SimpleGrid
        cols={{ base: 1, xs: 2 }}
        spacing="xs"
        data-testid="recovery-codes"
        component="ul"
        p={0}
        m={0}
      >
        {codes.map((code) => (
          <Text component="li" key={code} ff="monospace" style={{ listStyle: 'none' }}>
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Group>
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button variant="default" onClick={copy}>
              {copied ? t('Copied') : t('Copy codes')}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          onClick={() => saveBlob(new Blob([text], { type: 'text/plain' }), 'wren-recovery-codes.txt')}
        >
          {t('Download')}
        </Button>
      </Group>
      <Checkbox
        label={t('I have saved these codes somewhere safe')}
        checked={saved}
        onChange={(e) => setSaved(e.currentTarget.checked)}
      />
      <Group>
        <Button onClick={onDone} disabled={!saved}>
          {doneLabel ?? t('Done')}
        </Button>
      </Group>
    </Stack>
  );
}
