import { useMemo, useState } from 'react';
import { Alert, Button, Card, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ScheduledCampaigns } from '@/features/campaigns';
import { useCurrentUser } from '@/lib/use-session';
import { useSmsLog } from '../api/get-sms-log';
import type { SmsLogQueryFilters } from '../api/query-keys';
import { CancelMessageModal } from '../components/cancel-message-modal';
import { LogEmptyState } from '../components/log-empty-state';
import { ScheduledCardList } from '../components/scheduled-card-list';
import { ScheduledTable, type ScheduledMessage } from '../components/scheduled-table';
import { useIsMobile } from '../use-is-mobile';

const SCHEDULED: SmsLogQueryFilters = { status: 'scheduled' };

const bySchedule = (a: ScheduledMessage, b: ScheduledMessage) =>
  (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? '') || a.id.localeCompare(b.id);

export default function ScheduledSmsPage() {
  const log = useSmsLog(SCHEDULED);
  const user = useCurrentUser();
  const timezone = user?.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [canceling, setCanceling] = useState<ScheduledMessage | null>(null);
  const isMobile = useIsMobile();

  const messages = useMemo(
    () =>
      (log.data?.pages.flatMap((p) => p.items) ?? [])
        .filter((m) => m.status === 'scheduled')
        .sort(bySchedule) as ScheduledMessage[],
    [log.data],
  );
  const loading = log.isPending;
  const List = isMobile ? ScheduledCardList : ScheduledTable;

  const isEmpty = !loading && messages.length === 0 && !(log.isError && !log.data);
  return (
    <Stack>
      <ScheduledCampaigns timezone={timezone} />
      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" px="md" py="sm" wrap="wrap" gap="sm">
          <Group gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {loading
                ? 'Loading scheduled messages…'
                : `${messages.length}${log.hasNextPage ? '+' : ''} scheduled ${messages.length === 1 ? 'message' : 'messages'} · times in ${timezone}`}
            </Text>
            {log.isFetching && !loading && <Loader size="xs" aria-label="Refreshing" />}
          </Group>
          {/* With nothing scheduled, the empty state's own button is the one call to action. */}
          {!isEmpty && (
            <Button component={Link} to={paths.sms.single.getHref()} variant="light">
              Schedule a message
            </Button>
          )}
        </Group>
        {log.isError && !log.data ? (
          <Alert color="red" variant="light" m="md" title="Could not load your scheduled messages">
            {log.error.message}
            <Button
              size="xs"
              variant="light"
              color="red"
              mt="sm"
              display="block"
              onClick={() => void log.refetch()}
            >
              Try again
            </Button>
          </Alert>
        ) : isEmpty ? (
          <LogEmptyState
            filtered={false}
            noun="scheduled messages"
            description="Messages you schedule for later wait here until their time, and can be canceled until then."
            actionLabel="Schedule a message"
            onClearFilters={() => undefined}
          />
        ) : (
          <List messages={messages} loading={loading} timezone={timezone} onCancel={setCanceling} />
        )}
        {log.hasNextPage && (
          <Center p="md">
            <Button variant="light" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
              Load more
            </Button>
          </Center>
        )}
      </Card>
      <CancelMessageModal
        message={canceling}
        timezone={canceling?.timezone || timezone}
        onClose={() => setCanceling(null)}
      />
    </Stack>
  );
}
