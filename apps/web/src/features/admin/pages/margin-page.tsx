import { useState } from 'react';
import { Button, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import type { MarginRowDto } from '@wren/contracts';
import { ResponsiveTable } from '@/components/responsive-table';
import { formatNumber } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { currentLocale, useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { downloadMargin, useMargin } from '../api/routes-api';
import { EmptyBlock, ErrorBlock, LoadingBlock, SectionHeader } from '../components/common';

const DAY_MS = 86_400_000;
/** A UTC day as YYYY-MM-DD, `back` days before today. */
const utcDay = (back = 0) => new Date(Date.now() - back * DAY_MS).toISOString().slice(0, 10);

/** Amounts in millionths of the currency's unit, with at least four decimals (carrier prices). */
function microsFormatter(currency: string) {
  const format = new Intl.NumberFormat(currentLocale(), {
    style: 'currency',
    currency,
    minimumFractionDigits: 4,
    maximumFractionDigits: 6,
  });
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits;
  const perMinor = 10 ** (6 - (digits ?? 2));
  return {
    micros: (m: number) => format.format(m / 1_000_000),
    minor: (m: number) => format.format((m * perMinor) / 1_000_000),
  };
}

type Totals = Pick<MarginRowDto, 'messages' | 'segments' | 'priceMinor' | 'costMicros' | 'marginMicros'>;

const sum = (rows: MarginRowDto[]): Totals =>
  rows.reduce<Totals>(
    (t, r) => ({
      messages: t.messages + r.messages,
      segments: t.segments + r.segments,
      priceMinor: t.priceMinor + r.priceMinor,
      costMicros: t.costMicros + r.costMicros,
      marginMicros: t.marginMicros + r.marginMicros,
    }),
    { messages: 0, segments: 0, priceMinor: 0, costMicros: 0, marginMicros: 0 },
  );

/**
 * Admin → Margin (issue 38): what customers paid against the carriers' cost, by UTC day,
 * destination country and connection, for routed messages; the same report as CSV.
 */
export default function MarginPage() {
  const t = useT();
  const [from, setFrom] = useState(() => utcDay(6));
  const [to, setTo] = useState(() => utcDay(0));
  const report = useMargin(from, to);
  const [downloading, setDownloading] = useState(false);
  const rows = report.data?.rows ?? [];
  const fmt = microsFormatter(report.data?.currency ?? 'USD');
  const totals = sum(rows);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadMargin(from, to);
    } catch (e) {
      toast.error(messageOf(e));
    } finally {
      setDownloading(false);
    }
  };

  const money = (micros: number) => (
    <Text span size="sm" ff="monospace" c={micros < 0 ? 'red.8' : undefined}>
      {fmt.micros(micros)}
    </Text>
  );

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md">
        <SectionHeader
          title={t('Margin')}
          hint={t(
            'Price paid against carrier cost for messages a route chose, by UTC day, country and connection',
          )}
        >
          <Button
            variant="default"
            loading={downloading}
            disabled={!from || !to}
            onClick={() => void download()}
          >
            {t('Download CSV')}
          </Button>
        </SectionHeader>
        <Group px="md" pb="md" gap="sm" align="flex-end" wrap="wrap">
          <TextInput
            type="date"
            label={t('From (UTC)')}
            value={from}
            max={to || undefined}
            onChange={(e) => setFrom(e.currentTarget.value)}
          />
          <TextInput
            type="date"
            label={t('To (UTC)')}
            value={to}
            min={from || undefined}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          <Button
            variant="subtle"
            onClick={() => {
              setFrom(utcDay(6));
              setTo(utcDay(0));
            }}
          >
            {t('Last 7 days')}
          </Button>
        </Group>
        {report.isPending && report.isFetching && <LoadingBlock label={t('Loading the margin report…')} />}
        {report.isError && (
          <ErrorBlock message={messageOf(report.error)} onRetry={() => void report.refetch()} />
        )}
        {report.isSuccess && rows.length === 0 && (
          <EmptyBlock title={t('No routed messages in these days')}>
            {t('Only messages a route chose have a carrier cost on record; add routes under Admin → Routes.')}
          </EmptyBlock>
        )}
        {report.isSuccess && rows.length > 0 && (
          <ResponsiveTable minWidth={900} verticalSpacing="xs" data-testid="admin-margin">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Day')}</Table.Th>
                <Table.Th>{t('Country')}</Table.Th>
                <Table.Th>{t('Connection')}</Table.Th>
                <Table.Th ta="right">{t('Messages')}</Table.Th>
                <Table.Th ta="right">{t('Segments')}</Table.Th>
                <Table.Th ta="right">{t('Price')}</Table.Th>
                <Table.Th ta="right">{t('Cost')}</Table.Th>
                <Table.Th ta="right">{t('Margin')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={`${r.day}|${r.country ?? ''}|${r.connection}`}>
                  <Table.Td data-label={t('Day')} ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                    {r.day}
                  </Table.Td>
                  <Table.Td data-label={t('Country')}>{r.countryName}</Table.Td>
                  <Table.Td data-label={t('Connection')} ff="monospace">
                    {r.connection}
                  </Table.Td>
                  <Table.Td data-label={t('Messages')} ta="right">
                    {formatNumber(r.messages)}
                  </Table.Td>
                  <Table.Td data-label={t('Segments')} ta="right">
                    {formatNumber(r.segments)}
                  </Table.Td>
                  <Table.Td data-label={t('Price')} ta="right" ff="monospace">
                    {fmt.minor(r.priceMinor)}
                  </Table.Td>
                  <Table.Td data-label={t('Cost')} ta="right" ff="monospace">
                    {fmt.micros(r.costMicros)}
                  </Table.Td>
                  <Table.Td data-label={t('Margin')} ta="right">
                    {money(r.marginMicros)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr fw={700} data-testid="margin-totals">
                <Table.Td data-label="" colSpan={3}>
                  {t('Total')}
                </Table.Td>
                <Table.Td data-label={t('Messages')} ta="right">
                  {formatNumber(totals.messages)}
                </Table.Td>
                <Table.Td data-label={t('Segments')} ta="right">
                  {formatNumber(totals.segments)}
                </Table.Td>
                <Table.Td data-label={t('Price')} ta="right" ff="monospace">
                  {fmt.minor(totals.priceMinor)}
                </Table.Td>
                <Table.Td data-label={t('Cost')} ta="right" ff="monospace">
                  {fmt.micros(totals.costMicros)}
                </Table.Td>
                <Table.Td data-label={t('Margin')} ta="right">
                  {money(totals.marginMicros)}
                </Table.Td>
              </Table.Tr>
            </Table.Tfoot>
          </ResponsiveTable>
        )}
      </Paper>
    </Stack>
  );
}
