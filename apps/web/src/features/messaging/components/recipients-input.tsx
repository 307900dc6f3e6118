import { useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useT } from '@/lib/i18n';
import { Anchor, Badge, Group, Pill, PillsInput, Text } from '@mantine/core';
import { MAX_RECIPIENTS_SINGLE } from '@wren/contracts';
import { addRecipients, parseRecipient, type RecipientEntry } from '../parse-recipients';
import classes from './recipients-input.module.css';

interface RecipientsInputProps {
  entries: RecipientEntry[];
  onChange: (entries: RecipientEntry[]) => void;
  defaultCountry: string;
  error?: string;
}

/** The last comma, semicolon, tab or line break in a text. */
const LAST_SEPARATOR = /[,;\n\r\t](?=[^,;\n\r\t]*$)/;

/** Numbers as removable chips: typed or pasted lists are split, validated and de-duplicated. */
export function RecipientsInput({ entries, onChange, defaultCountry, error }: RecipientsInputProps) {
  const t = useT();
  const [draft, setDraft] = useState('');
  const [duplicates, setDuplicates] = useState(0);

  const commit = (text: string) => {
    if (!text.trim()) return;
    const result = addRecipients(entries, text, defaultCountry);
    setDuplicates(result.duplicates);
    onChange(result.entries);
  };

  const onInput = (value: string) => {
    const last = value.search(LAST_SEPARATOR);
    if (last >= 0) {
      commit(value.slice(0, last));
      setDraft(value.slice(last + 1).trimStart());
      return;
    }
    // A space ends a number only when what came before is a whole valid number ("+44 20…" is not).
    if (value.endsWith(' ') && parseRecipient(value, defaultCountry).e164) {
      commit(value);
      setDraft('');
      return;
    }
    setDraft(value);
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    commit(`${draft}${event.clipboardData.getData('text')}`);
    setDraft('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      commit(draft);
      setDraft('');
    } else if (event.key === 'Backspace' && !draft && entries.length) {
      onChange(entries.slice(0, -1));
    }
  };

  const remove = (index: number) => onChange(entries.filter((_, i) => i !== index));
  const valid = entries.filter((e) => e.e164).length;
  const invalid = entries.length - valid;

  return (
    <div>
      <PillsInput
        label={t('Recipients')}
        description={t('Type or paste phone numbers, separated by commas, spaces or new lines.')}
        required
        error={error}
        classNames={{ input: classes.input }}
      >
        <Pill.Group>
          {entries.map((entry, index) => (
            <Pill
              key={entry.e164 ?? `raw:${entry.input}`}
              withRemoveButton
              onRemove={() => remove(index)}
              removeButtonProps={{
                'aria-label': t('Remove {{number}}', { number: entry.e164 ?? entry.input }),
                'aria-hidden': false,
                tabIndex: 0,
              }}
              className={entry.e164 ? undefined : classes.invalid}
              title={
                entry.e164
                  ? entry.input
                  : t('"{{number}}" is not a valid phone number', { number: entry.input })
              }
              data-invalid={entry.e164 ? undefined : true}
              // A number reads left to right in every language (Arabic too).
              dir="ltr"
            >
              {entry.e164 ?? entry.input}
            </Pill>
          ))}
          <PillsInput.Field
            dir="ltr"
            value={draft}
            onChange={(event) => onInput(event.currentTarget.value)}
            onPaste={onPaste}
            onKeyDown={onKeyDown}
            onBlur={() => {
              commit(draft);
              setDraft('');
            }}
            placeholder={entries.length ? undefined : '+1 415 555 2671, +44 20 7946 0958'}
            inputMode="tel"
            autoComplete="off"
          />
        </Pill.Group>
      </PillsInput>
      <Group gap="xs" mt={6} aria-live="polite" mih={22}>
        {entries.length > 0 && (
          <>
            <Badge variant="light" color={valid > MAX_RECIPIENTS_SINGLE ? 'red' : 'indigo'}>
              {valid === 1
                ? t('{{count}} recipient', { count: valid })
                : t('{{count}} recipients', { count: valid })}
            </Badge>
            {invalid > 0 && (
              <Badge variant="light" color="red">
                {t('{{count}} invalid', { count: invalid })}
              </Badge>
            )}
            {duplicates > 0 && (
              <Text size="xs" c="dimmed">
                {duplicates === 1
                  ? t('{{count}} duplicate skipped', { count: duplicates })
                  : t('{{count}} duplicates skipped', { count: duplicates })}
              </Text>
            )}
            {invalid > 0 && (
              <Anchor
                component="button"
                type="button"
                size="xs"
                onClick={() => onChange(entries.filter((e) => e.e164))}
              >
                {t('Remove invalid')}
              </Anchor>
            )}
            <Anchor
              component="button"
              type="button"
              size="xs"
              c="dimmed"
              onClick={() => {
                onChange([]);
                setDuplicates(0);
              }}
            >
              {t('Clear all')}
            </Anchor>
          </>
        )}
      </Group>
    </div>
  );
}
