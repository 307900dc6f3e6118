import { Card, SimpleGrid, Text } from '@mantine/core';
import type { CampaignDto } from '@wren/contracts';
import { formatMoney } from '@/lib/money';
import { formatNumber } from '@/lib/format';

function Stat({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <Card withBorder radius="md" p="md">
      <Text size="xs" tt="uppercase" fw={700} c="dimmed">
        {label}
      </Text>
      <Text fz={24} fw={700} data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

/** A campaign's figures in tiles, and a line on what was not sent and what was refunded. */
export function CampaignStats({ c }: { c: CampaignDto }) {
  const counts: Record<string, number> = c.counts;
  return (
    <>
      <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }}>
        <Stat label="Recipients" value={formatNumber(c.recipients)} testId="stat-recipients" />
        <Stat label="Delivered" value={(counts.delivered ?? 0).toLocaleString()} testId="stat-delivered" />
        <Stat label="Failed" value={formatNumber(c.failed)} testId="stat-failed" />
        <Stat label="Pending" value={formatNumber(c.pending)} testId="stat-pending" />
        <Stat label="Cost" value={formatMoney(c.costMinor - c.refundedMinor, c.currency)} />
        <Stat label="Delivery rate" value={`${(c.deliveryRate * 100).toFixed(1)}%`} />
      </SimpleGrid>
      {c.trackLinks && (
        <SimpleGrid cols={{ base: 1, xs: 3 }} aria-label="Link clicks">
          <Stat label="Link clicks" value={formatNumber(c.clicks)} testId="stat-clicks" />
          <Stat label="Unique clicks" value={formatNumber(c.uniqueClicks)} testId="stat-unique-clicks" />
          <Stat
            label="Click-through rate"
            value={`${(c.clickThroughRate * 100).toFixed(1)}%`}
            testId="stat-ctr"
          />
        </SimpleGrid>
      )}
      {(c.invalid > 0 || c.duplicates > 0 || c.suppressed > 0 || c.refundedMinor > 0) && (
        <Text size="sm" c="dimmed">
          Not sent: {formatNumber(c.invalid)} invalid, {formatNumber(c.duplicates)}{' '}
          {c.duplicates === 1 ? 'duplicate' : 'duplicates'}, {formatNumber(c.suppressed)} opted out (at
          acceptance, or before their turn came).
          {c.refundedMinor > 0 &&
            ` Refunded (not sent or not delivered): ${formatMoney(c.refundedMinor, c.currency)}.`}
        </Text>
      )}
    </>
  );
}
