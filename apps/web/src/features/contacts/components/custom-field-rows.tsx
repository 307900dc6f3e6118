import { ActionIcon, Autocomplete, Button, Group, Input, Stack, TextInput } from '@mantine/core';
import { MAX_CUSTOM_FIELDS } from '@wren/contracts';
import { useT } from '@/lib/i18n';
import type { ContactFormApi } from './use-contact-form';
import { IconPlus, IconTrash } from './icons';

interface CustomFieldRowsProps {
  form: ContactFormApi;
  knownKeys: string[];
}

/** Key/value rows for a contact's custom fields, usable as {{key}} placeholders. */
export function CustomFieldRows({ form, knownKeys }: CustomFieldRowsProps) {
  const t = useT();
  const rows = form.values.fields;
  const used = new Set(rows.map((r) => r.key.trim()));
  const suggestions = knownKeys.filter((k) => !used.has(k));

  return (
    <Stack gap="xs" role="group" aria-labelledby="custom-fields-label">
      <div>
        <Input.Label labelElement="div" id="custom-fields-label">
          {t('Custom fields')}
        </Input.Label>
        <Input.Description>
          {t('Extra details for personalised messages: a field named city fills {{placeholder}}.', {
            placeholder: '{{city}}',
          })}
        </Input.Description>
      </div>
      {rows.map((_, i) => (
        <Group key={form.key(`fields.${i}`)} gap="xs" align="flex-start" wrap="nowrap">
          <Autocomplete
            aria-label={t('Field name {{n}}', { n: i + 1 })}
            placeholder={t('Field name')}
            data={suggestions}
            style={{ flex: 2 }}
            {...form.getInputProps(`fields.${i}.key`)}
          />
          <TextInput
            aria-label={t('Field value {{n}}', { n: i + 1 })}
            placeholder={t('Value')}
            style={{ flex: 3 }}
            {...form.getInputProps(`fields.${i}.value`)}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size={36}
            onClick={() => form.removeListItem('fields', i)}
            aria-label={t('Remove field {{n}}', { n: i + 1 })}
          >
            <IconTrash />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconPlus size={14} />}
          disabled={rows.length >= MAX_CUSTOM_FIELDS}
          onClick={() => form.insertListItem('fields', { key: '', value: '' })}
        >
          {t('Add field')}
        </Button>
      </Group>
    </Stack>
  );
}
