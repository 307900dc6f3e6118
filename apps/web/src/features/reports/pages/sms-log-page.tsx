import '@mantine/dates/styles.css';
import { Can } from '@/components/can';
import { useMemo } from 'react';
import { Button, Card, Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useCurrentUser } from '@/lib/use-session';
import { useExportSmsLog } from '../api/export-sms-log';
import { useSmsLog } from '../api/get-sms-log';
import { useKeysetRows } from '../api/use-keyset-rows';
import { ListLoadError } from '../components/list-load-error';
import { countLabel, ListToolbar } from '../components/list-toolbar';
import { LiveIndicator } from '../components/live-indicator';
import { LoadMoreButton } from '../components/load-more-button';
import { LogTabs } from '../components/log-tabs';
import { LogEmptyState } from '../components/log-empty-state';
import { MessageCardList } from '../components/message-card-list';
import { MessageDrawer } from '../components/message-drawer';
import { SmsLogFilters } from '../components/sms-log-filters';
import { SmsLogTable } from '../components/sms-log-table';
import {
  EMPTY_FILTERS,
  hasFilters,
  readFilters,
  toQueryFilters,
  writeFilters,
  type LogFilters,
} from '../log-filters';
import { refreshInterval } from '../refresh-interval';
import { useIsMobile } from '../use-is-mobile';

const MESSAGE_PARAM = 'message';

export default function SmsLogPage() {
  const t = useT();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const query = useMemo(() => toQueryFilters(filters), [filters]);
  const log = useSmsLog(query);
  const exporter = useExportSmsLog();
  const user = useCurrentUser();
  const timezone = user?.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const selected = params.get(MESSAGE_PARAM);
  const isMobile = useIsMobile();

  const messages = useKeysetRows(log.data);
  const filtered = hasFilters(filters);

  const setFilters = (next: LogFilters) => {
    const search = writeFilters(params, next);
    search.delete(MESSAGE_PARAM);
    setParams(search, { replace: true });
  };
  const openMessage = (id: string) => {
    const search = new URLSearchParams(params);
    search.set(MESSAGE_PARAM, id);
    setParams(search);
  };
  const closeMessage = () => {
    const search = new URLSearchParams(params);
    search.delete(MESSAGE_PARAM);
    setParams(search, { replace: true });
  };

  const exportCsv = async () => {
    try {
      const filename = await exporter.mutateAsync(query);
      toast.success(t('Exported {{file}}', { file: filename }));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };

  const loading = log.isPending;
  const List = isMobile ? MessageCardList : SmsLogTable;
  const sent = (
    <Stack>
      <SmsLogFilters value={filters} onChange={setFilters} />
      <Card withBorder radius="md" padding={0}>
        <ListToolbar
          status={
            loading
              ? t('Loading messages…')
              : countLabel(messages.length, log.hasNextPage, '{{count}} message', '{{count}} messages')
          }
          refreshing={log.isFetching && !loading}
          extra={<LiveIndicator intervalMs={refreshInterval(messages)} />}
        >
          <Can permission="reports:read">
            <Button
              variant="default"
              onClick={() => void exportCsv()}
              loading={exporter.isPending}
              disabled={!messages.length}
            >
              {t('Export CSV')}
            </Button>
          </Can>
        </ListToolbar>
        {log.isError && !log.data ? (
          <ListLoadError
            title={t('Could not load the SMS log')}
            error={log.error}
            onRetry={() => void log.refetch()}
          />
        ) : !loading && messages.length === 0 ? (
          <LogEmptyState filtered={filtered} onClearFilters={() => setFilters(EMPTY_FILTERS)} />
        ) : (
          <List messages={messages} loading={loading} selectedId={selected} onOpen={openMessage} />
        )}
        <LoadMoreButton query={log} />
      </Card>
      <MessageDrawer id={selected} timezone={timezone} onClose={closeMessage} />
    </Stack>
  );
  return <LogTabs sent={sent} />;
}
