import { useState } from 'react';
import { Badge, Button, Paper, Table, Text } from '@mantine/core';
import { ADMIN_API, type AdminAccountDetail } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { downloadFile } from '@/lib/download';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { adminPath, useLedger } from '../api/admin-api';
import { ErrorBlock, LoadingBlock, LoadMore, SectionHeader, When } from './common';

/** The account's ledger, newest first, a page at a time, and its CSV export. */
export function AccountLedgerCard({ account }: { account: AdminAccountDetail }) {
  const t = useT();
  const ledger = useLedger(account.id);
  const items = ledger.data?.pages.flatMap((p) => p.items) ?? [];
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadFile(adminPath(ADMIN_API.ledgerCsv, account.id), `ledger-${account.name}.csv`);
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setExporting(false);
    }
  };
  return (
    <Paper withBorder radius="md">
      <SectionHeader
        title={t('Ledger')}
        hint={t('Every movement of money, newest first; the balance is their sum')}
      >
        <Button variant="default" onClick={() => void exportCsv()} loading={exporting}>
          {t('Export CSV')}
        </Button>
      </SectionHeader>
      {ledger.isPending && <LoadingBlock label={t('Loading the ledger…')} />}
      {ledger.isError && (
        <ErrorBlock message={messageOf(ledger.error)} onRetry={() => void ledger.refetch()} />
      )}
      {ledger.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed" p="md">
          {t('No entries yet.')}
        </Text>
      )}
      {items.length > 0 && (
        <ResponsiveTable minWidth={700} verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Date')}</Table.Th>
              <Table.Th>{t('Kind')}</Table.Th>
              <Table.Th ta="right">{t('Amount')}</Table.Th>
              <Table.Th>{t('Note')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td data-label={t('Date')}>
                  <When at={e.createdAt} />
                </Table.Td>
                <Table.Td data-label={t('Kind')}>
                  <Badge variant="light" color={e.kind === 'adjustment' ? 'grape' : 'gray'}>
                    {e.kind}
                  </Badge>
                </Table.Td>
                <Table.Td
                  data-label={t('Amount')}
                  ta="right"

                  ff="monospace"
                >
                  {e.amountMinor > 0 ? '+' : ''}
                  {formatMoney(e.amountMinor, e.currency)}
                </Table.Td>
                <Table.Td data-label={t('Note')}>
                  <Text size="sm" lineClamp={2}>
                    {e.note ?? e.reference ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
      )}
      <LoadMore
        hasMore={!!ledger.hasNextPage}
        loading={ledger.isFetchingNextPage}
        onMore={() => void ledger.fetchNextPage()}
        shown={items.length}
      />
    </Paper>
  );
}
