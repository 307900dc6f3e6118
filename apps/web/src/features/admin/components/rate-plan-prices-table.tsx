import { ActionIcon, Table, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@/components/icons';
import { ResponsiveTable } from '@/components/responsive-table';
import { useT } from '@/lib/i18n';
import type { PriceRow } from '../rate-plan-rows';

interface RatePlanPricesTableProps {
  rows: PriceRow[];
  onRowsChange: (update: (rows: PriceRow[]) => PriceRow[]) => void;
  currency: string;
}

/** A rate plan's prices as editable rows: prefix, its country, the price per segment. */
export function RatePlanPricesTable({ rows, onRowsChange: setRows, currency }: RatePlanPricesTableProps) {
  const t = useT();
  return (
    <ResponsiveTable minWidth={520} verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Prefix')}</Table.Th>
          <Table.Th>{t('Country')}</Table.Th>
          <Table.Th>{t('Price per segment ({{currency}})', { currency })}</Table.Th>
          <Table.Th aria-label={t('Actions')} />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r, i) => (
          <Table.Tr key={r.key}>
            <Table.Td data-label={t('Prefix')}>
              <TextInput
                size="xs"
                aria-label={t('Prefix of row {{row}}', { row: i + 1 })}
                placeholder={t('(everywhere else)')}
                value={r.prefix}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  setRows((all) =>
                    all.map((x) => (x.key === r.key ? { ...x, prefix: v, countryName: null } : x)),
                  );
                }}
              />
            </Table.Td>
            <Table.Td data-label={t('Country')}>
              <Text size="sm">{r.prefix ? (r.countryName ?? '—') : t('All other destinations')}</Text>
            </Table.Td>
            <Table.Td data-label={t('Price')}>
              <TextInput
                size="xs"
                aria-label={t('Price of row {{row}}', { row: i + 1 })}
                value={r.price}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  setRows((all) => all.map((x) => (x.key === r.key ? { ...x, price: v } : x)));
                }}
              />
            </Table.Td>
            <Table.Td data-label="">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('Remove row {{row}}', { row: i + 1 })}
                onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))}
              >
                <IconTrash />
              </ActionIcon>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </ResponsiveTable>
  );
}
