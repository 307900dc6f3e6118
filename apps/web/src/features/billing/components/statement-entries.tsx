import { useState } from 'react';
import { Alert, Button, Card, Center, Table, Text, Title } from '@mantine/core';
import type { StatementDto, StatementEntryDto } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { formatDateTime, formatNumber } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { fetchEntries } from '../api/statements';
import { useT } from '@/lib/i18n';

/**
 * The month's entries, oldest first, with the running balance; the first page comes with the
 * statement, "Show more" loads the next 50. Keyed by month by its parent, so a new month starts over.
 */
export function StatementEntries({
  statement: s,
  monthTitle,
}: {
  statement: StatementDto;
  monthTitle: string;
}) {
  const [more, setMore] = useState<StatementEntryDto[]>([]);
  const [next, setNext] = useState<number | null>(s.entries.nextAfter);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const items = [...s.entries.items, ...more];
  const money = (minor: number) => formatMoney(minor, s.currency);
  const t = useT();

  const loadMore = async () => {
    if (next === null) return;
    setLoading(true);
    setError(null);
    try {
      const page = await fetchEntries(s.month, next);
      setMore((m) => [...m, ...page.items]);
      setNext(page.nextAfter);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setLoading(false);
    }
  };

  return (
    <Card withBorder radius="md" padding={0}>
      <Title order={2} size="h4" p="md" pb="xs">
        {t('Entries')}
        <Text span c="dimmed" fw={400} size="sm" ml="xs">
          {t('{{count}} in {{month}}', { count: formatNumber(s.entryCount), month: monthTitle })}
        </Text>
      </Title>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed" px="md" pb="md" data-testid="statement-empty">
          {t('No entries in {{month}}: the balance stayed at {{amount}}.', {
            month: monthTitle,
            amount: money(s.openingBalanceMinor),
          })}
        </Text>
      ) : (
        <ResponsiveTable minWidth={760} verticalSpacing="xs" aria-label={t('Ledger entries')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Date')}</Table.Th>
              <Table.Th>{t('Kind')}</Table.Th>
              <Table.Th>{t('Reference')}</Table.Th>
              <Table.Th>{t('Description')}</Table.Th>
              <Table.Th ta="right">{t('Amount')}</Table.Th>
              <Table.Th ta="right">{t('Balance')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td data-label={t('Date')}>{formatDateTime(e.at, { timeZone: s.timeZone })}</Table.Td>
                <Table.Td data-label={t('Kind')} style={{ whiteSpace: 'nowrap' }}>
                  {e.kindLabel}
                </Table.Td>
                <Table.Td data-label={t('Reference')}>
                  <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {e.reference ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td data-label={t('Description')}>
                  <Text size="sm" lineClamp={2}>
                    {e.description}
                  </Text>
                </Table.Td>
                <Table.Td data-label={t('Amount')} ta="right" style={{ whiteSpace: 'nowrap' }}>
                  <Text span size="sm" ff="monospace">
                    {e.amountMinor > 0 ? '+' : ''}
                    {money(e.amountMinor)}
                  </Text>
                </Table.Td>
                <Table.Td data-label={t('Balance')} ta="right" style={{ whiteSpace: 'nowrap' }}>
                  <Text span size="sm" ff="monospace">
                    {money(e.balanceMinor)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
      )}
      {error && (
        <Alert color="red" variant="light" m="md" title={t('Could not load more entries')}>
          {error}
        </Alert>
      )}
      {next !== null && (
        <Center p="md">
          <Button variant="default" loading={loading} onClick={() => void loadMore()}>
            {t('Show more ({{shown}} of {{total}} shown)', {
              shown: items.length,
              total: formatNumber(s.entryCount),
            })}
          </Button>
        </Center>
      )}
    </Card>
  );
}
