import { useState } from 'react';
import { Button, Checkbox, Group, Input, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { ImportDto, ImportUploadDto } from '@wren/contracts';
import { FormAlert } from '@/components/form-alert';
import { HttpError, messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useCommitImport } from '../api/commit-import';
import { buildMapping, fieldColumns, initialMapping, type MappingState } from '../import-mapping';
import { countFormat } from './groups-table';
import { ImportPreviewTable } from './import-preview-table';

interface ImportMappingStepProps {
  groupId: string;
  upload: ImportUploadDto;
  onBack: () => void;
  onStarted: (started: ImportDto) => void;
}

/** Step 2: which column holds the phone number, the name and each custom field, over a preview. */
export function ImportMappingStep({ groupId, upload, onBack, onStarted }: ImportMappingStepProps) {
  const t = useT();
  const commit = useCommitImport(groupId);
  const [state, setState] = useState<MappingState>(() => initialMapping(upload));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const others = fieldColumns(state);
  const options = (taken: string | null) =>
    upload.columns.map((c) => ({ value: c, label: c, disabled: c === taken }));

  const setField = (index: number, patch: Partial<MappingState['fields'][number]>) => {
    setState((s) => ({ ...s, fields: s.fields.map((f, i) => (i === index ? { ...f, ...patch } : f)) }));
    setErrors(({ [`fields.${index}.key`]: _, ...rest }) => rest);
  };

  const start = async () => {
    setFormError(null);
    const result = buildMapping(state);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    try {
      onStarted(await commit.mutateAsync({ importId: upload.importId, mapping: result.mapping }));
    } catch (error) {
      const phone = error instanceof HttpError ? error.fieldErrors['mapping.phone'] : undefined;
      if (phone) setErrors({ phone: phone.join(' ') });
      else setFormError(messageOf(error));
    }
  };

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        <b>{upload.fileName}</b> ·{' '}
        {upload.rowCountGuess === 1
          ? t('about {{count}} row', { count: countFormat.format(upload.rowCountGuess) })
          : t('about {{count}} rows', { count: countFormat.format(upload.rowCountGuess) })}{' '}
        ·{' '}
        {upload.hasHeader
          ? t('the first row holds column names')
          : t('no header row, so columns are numbered')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('Phone number column')}
          required
          data={options(state.name)}
          value={state.phone}
          onChange={(phone) => {
            setState((s) => ({ ...s, phone }));
            setErrors(({ phone: _, ...rest }) => rest);
          }}
          error={errors.phone}
          allowDeselect={false}
          placeholder={t('Choose a column')}
        />
        <Select
          label={t('Name column')}
          data={options(state.phone)}
          value={state.name}
          onChange={(name) => setState((s) => ({ ...s, name }))}
          clearable
          placeholder={t("Don't import names")}
        />
      </SimpleGrid>
      {others.length > 0 && (
        <Stack gap="xs" role="group" aria-labelledby="import-fields-label">
          <div>
            <Input.Label labelElement="div" id="import-fields-label">
              {t('Custom fields')}
            </Input.Label>
            <Input.Description>
              {t('Tick the other columns to keep; each becomes a field you can use as a placeholder.')}
            </Input.Description>
          </div>
          {others.map(({ field, index }) => (
            <Group key={field.column} gap="sm" align="flex-start" wrap="nowrap">
              <Checkbox
                label={field.column}
                checked={field.include}
                onChange={(e) => setField(index, { include: e.currentTarget.checked })}
                w={200}
                mt={8}
                styles={{ label: { overflowWrap: 'anywhere' } }}
              />
              <TextInput
                aria-label={t('Field name for {{column}}', { column: field.column })}
                leftSection={
                  <Text size="xs" c="dimmed">
                    {'{{'}
                  </Text>
                }
                rightSection={
                  <Text size="xs" c="dimmed">
                    {'}}'}
                  </Text>
                }
                value={field.key}
                disabled={!field.include}
                onChange={(e) => setField(index, { key: e.currentTarget.value })}
                error={errors[`fields.${index}.key`]}
                style={{ flex: 1 }}
              />
            </Group>
          ))}
        </Stack>
      )}
      <div>
        <Input.Label labelElement="div" mb={6}>
          {t('Preview')}
        </Input.Label>
        <ImportPreviewTable upload={upload} state={state} />
      </div>
      <FormAlert message={formError} />
      <Group justify="space-between">
        <Button variant="default" onClick={onBack} disabled={commit.isPending}>
          {t('Choose another file')}
        </Button>
        <Button onClick={() => void start()} loading={commit.isPending}>
          {t('Import contacts')}
        </Button>
      </Group>
    </Stack>
  );
}
