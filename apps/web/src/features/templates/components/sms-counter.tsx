import { Alert, Badge, Code, Group, Text } from '@mantine/core';
import { MAX_SEGMENTS, type SmsTextInfo } from '@wren/contracts';
import { charactersLeft } from '../template-text';
import { IconAlert } from './icons';

/** Live length of a message: encoding, characters, segments, room left, and Unicode characters. */
export function SmsCounter({ info }: { info: SmsTextInfo }) {
  const unicode = info.encoding === 'UCS-2';
  const tooLong = info.segments > MAX_SEGMENTS;
  return (
    <>
      <Group gap="xs" aria-live="polite" data-testid="sms-counter">
        <Badge variant="light" color={unicode ? 'orange' : 'teal'} tt="none">
          {unicode ? 'Unicode (UCS-2)' : 'GSM-7'}
        </Badge>
        <Badge variant="default" tt="none">
          {info.characters} {info.characters === 1 ? 'character' : 'characters'}
        </Badge>
        <Badge variant={tooLong ? 'filled' : 'default'} color={tooLong ? 'red' : undefined} tt="none">
          {info.segments} SMS {info.segments === 1 ? 'segment' : 'segments'}
          {tooLong && ` (at most ${MAX_SEGMENTS})`}
        </Badge>
        <Text size="xs" c="dimmed">
          {charactersLeft(info)} left before the next segment
        </Text>
      </Group>
      {info.unicodeChars.length > 0 && (
        <Alert
          variant="light"
          color="orange"
          icon={<IconAlert />}
          p="xs"
          title="These characters switch the message to Unicode"
        >
          <Group gap={6} mb={4}>
            {info.unicodeChars.map((c) => (
              <Code key={c} fz="sm" data-testid="unicode-char">
                {c}
              </Code>
            ))}
          </Group>
          <Text size="xs">
            A Unicode SMS holds 70 characters instead of 160. Replace them (for example ’ with &apos;) to fit
            more text in each message.
          </Text>
        </Alert>
      )}
    </>
  );
}
