import '@mantine/charts/styles.css';
import '@mantine/dates/styles.css';
import { useMemo, useState } from 'react';
import { AreaChart, DonutChart } from '@mantine/charts';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Center,
  ColorSwatch,
  Grid,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useNavigate, useParams } from 'react-router';
import { MESSAGE_STATUSES, type CampaignDetail, type CampaignDto, type MessageStatus } from '@wren/contracts';
import { IconSearch } from '@/components/icons';
import { TimezoneSelect } from '@/components/timezone-select';
import { paths } from '@/config/paths';
import { dayjs } from '@/lib/dayjs';
import { useHubState } from '@/lib/hub';
import { HttpError } from '@/lib/http/http-error';
import { formatMoney } from '@/lib/money';
import {
  CampaignActions,
  CampaignProgress,
  CampaignStatusBadge,
  exportCampaign,
  hasOpenMessages,
  OPEN_CAMPAIGN_REFRESH_MS,
  useCampaign,
  useCampaignLive,
  useCampaignMessages,
  useCampaignTimeline,
  useReschedule,
  useResendFailed,
} from '@/features/campaigns';
import { toast } from '@/lib/toast';
import { useCurrentUser } from '@/lib/use-session';
import { MessageDrawer } from '../components/message-drawer';
import { SmsLogTable } from '../components/sms-log-table';
import { formatDateTime, formatInZone, statusLabel } from '../format';

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

const STATUS_COLOR: Partial<Record<MessageStatus, string>> = {
  delivered: 'teal.6',
  sent: 'cyan.6',
  queued: 'gray.6',
  sending: 'blue.6',
  undelivered: 'orange.6',
  expired: 'yellow.6',
  rejected: 'red.6',
  failed: 'red.8',
  canceled: 'gray.5',
  unknown: 'grape.6',
  scheduled: 'violet.6',
};

const FAILED: MessageStatus[] = ['undelivered', 'expired', 'rejected', 'failed', 'unknown'];

/** The campaign's figures recomputed from live message counts (as the server computes them). */
function withCounts(c: CampaignDto, counts: Record<MessageStatus, number>): CampaignDto {
  const n = (s: MessageStatus) => counts[s] ?? 0;
  const failed = FAILED.reduce((a, s) => a + n(s), 0);
  const finished = n('delivered') + failed;
  const unqueued = c.status === 'canceled' ? 0 : c.recipients - c.materialised;
  return {
    ...c,
    counts,
    delivered: n('delivered'),
    failed,
    pending: unqueued + n('scheduled') + n('queued') + n('sending') + n('sent'),
    deliveryRate: finished ? Math.round((n('delivered') / finished) * 10_000) / 10_000 : 0,
  };
}

