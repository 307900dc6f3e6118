import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCopy, IconKey } from './icons';

/** The new secret, shown this once with a copy button. */
export function SecretOnce({
  secret,
  onDone,
  doneLabel,
}: {
  secret: string;
  onDone: () => void;
  doneLabel: string;
}) {
  return (
    <Alert variant="light" color="teal" icon={<IconKey />} title="Copy your API key now">
      <Stack gap="sm">
        <Text size="sm">
          This is the only time the key is shown: Wren stores only a hash of it. Keep it in your server&apos;s
          secrets (for example the environment variable <Code>WREN_API_KEY</Code>), never in a web page or an
          app.
        </Text>
        <Group gap="xs" wrap="nowrap" align="stretch">
          <Code
            block
            data-testid="api-key-secret"
            style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap', fontSize: 14 }}
          >
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button onClick={copy} leftSection={<IconCopy />} variant={copied ? 'light' : 'filled'}>
                {copied ? 'Copied' : 'Copy key'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Group>
          <Button variant="default" onClick={onDone}>
            {doneLabel}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
