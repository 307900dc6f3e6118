import { useState } from 'react';
import { Alert, Button, Checkbox, CopyButton, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { saveBlob } from '@/lib/download';

/**
 * Recovery codes, shown once: copy, download, and a confirmation that they were saved before
 * going on (each code signs in once when the authenticator app is not at hand).
 */
export function RecoveryCodesPanel({
  codes,
  onDone,
  doneLabel = 'Done',
}: {
  codes: string[];
  onDone: () => void;
  doneLabel?: string;
}) {
  const [saved, setSaved] = useState(false);
  const text = `Wren recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  return (
    <Stack aria-label="Recovery codes">
      <Alert color="yellow" title="Save your recovery codes">
        If you lose your authenticator app, each of these codes signs you in once. They are shown only now.
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
              {copied ? 'Copied' : 'Copy codes'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          onClick={() => saveBlob(new Blob([text], { type: 'text/plain' }), 'wren-recovery-codes.txt')}
        >
          Download
        </Button>
      </Group>
      <Checkbox
        label="I have saved these codes somewhere safe"
        checked={saved}
        onChange={(e) => setSaved(e.currentTarget.checked)}
      />
      <Group>
        <Button onClick={onDone} disabled={!saved}>
          {doneLabel}
        </Button>
      </Group>
    </Stack>
  );
}