/** One campaign, live from the hub's pushes: figures, status chart, per-minute chart, every recipient. */
export default function CampaignDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const zone = user?.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const campaign = useCampaign(id);
  const live = useCampaignLive(id);
  const liveDetail = live.data?.detail;
  const openMessages = !!liveDetail && 'counts' in liveDetail && hasOpenMessages(liveDetail.counts);
  const timeline = useCampaignTimeline(id, openMessages ? OPEN_CAMPAIGN_REFRESH_MS : false);
  const hub = useHubState();
  const [status, setStatus] = useState<MessageStatus | null>(null);
  const [search, setSearch] = useState('');
  const [recipient] = useDebouncedValue(search.trim(), 300);
  const messages = useCampaignMessages(id, {
    status: status ?? undefined,
    recipient: recipient || undefined,
  });
  const rows = useMemo(() => messages.data?.pages.flatMap((p) => p.items) ?? [], [messages.data]);
  const [open, setOpen] = useState<string | null>(null);
  const resend = useResendFailed();
  const reschedule = useReschedule();
  const [rescheduling, setRescheduling] = useState(false);
  const [at, setAt] = useState<string | null>(null);
  const [tz, setTz] = useState(zone);

  // The hub's figures when it is connected ({} / [] when not: the HTTP figures stand in). The hub
  // counts the messages at the moment of the call, so they are current after every push.
  const hubDetail = live.data && 'id' in live.data.detail ? (live.data.detail as CampaignDetail) : null;
  const c = campaign.data && hubDetail ? withCounts(campaign.data, hubDetail.counts) : campaign.data;
  const counts: Record<string, number> = c?.counts ?? {};
  const chartData = MESSAGE_STATUSES.filter((s) => (counts[s] ?? 0) > 0).map((s) => ({
    status: statusLabel(s),
    count: counts[s] ?? 0,
    color: STATUS_COLOR[s] ?? 'gray.6',
  }));
  if (c && c.recipients - c.materialised > 0 && c.status !== 'canceled') {
    chartData.push({ status: 'Not yet queued', count: c.recipients - c.materialised, color: 'gray.4' });
  }
  const minutes = (timeline.data ?? []).map((p) => ({
    minute: new Date(p.minute).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' }),
    Sent: p.sent,
    Delivered: p.delivered,
  }));

  const gone =
    campaign.error instanceof HttpError && (campaign.error.status === 404 || campaign.error.status === 400);
  if (campaign.isError) {
    return (
      <Alert
        color={gone ? 'gray' : 'red'}
        variant="light"
        title={gone ? 'Campaign not found' : 'Could not load this campaign'}
      >
        {gone ? 'This campaign does not exist, or it belongs to another account.' : campaign.error.message}
        <Button
          component={Link}
          to={paths.reports.campaigns.getHref()}
          size="xs"
          variant="light"
          mt="sm"
          display="block"
        >
          Back to the campaign report
        </Button>
      </Alert>
    );
  }
  if (!c) {
    return (
      <Stack>
        <Skeleton h={60} />
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} h={80} />
          ))}
        </SimpleGrid>
        <Skeleton h={240} />
      </Stack>
    );
  }

  const doResend = async () => {
    try {
      const r = await resend.mutateAsync(c.id);
      toast.success(`Resending to ${r.campaign.recipients.toLocaleString()} failed recipients`);
      void navigate(paths.reports.campaignDetail.getHref(r.campaign.id));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };
  const doExport = async () => {
    try {
      const name = await exportCampaign(c.id, status ?? undefined);
      toast.success(`Exported ${name}`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };
  const doReschedule = async () => {
    if (!at) return;
    try {
      const scheduleAt = dayjs.tz(at, tz).format('YYYY-MM-DDTHH:mm:ssZ');
      await reschedule.mutateAsync({ id: c.id, scheduleAt, timezone: tz });
      toast.success('Campaign rescheduled');
      setRescheduling(false);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <Stack>
      <Card withBorder radius="md" p="lg">
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Stack gap={4}>
            <Group gap="xs">
              <Title order={2} size="h3">
                {c.name}
              </Title>
              <CampaignStatusBadge status={c.status} />
              <Badge variant="outline" color="gray">
                {c.kind === 'personalised' ? 'Personalised' : 'Bulk'}
              </Badge>
              <Badge
                variant="dot"
                color={hub.connected ? 'teal' : 'gray'}
                data-testid="live-badge"
                title={hub.connected ? 'Updates arrive as they happen' : 'Not connected to live updates'}
              >
                {hub.connected ? 'Live' : 'Offline'}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              From {c.sender} · created {formatDateTime(c.createdAt)}
              {c.scheduledAt && ` · scheduled ${formatInZone(c.scheduledAt, c.timezone ?? zone)}`}
              {c.scheduledAt &&
                c.timezone &&
                c.timezone !== zone &&
                ` (${formatInZone(c.scheduledAt, zone)})`}
              {c.ratePerMinute && ` · at most ${c.ratePerMinute.toLocaleString()} a minute`}
            </Text>
          </Stack>
          <Group gap="xs">
            <CampaignActions c={c} size="sm" />
            {c.status === 'scheduled' && (
              <Button
                size="sm"
                variant="light"
                onClick={() => {
                  setAt(dayjs().tz(tz).add(1, 'hour').startOf('hour').format('YYYY-MM-DD HH:mm:ss'));
                  setRescheduling(true);
                }}
              >
                Reschedule
              </Button>
            )}
            {c.failed > 0 && (
              <Button size="sm" variant="light" onClick={() => void doResend()} loading={resend.isPending}>
                Resend to {c.failed.toLocaleString()} failed
              </Button>
            )}
            <Button size="sm" variant="default" onClick={() => void doExport()}>
              Export CSV
            </Button>
          </Group>
        </Group>
        <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {c.text}
        </Text>
        <Box mt="sm">
          <CampaignProgress c={c} />
        </Box>
      </Card>

      <SimpleGrid cols={{ base: 2, md: 3, lg: 6 }}>
        <Stat label="Recipients" value={c.recipients.toLocaleString()} testId="stat-recipients" />
        <Stat label="Delivered" value={(counts.delivered ?? 0).toLocaleString()} testId="stat-delivered" />
        <Stat label="Failed" value={c.failed.toLocaleString()} testId="stat-failed" />
        <Stat label="Pending" value={c.pending.toLocaleString()} testId="stat-pending" />
        <Stat label="Cost" value={formatMoney(c.costMinor - c.refundedMinor, c.currency)} />
        <Stat label="Delivery rate" value={`${(c.deliveryRate * 100).toFixed(1)}%`} />
      </SimpleGrid>
      {(c.invalid > 0 || c.duplicates > 0 || c.suppressed > 0 || c.refundedMinor > 0) && (
        <Text size="sm" c="dimmed">
          Not sent: {c.invalid.toLocaleString()} invalid, {c.duplicates.toLocaleString()}{' '}
          {c.duplicates === 1 ? 'duplicate' : 'duplicates'}, {c.suppressed.toLocaleString()} opted out (at
          acceptance, or before their turn came).
          {c.refundedMinor > 0 &&
            ` Refunded (not sent or not delivered): ${formatMoney(c.refundedMinor, c.currency)}.`}
        </Text>
      )}

      <Grid>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card withBorder radius="md" p="lg" h="100%">
            <Title order={3} size="h5" mb="sm">
              Status breakdown
            </Title>
            {chartData.length === 0 ? (
              <Center h={200}>
                <Text size="sm" c="dimmed">
                  {c.status === 'scheduled'
                    ? 'Nothing sent yet: the campaign is scheduled.'
                    : 'No messages yet.'}
                </Text>
              </Center>
            ) : (
              <Group align="center" wrap="nowrap" gap="lg">
                <DonutChart
                  size={180}
                  thickness={28}
                  data={chartData.map((d) => ({ name: d.status, value: d.count, color: d.color }))}
                  withTooltip
                  tooltipDataSource="segment"
                  data-testid="status-chart"
                />
                <Stack gap={4}>
                  {chartData.map((d) => (
                    <Group key={d.status} gap={6} wrap="nowrap">
                      <ColorSwatch color={`var(--mantine-color-${d.color.replace('.', '-')})`} size={12} />
                      <Text size="sm">
                        {d.status}: <b>{d.count.toLocaleString()}</b>
                      </Text>
                    </Group>
                  ))}
                </Stack>
              </Group>
            )}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder radius="md" p="lg" h="100%">
            <Title order={3} size="h5" mb="sm">
              Sent and delivered per minute
            </Title>
            {minutes.length === 0 ? (
              <Center h={200}>
                <Text size="sm" c="dimmed">
                  Nothing sent yet.
                </Text>
              </Center>
            ) : (
              <AreaChart
                h={220}
                data={minutes}
                dataKey="minute"
                series={[
                  { name: 'Sent', color: 'blue.6' },
                  { name: 'Delivered', color: 'teal.6' },
                ]}
                curveType="monotone"
                withLegend
              />
            )}
          </Card>
        </Grid.Col>
      </Grid>

      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" px="md" py="sm" wrap="wrap">
          <Group gap="sm">
            <Title order={3} size="h5">
              Recipients
            </Title>
            {messages.isFetching && !messages.isPending && <Loader size="xs" aria-label="Refreshing" />}
          </Group>
          <Group gap="sm">
            <TextInput
              placeholder="Search a number"
              aria-label="Search a number"
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={200}
            />
            <Select
              aria-label="Status"
              placeholder="Any status"
              data={MESSAGE_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
              value={status}
              onChange={(v) => setStatus(v)}
              clearable
              w={160}
            />
          </Group>
        </Group>
        {!messages.isPending && rows.length === 0 ? (
          <Center p="xl">
            <Text size="sm" c="dimmed">
              {status || recipient
                ? 'No recipient matches.'
                : c.status === 'scheduled'
                  ? 'The messages are created when the campaign starts.'
                  : 'No messages yet.'}
            </Text>
          </Center>
        ) : (
          <SmsLogTable messages={rows} loading={messages.isPending} selectedId={open} onOpen={setOpen} />
        )}
        {messages.hasNextPage && (
          <Center p="md">
            <Button
              variant="light"
              onClick={() => void messages.fetchNextPage()}
              loading={messages.isFetchingNextPage}
            >
              Load more
            </Button>
          </Center>
        )}
      </Card>
      <MessageDrawer id={open} timezone={zone} onClose={() => setOpen(null)} />
      <Modal
        opened={rescheduling}
        onClose={() => setRescheduling(false)}
        title="Reschedule campaign"
        centered
      >
        <Stack>
          <DateTimePicker
            label="Send at"
            value={at}
            onChange={setAt}
            valueFormat="MMM D, YYYY h:mm A"
            timePickerProps={{ format: '12h' }}
            popoverProps={{ withinPortal: true }}
          />
          <TimezoneSelect label="Time zone" value={tz} onChange={(v) => v && setTz(v)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRescheduling(false)}>
              Back
            </Button>
            <Button onClick={() => void doReschedule()} loading={reschedule.isPending} disabled={!at}>
              Reschedule
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
