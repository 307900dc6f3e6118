import { Card, SimpleGrid, Table, Text } from '@mantine/core';
import type { StatementDto } from '@wren/contracts';
import { formatMoney } from '@/lib/money';
import { useT } from '@/lib/i18n';

function Figure({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  testId: string;
}) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {label}
      </Text>
      <Text fz={24} fw={700} lh={1.3} data-testid={`${testId}-value`}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}

/** The statement's headline figures and its totals by kind. */
export function StatementSummary({ statement: s }: { statement: StatementDto }) {
  const money = (minor: number) => formatMoney(minor, s.currency);
  const t = useT();
  return (
    <>
      <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
        <Figure
          label={t('Opening balance')}
          value={money(s.openingBalanceMinor)}
          testId="statement-opening"
        />
        <Figure label={t('Credits')} value={money(s.creditsMinor)} testId="statement-credits" />
        <Figure label={t('Debits')} value={money(s.debitsMinor)} testId="statement-debits" />
        <Figure
          label={t('Closing balance')}
          value={money(s.closingBalanceMinor)}
          hint={s.closed ? undefined : t('So far: the month is not over')}
          testId="statement-closing"
        />
      </SimpleGrid>
      <Card withBorder radius="md" padding={0}>
        <Table verticalSpacing="xs" aria-label={t('Totals by kind')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Kind')}</Table.Th>
              <Table.Th ta="right">{t('Entries')}</Table.Th>
              <Table.Th ta="right">{t('Amount')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {s.totals.map((total) => (
              <Table.Tr key={total.category}>
                <Table.Td>{total.label}</Table.Td>
                <Table.Td ta="right">{total.entries}</Table.Td>
                <Table.Td ta="right" ff="monospace">
                  {money(total.amountMinor)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </>
  );
}
