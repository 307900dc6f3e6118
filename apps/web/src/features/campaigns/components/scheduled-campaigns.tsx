import { Anchor, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatMoney } from '@/lib/money';
import { formatInZone, formatNumber } from '@/lib/format';
import { useT } from '@/lib/i18n';
import { useCampaigns } from '../api/campaigns';
import { CampaignActions } from './campaign-actions';

const SCHEDULED = { status: 'scheduled' } as const;

/**
 * Campaigns waiting for their start time, beside the scheduled single sends (issue #11). Each names
 * its time in the zone it was scheduled in and in the user's own, and can be opened (to reschedule)
 * or canceled with a full refund. Nothing is drawn while there are none.
 */
export function ScheduledCampaigns({ timezone }: { timezone: string }) {
  const t = useT();
  const campaigns = useCampaigns(SCHEDULED);
  const items = (campaigns.data?.pages.flatMap((p) => p.items) ?? []).filter((c) => c.status === 'scheduled');
  if (items.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="md" aria-labelledby="scheduled-campaigns-title">
      <Group justify="space-between" mb="sm">
        <Text fw={600} id="scheduled-campaigns-title">
          {t('Scheduled campaigns')}
        </Text>
        <Text size="sm" c="dimmed">
          {t('{{count}} waiting', { count: `${items.length}${campaigns.hasNextPage ? '+' : ''}` })}
        </Text>
      </Group>
      <Stack gap="sm">
        {items.map((c) => (
          <Group
            key={c.id}
            justify="space-between"
            wrap="wrap"
            gap="xs"
            data-testid="scheduled-campaign"
            py={4}
            style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
          >
            <Stack gap={2}>
              <Group gap="xs">
                <Anchor component={Link} to={paths.reports.campaignDetail.getHref(c.id)} fw={600}>
                  {c.name}
                </Anchor>
                <Badge variant="outline" size="sm">
                  {c.kind}
                </Badge>
              </Group>
              <Text size="sm">
                {c.scheduledAt ? formatInZone(c.scheduledAt, c.timezone || timezone) : t('Not scheduled')}
                {c.scheduledAt && c.timezone && c.timezone !== timezone
                  ? ` · ${formatInZone(c.scheduledAt, timezone)}`
                  : ''}
              </Text>
              <Text size="xs" c="dimmed">
                {t('{{count}} recipients · {{amount}} reserved', {
                  count: formatNumber(c.recipients),
                  amount: formatMoney(c.costMinor, c.currency),
                })}
              </Text>
            </Stack>
            <CampaignActions c={c} />
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
