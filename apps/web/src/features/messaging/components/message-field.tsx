import { useRef } from 'react';
import { useT } from '@/lib/i18n';
import { Can } from '@/components/can';
import { Alert, Badge, Button, Group, Input, Text, Textarea } from '@mantine/core';
import { extractPlaceholders, MAX_SEGMENTS, type SmsTextInfo } from '@wren/contracts';
import { describeChar, replaceableChars, replaceLookAlikes } from '../gsm-replacements';
import { segmentCapacity, smsCounter } from '../sms-parts';
import { TemplateMenu } from './template-menu';

interface MessageFieldProps {
  value: string;
  onChange: (text: string) => void;
  info: SmsTextInfo;
  /** The text as it will be sent, if not `value` (tracked links: with its short links); counted. */
  counted?: string;
  /** The formatted cost of the send, or null while it cannot be worked out. */
  cost: string | null;
  error?: string;
}

function Counter({ text, info, cost }: { text: string; info: SmsTextInfo; cost: string | null }) {
  const { characters, left } = smsCounter(text, info);
  const t = useT();
  const tooLong = info.segments > MAX_SEGMENTS;
  return (
    <Group gap="xs" mt={6} data-testid="sms-counter">
      <Text size="sm">
        <b>{characters}</b> {characters === 1 ? t('character') : t('characters')}
      </Text>
      <Text size="sm" c="dimmed">
        ·
      </Text>
      <Text size="sm" c={tooLong ? 'red' : undefined}>
        <b>{info.segments}</b> {info.segments === 1 ? t('segment') : t('segments')}
        {tooLong && t(' (at most {{max}})', { max: MAX_SEGMENTS })}
      </Text>
      <Badge variant="light" color={info.encoding === 'GSM-7' ? 'gray' : 'orange'} size="sm">
        {info.encoding === 'GSM-7' ? 'GSM-7' : 'Unicode (UCS-2)'}
      </Badge>
      <Text
        size="xs"
        c="dimmed"
        title={
          info.encoding === 'GSM-7'
            ? t('Room left in this segment, in GSM-7 septets (€ [ ] { } ~ ^ | \\ count 2)')
            : t('Room left in this segment, in Unicode units (most emoji count 2)')
        }
      >
        {t('{{count}} left', { count: left })}
      </Text>
      {cost && (
        <Text size="sm" ml="auto">
          {t('Cost')} <b>{cost}</b>
        </Text>
      )}
    </Group>
  );
}

/** The message text: templates, a live counter, and a warning for characters that force Unicode. */
export function MessageField({ value, onChange, info, counted, cost, error }: MessageFieldProps) {
  const t = useT();
  const ref = useRef<HTMLTextAreaElement>(null);
  const replaceable = replaceableChars(info.unicodeChars);
  const placeholders = extractPlaceholders(value);

  const insert = (text: string) => {
    const el = ref.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + text + value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + text.length, start + text.length);
    });
  };

  return (
    <div>
      <Group justify="space-between" align="flex-end" wrap="nowrap" mb={4}>
        <Input.Label required htmlFor="sms-text">
          {t('Message')}
        </Input.Label>
        <Can permission="templates:read">
          <TemplateMenu onPick={(template) => insert(template.text)} />
        </Can>
      </Group>
      <Textarea
        id="sms-text"
        ref={ref}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        placeholder={t('Write your message…')}
        autosize
        minRows={5}
        maxRows={14}
        error={error}
      />
      <Counter text={counted ?? value} info={info} cost={cost} />
      {info.unicodeChars.length > 0 && (
        <Alert color="orange" variant="light" mt="sm" title={t('These characters switch to Unicode:')}>
          <Group gap={6} mb="xs" data-testid="unicode-chars">
            {info.unicodeChars.map((c) => (
              <Badge key={c} variant="outline" color="orange" tt="none" size="lg" radius="sm">
                {describeChar(c)}
              </Badge>
            ))}
          </Group>
          <Text size="sm">
            {t(
              'A Unicode segment holds {{unicode}} characters instead of {{gsm}}, so this message may cost more.',
              {
                unicode: segmentCapacity('UCS-2', 1),
                gsm: segmentCapacity('GSM-7', 1),
              },
            )}
          </Text>
          {replaceable.length > 0 && (
            <Button
              size="compact-sm"
              variant="light"
              color="orange"
              mt="xs"
              onClick={() => onChange(replaceLookAlikes(value))}
            >
              {t('Replace {{chars}} with plain characters', {
                chars: replaceable.map(describeChar).join(' '),
              })}
            </Button>
          )}
        </Alert>
      )}
      {placeholders.length > 0 && (
        <Text size="sm" c="orange" mt="xs">
          {t(
            'Placeholders such as {{placeholder}} are sent as written. Use Personalised SMS to fill them in for each recipient.',
            { placeholder: `{{${placeholders[0]}}}` },
          )}
        </Text>
      )}
    </div>
  );
}
