import { Alert, Grid, Stack, Text } from '@mantine/core';
import { HubState, useHubState } from '@/lib/hub';
import { useRecentMessages } from '../api/get-recent-messages';
import { FALLBACK_POLL_MS } from '../api/query-keys';
import { useLiveFigures } from '../api/use-live-figures';
import { DeliveryStatusCard } from '../components/delivery-status-card';
import { FirstSmsEmptyState } from '../components/first-sms-empty-state';
import { PerformanceCard } from '../components/performance-card';
import { RecentActivityCard } from '../components/recent-activity-card';
import { StatCards } from '../components/stat-cards';
import { useT } from '@/lib/i18n';

/**
 * The dashboard (SPEC.md §1): balance, delivery status and performance, live from the hub's
 * caches (HTTP while the hub is not connected), and the latest messages.
 */
export default function DashboardPage() {
  const t = useT();
  const { connected, figures, error, sees } = useLiveFigures();
  // While the first connection is being made the figures come over HTTP as usual: nothing to say.
  const connecting = useHubState().state === HubState.Connecting;
  // The log needs messages:read, as the delivery figures (issue 39: a billing member sees neither).
  const recent = useRecentMessages(connected, sees.delivery);
  const isNewAccount = recent.data?.length === 0;

  return (
    <Stack gap="lg">
      {error && !figures.balance && !figures.deliveryStatus && (
        <Alert color="red" variant="light" title={t('The dashboard could not load')}>
          {error.message}
        </Alert>
      )}
      <StatCards figures={figures} sees={sees} />
      {!sees.delivery ? null : isNewAccount ? (
        <FirstSmsEmptyState />
      ) : (
        <>
          <Grid gap="md" align="stretch">
            <Grid.Col span={{ base: 12, md: 5 }}>
              <DeliveryStatusCard data={figures.deliveryStatus} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 7 }}>
              <PerformanceCard data={figures.performance} />
            </Grid.Col>
          </Grid>
          <RecentActivityCard messages={recent.data} />
        </>
      )}
      {!connected && !connecting && (
        <Text size="xs" c="dimmed" ta="right">
          {t('Live updates are paused; the figures refresh every {{seconds}} seconds.', {
            seconds: FALLBACK_POLL_MS / 1000,
          })}
        </Text>
      )}
    </Stack>
  );
}
