import { useState, type DragEvent } from 'react';
import { FileInput, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { useT } from '@/lib/i18n';
import { IMPORT_ACCEPT } from '../import-file-check';
import { IconUpload } from './icons';

interface FileDropZoneProps {
  file: File | null;
  disabled?: boolean;
  error?: string | null;
  onFile: (file: File | null) => void;
}

/** A file chooser that also takes a file dropped anywhere on its area. */
export function FileDropZone({ file, disabled, error, onFile }: FileDropZoneProps) {
  const t = useT();
  const [dragging, setDragging] = useState(false);
  const over = (event: DragEvent) => {
    event.preventDefault();
    if (!disabled) setDragging(true);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !disabled) onFile(dropped);
  };

  return (
    <Paper
      radius="md"
      p="xl"
      onDragOver={over}
      onDragEnter={over}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      data-testid="file-drop-zone"
      style={{
        border: `2px dashed ${dragging ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
        background: dragging ? 'var(--mantine-primary-color-light)' : undefined,
        transition: 'background 120ms, border-color 120ms',
      }}
    >
      <Stack align="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconUpload size={28} />
        </ThemeIcon>
        <Text fw={600} ta="center">
          {t('Drop a file here, or choose one')}
        </Text>
        <Text size="sm" c="dimmed" ta="center" maw={420}>
          {t(
            'CSV, TXT or XLSX, up to 20 MB. One contact per row; the first row may hold column names such as phone, name, city.',
          )}
        </Text>
        <FileInput
          w="100%"
          maw={420}
          label={t('Contacts file')}
          placeholder={t('Choose a CSV, TXT or XLSX file')}
          accept={IMPORT_ACCEPT}
          value={file}
          onChange={onFile}
          disabled={disabled}
          error={error}
          clearable={!disabled}
        />
      </Stack>
    </Paper>
  );
}
