import { Fragment } from 'react';
import { useT } from '@/lib/i18n';
import { Badge, Card, Group, Mark, Stack, Text } from '@mantine/core';
import type { SmsTextInfo } from '@wren/contracts';
import { describeChar } from '../gsm-replacements';
import classes from './message-preview.module.css';

/** The text with the characters that force Unicode marked. */
function Highlighted({ text, unicode }: { text: string; unicode: Set<string> }) {
  const t = useT();
  const chars = [...text];
  return (
    <>
      {chars.map((c, i) =>
        unicode.has(c) ? (
          <Mark
            key={i}
            color="orange"
            title={t('{{char}} switches the message to Unicode', { char: describeChar(c) })}
          >
            {c.trim() ? c : '\u2423'}
          </Mark>
        ) : (
          <Fragment key={i}>{c}</Fragment>
        ),
      )}
    </>
  );
}

interface MessagePreviewProps {
  sender: string;
  parts: string[];
  info: SmsTextInfo;
}

/** How the message arrives: a bubble per segment, Unicode characters highlighted. */
export function MessagePreview({ sender, parts, info }: MessagePreviewProps) {
  const t = useT();
  const unicode = new Set(info.unicodeChars);
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="sm">
        <Text fw={600}>{t('Preview')}</Text>
        <Badge variant="light" color="gray" tt="none">
          {t('From {{sender}}', { sender })}
        </Badge>
      </Group>
      {parts.length === 0 ? (
        <Text size="sm" c="dimmed" className={classes.empty}>
          {t('Your message will appear here.')}
        </Text>
      ) : (
        <Stack gap={6} data-testid="sms-preview">
          {parts.map((part, i) => (
            <div key={i}>
              {parts.length > 1 && (
                <Text size="xs" c="dimmed" mb={2}>
                  {t('Segment {{n}} of {{total}}', { n: i + 1, total: parts.length })}
                </Text>
              )}
              <div className={classes.bubble}>
                <Highlighted text={part} unicode={unicode} />
              </div>
            </div>
          ))}
        </Stack>
      )}
    </Card>
  );
}
