import { useState } from 'react';
import { Anchor, Group, Progress, Stack, Text } from '@mantine/core';
import type { ImportUploadDto } from '@wren/contracts';
import { saveBlob } from '@/lib/download';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { useUploadImport } from '../api/upload-import';
import { formatBytes, importFileProblem } from '../import-file-check';
import { FileDropZone } from './file-drop-zone';

const SAMPLE_CSV =
  'phone,name,city\r\n+14155550123,Ada Lovelace,London\r\n+12125550101,Alan Turing,Manchester\r\n';

interface ImportUploadStepProps {
  groupId: string;
  onUploaded: (upload: ImportUploadDto) => void;
}

/** Step 1: choose a file (checked here first) and upload it with a progress bar. */
export function ImportUploadStep({ groupId, onUploaded }: ImportUploadStepProps) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const upload = useUploadImport(groupId, setProgress);

  const choose = async (next: File | null) => {
    setFile(next);
    setProblem(null);
    if (!next) return;
    const issue = importFileProblem(next);
    if (issue) {
      setProblem(issue);
      return;
    }
    setProgress(0);
    try {
      onUploaded(await upload.mutateAsync(next));
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Stack>
      <FileDropZone file={file} disabled={upload.isPending} error={problem} onFile={(f) => void choose(f)} />
      {progress !== null && file && (
        <Stack gap={6}>
          <Group justify="space-between">
            <Text size="sm">
              {progress < 100
                ? t('Uploading {{name}} ({{size}})', { name: file.name, size: formatBytes(file.size) })
                : t('Reading {{name}}…', { name: file.name })}
            </Text>
            <Text size="sm" c="dimmed">
              {progress}%
            </Text>
          </Group>
          <Progress value={progress} size="lg" striped animated aria-label={t('Upload progress')} />
        </Stack>
      )}
      <Text size="xs" c="dimmed">
        {t(
          'Numbers without a country code are read as numbers of your account’s country. Not sure about the format?',
        )}{' '}
        <Anchor
          component="button"
          type="button"
          size="xs"
          onClick={() => saveBlob(new Blob([SAMPLE_CSV], { type: 'text/csv' }), 'contacts-sample.csv')}
        >
          {t('Download a sample CSV')}
        </Anchor>
      </Text>
    </Stack>
  );
}
