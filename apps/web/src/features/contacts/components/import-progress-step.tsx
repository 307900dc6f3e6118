import { useEffect } from 'react';
import { Alert, Button, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useDownloadImportReport } from '../api/download-import-report';
import { isImportFinished, useImportProgress } from '../api/get-import';
import { hasSkippedRows, importPercent, importProgressText } from '../import-progress';
import { countFormat } from './groups-table';
import { IconCheck, IconDownload } from './icons';

/** `name` names its test id (import-added…); `label` is shown. */
function Stat({ name, label, value, color }: { name: string; label: string; value: number; color?: string }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`import-${name}`}>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {label}
      </Text>
      <Text fz={26} fw={700} c={color}>
        {countFormat.format(value)}
      </Text>
    </Paper>
  );
}

interface ImportProgressStepProps {
  groupId: string;
  importId: string;
  /** Called once the import has completed or failed. */
  onFinished: () => void;
  onDone: () => void;
}

/** Step 3: the running import, polled every 500 ms, then its counts and the skipped-rows report. */
export function ImportProgressStep({ groupId, importId, onFinished, onDone }: ImportProgressStepProps) {
  const t = useT();
  const queryClient = useQueryClient();
  const progress = useImportProgress(groupId, importId);
  const report = useDownloadImportReport(groupId);
  const state = progress.data;
  const finished = isImportFinished(state?.status);

  useEffect(() => {
    if (!finished) return;
    onFinished();
    // The group's count and contact list changed; the import itself needs no refetch.
    void queryClient.invalidateQueries({
      queryKey: ['groups'],
      predicate: (q) => q.queryKey[2] !== 'imports',
    });
    // Runs once, when the import finishes (onFinished is left out of the dependencies on purpose).
  }, [finished, queryClient]);

  const downloadReport = async () => {
    try {
      await report.mutateAsync(importId);
    } catch (error) {
      toast.error(messageOf(error));
    }
  };

  const leave = () => {
    if (!finished) toast.info(t('The import goes on in the background; the group updates when it is done.'));
    onDone();
  };

  if (progress.isError && !state) {
    return (
      <Alert color="red" variant="light" title={t("The import's progress could not be loaded")} role="alert">
        {messageOf(progress.error)}
      </Alert>
    );
  }

  const percent = state ? importPercent(state) : 0;
  return (
    <Stack>
      <Stack gap={6}>
        <Group justify="space-between">
          <Text size="sm" aria-live="polite">
            {state ? importProgressText(state, (n) => countFormat.format(n)) : t('Starting…')}
          </Text>
          <Text size="sm" c="dimmed">
            {percent}%
          </Text>
        </Group>
        <Progress
          value={percent}
          size="lg"
          color={state?.status === 'failed' ? 'red' : state?.status === 'completed' ? 'teal' : undefined}
          striped={!finished}
          animated={!finished}
          aria-label={t('Import progress')}
        />
      </Stack>
      <SimpleGrid cols={3}>
        <Stat name="added" label={t('Added')} value={state?.inserted ?? 0} color="teal" />
        <Stat
          name="invalid"
          label={t('Invalid')}
          value={state?.invalid ?? 0}
          color={state?.invalid ? 'red' : undefined}
        />
        <Stat
          name="duplicates"
          label={t('Duplicates')}
          value={state?.duplicates ?? 0}
          color={state?.duplicates ? 'yellow.7' : undefined}
        />
      </SimpleGrid>
      {state?.status === 'completed' && (
        <Alert color="teal" variant="light" icon={<IconCheck />} title={t('Import complete')}>
          {state.inserted === 1
            ? t('{{count}} contact was added to the group.', { count: countFormat.format(state.inserted) })
            : t('{{count}} contacts were added to the group.', { count: countFormat.format(state.inserted) })}
          {hasSkippedRows(state) &&
            ` ${t('Rows with an invalid phone number or a number already in the group were skipped; the report lists them.')}`}
        </Alert>
      )}
      {state?.status === 'failed' && (
        <Alert color="red" variant="light" title={t('The import failed')} role="alert">
          {state.error ?? t('Something went wrong while reading the file. Check it and try again.')}
        </Alert>
      )}
      <Group justify="flex-end">
        {state && finished && hasSkippedRows(state) && (
          <Button
            variant="default"
            leftSection={<IconDownload />}
            loading={report.isPending}
            onClick={() => void downloadReport()}
          >
            {t('Download report')}
          </Button>
        )}
        <Button onClick={leave} variant={finished ? 'filled' : 'default'}>
          {finished ? t('Done') : t('Continue in the background')}
        </Button>
      </Group>
    </Stack>
  );
}
