import '@mantine/dates/styles.css';
import { useMemo } from 'react';
import { Alert, Button, Card, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { toast } from '@/lib/toast';
import { useCurrentUser } from '@/lib/use-session';
import { useExportSmsLog } from '../api/export-sms-log';
import { useSmsLog } from '../api/get-sms-log';
import { LiveIndicator } from '../components/live-indicator';
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
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const query = useMemo(() => toQueryFilters(filters), [filters]);
  const log = useSmsLog(query);
  const exporter = useExportSmsLog();
  const user = useCurrentUser();
  const timezone = user?.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const selected = params.get(MESSAGE_PARAM);
  const isMobile = useIsMobile();

  const messages = useMemo(() => log.data?.pages.flatMap((p) => p.items) ?? [], [log.data]);
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
      toast.success(`Exported ${filename}`);
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
        <Group justify="space-between" px="md" py="sm" wrap="wrap" gap="sm">
          <Group gap="sm">
            <Text size="sm" c="dimmed" aria-live="polite">
              {loading
                ? 'Loading messages…'
                : `${messages.length}${log.hasNextPage ? '+' : ''} ${messages.length === 1 ? 'message' : 'messages'}`}
            </Text>
            {log.isFetching && !loading && <Loader size="xs" aria-label="Refreshing" />}
            <LiveIndicator intervalMs={refreshInterval(messages)} />
          </Group>
          <Button
            variant="default"
            onClick={() => void exportCsv()}
            loading={exporter.isPending}
            disabled={!messages.length}
          >
            Export CSV
          </Button>
        </Group>
        {log.isError && !log.data ? (
          <Alert color="red" variant="light" m="md" title="Could not load the SMS log">
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
        ) : !loading && messages.length === 0 ? (
          <LogEmptyState filtered={filtered} onClearFilters={() => setFilters(EMPTY_FILTERS)} />
        ) : (
          <List messages={messages} loading={loading} selectedId={selected} onOpen={openMessage} />
        )}
        {log.hasNextPage && (
          <Center p="md">
            <Button variant="light" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
              Load more
            </Button>
          </Center>
        )}
      </Card>
      <MessageDrawer id={selected} timezone={timezone} onClose={closeMessage} />
    </Stack>
  );
  return <LogTabs sent={sent} />;
}
