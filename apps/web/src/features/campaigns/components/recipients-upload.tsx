import { useState, type DragEvent } from 'react';
import { Alert, FileInput, Group, Paper, Progress, Select, Stack, Text } from '@mantine/core';
import type { CampaignUploadDto } from '@wren/contracts';
import { HttpError } from '@/lib/http/http-error';
import { uploadRecipients } from '../api/campaigns';
import { formatNumber } from '@/lib/format';
import { useT } from '@/lib/i18n';

/** What the file chooser offers; the server checks the content, not the name. */
const ACCEPT =
  '.csv,.txt,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface RecipientsUploadProps {
  label: string;
  description: string;
  upload: CampaignUploadDto | null;
  onUpload: (upload: CampaignUploadDto | null) => void;
  phoneColumn: string | null;
  onPhoneColumn: (column: string | null) => void;
  error?: string;
}

/** A recipients file: chosen or dropped, uploaded with a progress bar, then its phone column picked. */
export function RecipientsUpload(props: RecipientsUploadProps) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const choose = async (next: File | null) => {
    setFile(next);
    setFailure(null);
    props.onUpload(null);
    if (!next) return;
    setProgress(0);
    try {
      const up = await uploadRecipients(next, setProgress);
      props.onUpload(up);
      props.onPhoneColumn(up.phoneColumn ?? (up.columns.length === 1 ? (up.columns[0] ?? null) : null));
    } catch (error) {
      setFailure(error instanceof HttpError || error instanceof Error ? error.message : String(error));
    } finally {
      setProgress(null);
    }
  };
  const over = (event: DragEvent) => {
    event.preventDefault();
    setDragging(true);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) void choose(dropped);
  };

  return (
    <Paper
      radius="md"
      p="md"
      onDragOver={over}
      onDragEnter={over}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
      data-testid="recipients-upload"
      style={{
        border: `2px dashed ${dragging ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-default-border)'}`,
        background: dragging ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <Stack gap="sm">
        <FileInput
          label={props.label}
          description={props.description}
          placeholder={t('Choose or drop a CSV, TXT or XLSX file')}
          accept={ACCEPT}
          value={file}
          onChange={(f) => void choose(f)}
          disabled={progress !== null}
          clearable={progress === null}
          clearButtonProps={{ 'aria-label': t('Remove the file') }}
          error={failure ?? props.error}
        />
        {progress !== null && (
          <Stack gap={4}>
            <Group justify="space-between">
              <Text size="sm">{progress < 100 ? t('Uploading…') : t('Reading the file…')}</Text>
              <Text size="sm" c="dimmed">
                {progress}%
              </Text>
            </Group>
            <Progress value={progress} animated aria-label={t('Upload progress')} />
          </Stack>
        )}
        {props.upload && (
          <>
            <Alert variant="light" color="teal" p="xs" data-testid="upload-summary">
              <Text size="sm">
                <b>{props.upload.fileName}</b>
                {props.upload.columns.length === 1
                  ? t(': about {{rows}} rows, {{count}} column', {
                      rows: formatNumber(props.upload.rowCountGuess),
                      count: props.upload.columns.length,
                    })
                  : t(': about {{rows}} rows, {{count}} columns', {
                      rows: formatNumber(props.upload.rowCountGuess),
                      count: props.upload.columns.length,
                    })}
              </Text>
            </Alert>
            <Select
              label={t('Phone number column')}
              required
              data={props.upload.columns}
              value={props.phoneColumn}
              onChange={props.onPhoneColumn}
              allowDeselect={false}
              error={!props.phoneColumn ? t('Choose the column with the phone numbers') : undefined}
            />
          </>
        )}
      </Stack>
    </Paper>
  );
}
