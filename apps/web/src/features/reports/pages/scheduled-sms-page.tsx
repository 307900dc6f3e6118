import { useMemo, useState } from 'react';
import { useT } from '@/lib/i18n';
import { Can } from '@/components/can';
import { Button, Card, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { ScheduledCampaigns } from '@/features/campaigns';
import { useCurrentUser } from '@/lib/use-session';
import { useSmsLog } from '../api/get-sms-log';
import type { SmsLogQueryFilters } from '../api/query-keys';
import { useKeysetRows } from '../api/use-keyset-rows';
import { CancelMessageModal } from '../components/cancel-message-modal';
import { ListLoadError } from '../components/list-load-error';
import { countLabel, ListToolbar } from '../components/list-toolbar';
import { LoadMoreButton } from '../components/load-more-button';
import { LogEmptyState } from '../components/log-empty-state';
import { ScheduledCardList } from '../components/scheduled-card-list';
import { ScheduledTable, type ScheduledMessage } from '../components/scheduled-table';
import { useIsMobile } from '../use-is-mobile';

const SCHEDULED: SmsLogQueryFilters = { status: 'scheduled' };

const bySchedule = (a: ScheduledMessage, b: ScheduledMessage) =>
  (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? '') || a.id.localeCompare(b.id);

export default function ScheduledSmsPage() {
  const t = useT();
  const log = useSmsLog(SCHEDULED);
  const user = useCurrentUser();
  const timezone = user?.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [canceling, setCanceling] = useState<ScheduledMessage | null>(null);
  const isMobile = useIsMobile();

  const rows = useKeysetRows(log.data);
  const messages = useMemo(
    () => rows.filter((m) => m.status === 'scheduled').sort(bySchedule) as ScheduledMessage[],
    [rows],
  );
  const loading = log.isPending;
  const List = isMobile ? ScheduledCardList : ScheduledTable;

  const isEmpty = !loading && messages.length === 0 && !(log.isError && !log.data);
  return (
    <Stack>
      <ScheduledCampaigns timezone={timezone} />
      <Card withBorder radius="md" padding={0}>
        <ListToolbar
          status={
            loading
              ? t('Loading scheduled messages…')
              : countLabel(
                  messages.length,
                  log.hasNextPage,
                  '{{count}} scheduled message · times in {{zone}}',
                  '{{count}} scheduled messages · times in {{zone}}',
                  { zone: timezone },
                )
          }
          refreshing={log.isFetching && !loading}
        >
          {/* With nothing scheduled, the empty state's own button is the one call to action. */}
          {!isEmpty && (
            <Can permission="messages:send">
              <Button component={Link} to={paths.sms.single.getHref()} variant="light">
                {t('Schedule a message')}
              </Button>
            </Can>
          )}
        </ListToolbar>
        {log.isError && !log.data ? (
          <ListLoadError
            title={t('Could not load your scheduled messages')}
            error={log.error}
            onRetry={() => void log.refetch()}
          />
        ) : isEmpty ? (
          <LogEmptyState
            filtered={false}
            noun="scheduled messages"
            description={t(
              'Messages you schedule for later wait here until their time, and can be canceled until then.',
            )}
            actionLabel={t('Schedule a message')}
            onClearFilters={() => undefined}
          />
        ) : (
          <List messages={messages} loading={loading} timezone={timezone} onCancel={setCanceling} />
        )}
        <LoadMoreButton query={log} />
      </Card>
      <CancelMessageModal
        message={canceling}
        timezone={canceling?.timezone || timezone}
        onClose={() => setCanceling(null)}
      />
    </Stack>
  );
}
