import { useState } from 'react';
import { Alert, Button, Card, Center, Table, Text, Title } from '@mantine/core';
import type { StatementDto, StatementEntryDto } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { formatDateTime, formatNumber } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import { fetchEntries } from '../api/statements';

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
        Entries
        <Text span c="dimmed" fw={400} size="sm" ml="xs">
          {formatNumber(s.entryCount)} in {monthTitle}
        </Text>
      </Title>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed" px="md" pb="md" data-testid="statement-empty">
          No entries in {monthTitle}: the balance stayed at {money(s.openingBalanceMinor)}.
        </Text>
      ) : (
        <ResponsiveTable minWidth={760} verticalSpacing="xs" aria-label="Ledger entries">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Reference</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th ta="right">Balance</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td data-label="Date">{formatDateTime(e.at, { timeZone: s.timeZone })}</Table.Td>
                <Table.Td data-label="Kind" style={{ whiteSpace: 'nowrap' }}>
                  {e.kindLabel}
                </Table.Td>
                <Table.Td data-label="Reference">
                  <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {e.reference ?? '—'}
                  </Text>
                </Table.Td>
                <Table.Td data-label="Description">
                  <Text size="sm" lineClamp={2}>
                    {e.description}
                  </Text>
                </Table.Td>
                <Table.Td data-label="Amount" ta="right" style={{ whiteSpace: 'nowrap' }}>
                  <Text span size="sm" ff="monospace">
                    {e.amountMinor > 0 ? '+' : ''}
                    {money(e.amountMinor)}
                  </Text>
                </Table.Td>
                <Table.Td data-label="Balance" ta="right" style={{ whiteSpace: 'nowrap' }}>
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
        <Alert color="red" variant="light" m="md" title="Could not load more entries">
          {error}
        </Alert>
      )}
      {next !== null && (
        <Center p="md">
          <Button variant="default" loading={loading} onClick={() => void loadMore()}>
            Show more ({items.length} of {formatNumber(s.entryCount)} shown)
          </Button>
        </Center>
      )}
    </Card>
  );
}
