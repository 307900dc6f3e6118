import { useRef } from 'react';
import { useT } from '@/lib/i18n';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { CAMPAIGN_MAX_TEXT } from '@wren/contracts';

interface PersonalisedMessageFieldProps {
  value: string;
  onChange: (text: string) => void;
  /** The upload's columns, offered as {{column}} buttons that insert at the cursor. */
  columns: string[] | null;
  error: string | undefined;
  /** Where the values come from: a file's rows (default) or contact groups' contacts. */
  from?: 'file' | 'groups';
}

/** A personalised campaign's template: {{column}} placeholders filled from each row of the upload. */
export function PersonalisedMessageField({
  value,
  onChange,
  columns,
  error,
  from = 'file',
}: PersonalisedMessageFieldProps) {
  const t = useT();
  const textRef = useRef<HTMLTextAreaElement>(null);

  const insert = (column: string) => {
    const el = textRef.current;
    const token = `{{${column}}}`;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? value.length;
    onChange(value.slice(0, start) + token + value.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  return (
    <Stack gap={6}>
      <Textarea
        ref={textRef}
        label={t('Message')}
        description={
          from === 'groups'
            ? t(
                'Use {{name}}, {{phone}} or a custom field for each contact’s value; one a contact has not is left empty.',
                { name: '{{name}}', phone: '{{phone}}' },
              )
            : t('Use {{column}} for a value from each row.', { column: '{{column}}' })
        }
        placeholder={t('Hi {{name}}, your order {{order}} is ready.', {
          name: '{{name}}',
          order: '{{order}}',
        })}
        autosize
        minRows={4}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
        required
      />
      {columns && (
        <Group gap={6} aria-label={t('Insert a column')}>
          <Text size="xs" c="dimmed">
            {t('Insert:')}
          </Text>
          {columns.map((c) => (
            <Button key={c} size="compact-xs" variant="light" onClick={() => insert(c)}>
              {`{{${c}}}`}
            </Button>
          ))}
        </Group>
      )}
      <Text size="xs" c="dimmed">
        {t(
          '{{count}} / {{max}} characters in the template; each row is counted as it will be sent (see the preview).',
          {
            count: value.length,
            max: CAMPAIGN_MAX_TEXT,
          },
        )}
      </Text>
    </Stack>
  );
}
