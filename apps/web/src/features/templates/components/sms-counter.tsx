import { Alert, Badge, Code, Group, Text } from '@mantine/core';
import { MAX_SEGMENTS, type SmsTextInfo } from '@wren/contracts';
import { charactersLeft } from '../template-text';
import { IconAlert } from './icons';
import { useT } from '@/lib/i18n';

/** Live length of a message: encoding, characters, segments, room left, and Unicode characters. */
export function SmsCounter({ info }: { info: SmsTextInfo }) {
  const t = useT();
  const unicode = info.encoding === 'UCS-2';
  const tooLong = info.segments > MAX_SEGMENTS;
  return (
    <>
      <Group gap="xs" aria-live="polite" data-testid="sms-counter">
        <Badge variant="light" color={unicode ? 'orange' : 'teal'} tt="none">
          {unicode ? 'Unicode (UCS-2)' : 'GSM-7'}
        </Badge>
        <Badge variant="default" tt="none">
          {info.characters === 1
            ? t('{{count}} character', { count: info.characters })
            : t('{{count}} characters', { count: info.characters })}
        </Badge>
        <Badge variant={tooLong ? 'filled' : 'default'} color={tooLong ? 'red' : undefined} tt="none">
          {info.segments === 1
            ? t('{{count}} SMS segment', { count: info.segments })
            : t('{{count}} SMS segments', { count: info.segments })}
          {tooLong && ` ${t('(at most {{max}})', { max: MAX_SEGMENTS })}`}
        </Badge>
        <Text size="xs" c="dimmed">
          {t('{{count}} left before the next segment', { count: charactersLeft(info) })}
        </Text>
      </Group>
      {info.unicodeChars.length > 0 && (
        <Alert
          variant="light"
          color="orange"
          icon={<IconAlert />}
          p="xs"
          title={t('These characters switch the message to Unicode')}
        >
          <Group gap={6} mb={4}>
            {info.unicodeChars.map((c) => (
              <Code key={c} fz="sm" data-testid="unicode-char">
                {c}
              </Code>
            ))}
          </Group>
          <Text size="xs">
            {t(
              "A Unicode SMS holds 70 characters instead of 160. Replace them (for example ’ with ') to fit more text in each message.",
            )}
          </Text>
        </Alert>
      )}
    </>
  );
}
