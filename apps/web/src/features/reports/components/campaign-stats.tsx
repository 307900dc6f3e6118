import { Card, SimpleGrid, Text } from '@mantine/core';
import { useT } from '@/lib/i18n';
import type { CampaignDto } from '@wren/contracts';
import { formatMoney } from '@/lib/money';
import { formatNumber } from '@/lib/format';
import { formatRate } from '../format';

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
  const t = useT();
  const counts: Record<string, number> = c.counts;
  return (
    <>
      <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }}>
        <Stat label={t('Recipients')} value={formatNumber(c.recipients)} testId="stat-recipients" />
        <Stat label={t('Delivered')} value={formatNumber(counts.delivered ?? 0)} testId="stat-delivered" />
        <Stat label={t('Failed')} value={formatNumber(c.failed)} testId="stat-failed" />
        <Stat label={t('Pending')} value={formatNumber(c.pending)} testId="stat-pending" />
        <Stat label={t('Cost')} value={formatMoney(c.costMinor - c.refundedMinor, c.currency)} />
        <Stat label={t('Delivery rate')} value={formatRate(c.deliveryRate)} />
      </SimpleGrid>
      {c.trackLinks && (
        <SimpleGrid cols={{ base: 1, xs: 3 }} aria-label={t('Link clicks')}>
          <Stat label={t('Link clicks')} value={formatNumber(c.clicks)} testId="stat-clicks" />
          <Stat label={t('Unique clicks')} value={formatNumber(c.uniqueClicks)} testId="stat-unique-clicks" />
          <Stat label={t('Click-through rate')} value={formatRate(c.clickThroughRate)} testId="stat-ctr" />
        </SimpleGrid>
      )}
      {(c.invalid > 0 || c.duplicates > 0 || c.suppressed > 0 || c.refundedMinor > 0) && (
        <Text size="sm" c="dimmed">
          {c.duplicates === 1
            ? t(
                'Not sent: {{invalid}} invalid, {{duplicates}} duplicate, {{suppressed}} opted out (at acceptance, or before their turn came).',
                {
                  invalid: formatNumber(c.invalid),
                  duplicates: formatNumber(c.duplicates),
                  suppressed: formatNumber(c.suppressed),
                },
              )
            : t(
                'Not sent: {{invalid}} invalid, {{duplicates}} duplicates, {{suppressed}} opted out (at acceptance, or before their turn came).',
                {
                  invalid: formatNumber(c.invalid),
                  duplicates: formatNumber(c.duplicates),
                  suppressed: formatNumber(c.suppressed),
                },
              )}
          {c.refundedMinor > 0 &&
            t(' Refunded (not sent or not delivered): {{amount}}.', {
              amount: formatMoney(c.refundedMinor, c.currency),
            })}
        </Text>
      )}
    </>
  );
}
