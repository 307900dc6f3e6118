import { Card, Table, Text, Title } from '@mantine/core';
import type { StatementDto } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { formatMoney } from '@/lib/money';
import { formatNumber } from '@/lib/format';
import { useT } from '@/lib/i18n';

/** The month's messages by destination country. */
export function StatementUsage({ statement: s }: { statement: StatementDto }) {
  const money = (minor: number) => formatMoney(minor, s.currency);
  const t = useT();
  return (
    <Card withBorder radius="md" padding={0}>
      <Title order={2} size="h4" p="md" pb="xs">
        {t('Usage by country')}
      </Title>
      {s.usage.length === 0 ? (
        <Text size="sm" c="dimmed" px="md" pb="md">
          {t('No messages were sent this month.')}
        </Text>
      ) : (
        <ResponsiveTable minWidth={560} verticalSpacing="xs" aria-label={t('Usage by country')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Country')}</Table.Th>
              <Table.Th ta="right">{t('Messages')}</Table.Th>
              <Table.Th ta="right">{t('Parts')}</Table.Th>
              <Table.Th ta="right">{t('Charged')}</Table.Th>
              <Table.Th ta="right">{t('Refunded')}</Table.Th>
              <Table.Th ta="right">{t('Cost')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {s.usage.map((u) => (
              <Table.Tr key={u.country ?? 'unknown'}>
                <Table.Td data-label={t('Country')}>{u.countryName}</Table.Td>
                <Table.Td data-label={t('Messages')} ta="right">
                  {formatNumber(u.messages)}
                </Table.Td>
                <Table.Td data-label={t('Parts')} ta="right">
                  {formatNumber(u.parts)}
                </Table.Td>
                <Table.Td data-label={t('Charged')} ta="right">
                  <Text span size="sm" ff="monospace">
                    {money(u.chargedMinor)}
                  </Text>
                </Table.Td>
                <Table.Td data-label={t('Refunded')} ta="right">
                  <Text span size="sm" ff="monospace">
                    {money(u.refundedMinor)}
                  </Text>
                </Table.Td>
                <Table.Td data-label={t('Cost')} ta="right">
                  <Text span size="sm" ff="monospace">
                    {money(u.costMinor)}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </ResponsiveTable>
      )}
    </Card>
  );
}
