import type { ReactNode } from 'react';
import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { rich } from './common';
import { iconOfSize } from './icons';
import { useT } from '@/lib/i18n';

const icon = iconOfSize(18);
const IconCopy = icon('M8 8h12v12H8z', 'M16 8V4H4v12h4');
const IconKey = icon('M15 7a3 3 0 1 1 0 .01', 'M3 21l8.5-8.5', 'M14.5 9.5L10 14', 'M7 17l2 2');

/**
 * A new secret (an API key, an SMPP password), shown this once with a copy button. The defaults
 * are an API key's; other secrets name themselves with `title`, `copyLabel` and `children`.
 */
export function SecretOnce({
  secret,
  onDone,
  doneLabel,
  title,
  copyLabel,
  testId = 'api-key-secret',
  children,
}: {
  secret: string;
  onDone: () => void;
  doneLabel: string;
  title?: string;
  copyLabel?: string;
  testId?: string;
  /** What to say about the secret (the API key's advice by default). */
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <Alert variant="light" color="teal" icon={<IconKey />} title={title ?? t('Copy your API key now')}>
      <Stack gap="sm">
        {children ?? (
          <Text size="sm">
            {rich(
              t,
              "This is the only time the key is shown: Wren stores only a hash of it. Keep it in your server's secrets (for example the environment variable {{variable}}), never in a web page or an app.",
              { variable: <Code>WREN_API_KEY</Code> },
            )}
          </Text>
        )}
        <Group gap="xs" wrap="nowrap" align="stretch">
          <Code
            block
            data-testid={testId}
            style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap', fontSize: 14 }}
          >
            {secret}
          </Code>
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button onClick={copy} leftSection={<IconCopy />} variant={copied ? 'light' : 'filled'}>
                {copied ? t('Copied') : (copyLabel ?? t('Copy key'))}
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
