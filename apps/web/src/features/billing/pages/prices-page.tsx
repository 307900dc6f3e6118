import { useState } from 'react';
import { Alert, Button, Center, Group, Loader, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { ResponsiveTable } from '@/components/responsive-table';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { downloadPrices, usePrices } from '../api/billing';
import { BillingTabs } from '../components/billing-tabs';
import { useT } from '@/lib/i18n';

/** Billing → Prices (issue 47): the account's price per SMS segment by country, searchable, as CSV. */
export default function PricesPage() {
  const t = useT();
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 250);
  const prices = usePrices(debounced);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadPrices();
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const data = prices.data;

  return (
    <Stack gap="md">
      <BillingTabs />
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label={t('Search')}
          placeholder={t('Country, code or prefix, e.g. Kenya, GB or 44')}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          w={{ base: '100%', xs: 340 }}
          maxLength={60}
        />
        <Button variant="default" loading={busy} onClick={() => void download()}>
          {t('Download CSV')}
        </Button>
      </Group>
      {prices.isError && (
        <Alert color="red" variant="light" title={t('Could not load your prices')}>
          <Group justify="space-between">
            <Text size="sm">{messageOf(prices.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void prices.refetch()}>
              {t('Try again')}
            </Button>
          </Group>
        </Alert>
      )}
      {prices.isPending && (
        <Paper withBorder radius="md">
          <Center p="xl">
            <Loader size="sm" aria-label={t('Loading prices')} />
          </Center>
        </Paper>
      )}
      {data && (
        <Paper withBorder radius="md" p="md" style={{ opacity: prices.isPlaceholderData ? 0.6 : 1 }}>
          <Text size="sm" c="dimmed" mb="sm">
            {t('Price of one SMS segment ({{currency}}). A long or Unicode message is several segments.', {
              currency: data.currency,
            })}
            {debounced
              ? ` ${t('{{count}} of {{total}} destinations match.', { count: data.items.length, total: data.total })}`
              : ''}
          </Text>
          {data.items.length === 0 ? (
            <Text c="dimmed" ta="center" py="lg">
              {data.total === 0
                ? t('Your rate plan has no prices yet.')
                : t('No destination matches “{{query}}”.', { query: debounced })}
            </Text>
          ) : (
            <ResponsiveTable minWidth={420} data-testid="price-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Country')}</Table.Th>
                  <Table.Th>{t('Prefix')}</Table.Th>
                  <Table.Th ta="right">{t('Per segment')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((p) => (
                  <Table.Tr key={p.prefix}>
                    <Table.Td data-label={t('Country')}>
                      {p.countryName ?? (p.prefix ? p.country : t('All other destinations'))}
                    </Table.Td>
                    <Table.Td data-label={t('Prefix')} ff="monospace">
                      {p.prefix || '—'}
                    </Table.Td>
                    <Table.Td data-label={t('Per segment')} ta="right" ff="monospace">
                      {formatMoney(p.priceMinor, data.currency)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </ResponsiveTable>
          )}
        </Paper>
      )}
    </Stack>
  );
}
