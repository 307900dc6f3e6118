import { useState } from 'react';
import {
  Alert,
  Button,
  FileButton,
  Group,
  Paper,
  Progress,
  SegmentedControl,
  Table,
  Text,
} from '@mantine/core';
import { ADMIN_API, type ImportResult, type RatePlanDetail } from '@wren/contracts';
import { downloadFile } from '@/lib/download';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { adminPath, useImportPrices } from '../api/admin-api';
import { rich } from './common';

interface RatePlanImportCardProps {
  plan: RatePlanDetail;
  /** Where a failed import says why (the price table's alert); null clears it. */
  onError: (message: string | null) => void;
}

/** A rate plan's prices from a CSV (added and updated, or replacing all) and to one. */
export function RatePlanImportCard({ plan: p, onError: setError }: RatePlanImportCardProps) {
  const t = useT();
  const id = p.id;
  const importPrices = useImportPrices();
  const [importMode, setImportMode] = useState<'merge' | 'replace'>('merge');
  const [progress, setProgress] = useState<number | null>(null);
  const [imported, setImported] = useState<ImportResult | null>(null);

  const onFile = async (file: File | null) => {
    if (!file) return;
    setImported(null);
    setError(null);
    if (file.size > 1_000_000) return setError(t('The file is too large (1 MB at most).'));
    setProgress(0);
    try {
      const csv = await file.text();
      const res = await importPrices.mutateAsync({ id, csv, mode: importMode, onProgress: setProgress });
      setImported(res);
      if (res.rejected.length === 0) toast.success(t('Imported {{count}} prices.', { count: res.imported }));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setProgress(null);
    }
  };

  return (
    <Paper withBorder radius="md" p="md">
      <Text fw={600} mb="xs">
        {t('Import and export')}
      </Text>
      <Text size="sm" c="dimmed" mb="sm">
        {rich(
          t,
          'CSV with a header row and the columns {{prefix}} and {{price}} (major units, e.g. 0.05); a {{country}} column is ignored. A file with any bad row is not imported; the bad rows are listed.',
          { prefix: <code>prefix</code>, price: <code>price</code>, country: <code>country</code> },
        )}
      </Text>
      <Group gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label={t('Import mode')}
          value={importMode}
          onChange={(v) => setImportMode(v)}
          data={[
            { value: 'merge', label: t('Add and update') },
            { value: 'replace', label: t('Replace all prices') },
          ]}
        />
        <FileButton onChange={(f) => void onFile(f)} accept=".csv,text/csv">
          {(props) => (
            <Button {...props} variant="default" loading={importPrices.isPending}>
              {t('Import CSV…')}
            </Button>
          )}
        </FileButton>
        <Button
          variant="default"
          onClick={() =>
            void downloadFile(adminPath(ADMIN_API.ratePlanExport, id), `rate-plan-${p.name}.csv`).catch(
              (e: unknown) => toast.error(messageOf(e)),
            )
          }
        >
          {t('Export CSV')}
        </Button>
      </Group>
      {progress !== null && <Progress value={progress * 100} mt="sm" aria-label={t('Upload progress')} />}
      {imported && imported.rejected.length > 0 && (
        <Alert
          color="red"
          variant="light"
          mt="sm"
          title={
            imported.rejected.length === 1
              ? t('Not imported: {{count}} bad row', { count: imported.rejected.length })
              : t('Not imported: {{count}} bad rows', { count: imported.rejected.length })
          }
        >
          <Table fz="sm" verticalSpacing={2}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Line')}</Table.Th>
                <Table.Th>{t('Row')}</Table.Th>
                <Table.Th>{t('Problem')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {imported.rejected.slice(0, 100).map((r) => (
                <Table.Tr key={r.line}>
                  <Table.Td>{r.line}</Table.Td>
                  <Table.Td ff="monospace">{r.value}</Table.Td>
                  <Table.Td>{r.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Alert>
      )}
    </Paper>
  );
}
