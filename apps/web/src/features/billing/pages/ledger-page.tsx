import { useState } from 'react';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { LEDGER_KIND_FILTERS, LEDGER_KIND_LABELS } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { formatDateTime } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { downloadLedger, useLedger, type LedgerFilters } from '../api/billing';
import { BillingTabs } from '../components/billing-tabs';
import { ReadableBadge } from '../components/top-up-card';
import { translate, useT } from '@/lib/i18n';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const kindLabel = (kind: string) => {
  const label = (LEDGER_KIND_LABELS as Record<string, string>)[kind];
  return label ? translate(label) : kind.replace(/[._-]+/g, ' ');
};

/** Billing → Ledger (issue 47): every credit and debit of the account, filtered, paged, as CSV. */
export default function LedgerPage() {
  const t = useT();
  const [kind, setKind] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filters: LedgerFilters = {
    kind: kind ?? '',
    from: DAY.test(from) ? from : '',
    to: DAY.test(to) ? to : '',
  };
  const ledger = useLedger(filters);
  const [busy, setBusy] = useState(false);
  const items = ledger.data?.pages.flatMap((p) => p.items) ?? [];
  const first = ledger.data?.pages[0];
  const download = async () => {
    setBusy(true);
    try {
      await downloadLedger(filters);
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      <BillingTabs />
      <Group align="flex-end" wrap="wrap" gap="sm">
        <Select
          label={t('Kind')}
          placeholder={t('All kinds')}
          clearable
          data={LEDGER_KIND_FILTERS.map((k) => ({ value: k, label: t(LEDGER_KIND_LABELS[k]) }))}
          value={kind}
          onChange={setKind}
          w={{ base: '100%', xs: 180 }}
        />
        <TextInput
          type="date"
          label={t('From')}
          value={from}
          onChange={(e) => setFrom(e.currentTarget.value)}
          w={{ base: '100%', xs: 170 }}
        />
        <TextInput
          type="date"
          label={t('To')}
          value={to}
          onChange={(e) => setTo(e.currentTarget.value)}
          w={{ base: '100%', xs: 170 }}
        />
        <Button variant="default" loading={busy} onClick={() => void download()}>
          {t('Download CSV')}
        </Button>
      </Group>
      {ledger.isError && (
        <Alert color="red" variant="light" title={t('Could not load your ledger')}>
          <Group justify="space-between">
            <Text size="sm">{messageOf(ledger.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void ledger.refetch()}>
              {t('Try again')}
            </Button>
          </Group>
        </Alert>
      )}
      {ledger.isPending && (
        <Paper withBorder radius="md">
          <Center p="xl">
            <Loader size="sm" aria-label={t('Loading the ledger')} />
          </Center>
        </Paper>
      )}
      {first && (
        <Paper withBorder radius="md" p="md" style={{ opacity: ledger.isPlaceholderData ? 0.6 : 1 }}>
          <Text size="sm" c="dimmed" mb="sm">
            {t('Balance now: {{amount}} · dates in UTC', {
              amount: formatMoney(first.balanceMinor, first.currency),
            })}
          </Text>
          {items.length === 0 ? (
            <Text c="dimmed" ta="center" py="lg">
              {filters.kind || filters.from || filters.to
                ? t('No entries match these filters.')
                : t('No entries yet.')}
            </Text>
          ) : (
            <ResponsiveTable minWidth={640} data-testid="ledger-table">
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
                      {formatDateTime(e.createdAt, { timeZone: 'UTC' })}
                    </Table.Td>
                    <Table.Td data-label={t('Kind')}>
                      <ReadableBadge color={e.amountMinor >= 0 ? 'teal' : 'gray'}>
                        {kindLabel(e.kind)}
                      </ReadableBadge>
                    </Table.Td>
                    <Table.Td data-label={t('Amount')} ta="right" ff="monospace">
                      {e.amountMinor > 0 ? '+' : ''}
                      {formatMoney(e.amountMinor, e.currency)}
                    </Table.Td>
                    <Table.Td data-label={t('Note')}>
                      <Text size="sm" lineClamp={2}>
                        {e.note ?? ''}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </ResponsiveTable>
          )}
          {ledger.hasNextPage && (
            <Center mt="sm">
              <Button
                variant="light"
                loading={ledger.isFetchingNextPage}
                onClick={() => void ledger.fetchNextPage()}
              >
                {t('Load more')}
              </Button>
            </Center>
          )}
        </Paper>
      )}
    </Stack>
  );
}
