import { Box, Card, Group, Skeleton, Text, Title } from '@mantine/core';
import type { PerformanceData } from '@wren/contracts';
import { BarsSvg, type BarSeries } from './bars-svg';
import { formatCount, formatDay, formatRate, performanceTotals } from '../format';
import { useT } from '@/lib/i18n';

const SERIES: BarSeries<'sent' | 'delivered' | 'failed'>[] = [
  { name: 'sent', label: 'Sent', color: 'blue.6' },
  { name: 'delivered', label: 'Delivered', color: 'teal.6' },
  { name: 'failed', label: 'Failed', color: 'red.6' },
];

/** Sent, delivered and failed messages per day over 30 days, with the delivery rate. */
export function PerformanceCard({ data }: { data: PerformanceData | undefined }) {
  const t = useT();
  const totals = data && performanceTotals(data);
  const series = SERIES.map((s) => ({ ...s, label: t(s.label) }));
  const points = data?.map((p) => ({ ...p, label: formatDay(p.date) }));
  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid="performance">
      <Group justify="space-between" align="flex-start" gap="sm" mb="md" wrap="nowrap">
        <div>
          <Title order={2} size="h4">
            {t('Performance')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('Messages per day, last 30 days')}
          </Text>
        </div>
        <div style={{ textAlign: 'right' }}>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            {t('Delivery rate')}
          </Text>
          {totals ? (
            <Text fz={22} fw={700} lh={1.2} c="teal" data-testid="performance-rate">
              {formatRate(totals.deliveryRate)}
            </Text>
          ) : (
            <Skeleton height={24} width={70} mt={4} ml="auto" />
          )}
        </div>
      </Group>
      {!points || !totals ? (
        <Skeleton height={230} />
      ) : (
        <Box
          role="img"
          aria-label={t('Last 30 days: {{sent}} sent, {{delivered}} delivered, {{failed}} failed', {
            sent: formatCount(totals.sent),
            delivered: formatCount(totals.delivered),
            failed: formatCount(totals.failed),
          })}
        >
          <BarsSvg data={points} series={series} height={230} format={formatCount} />
        </Box>
      )}
    </Card>
  );
}
