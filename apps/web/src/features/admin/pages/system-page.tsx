import '@mantine/charts/styles.css';
import { useEffect } from 'react';
import { BarChart } from '@mantine/charts';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { ConnectionStatusDto, SystemStatus } from '@wren/contracts';
import { useModalTarget } from '@/components/confirm-delete-modal';
import { hub } from '@/lib/hub';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useConnectionControl, useSystemStatus } from '../api/admin-api';
import { bytes, ErrorBlock, LoadingBlock, rich, SectionHeader, When } from '../components/common';
import { formatNumber, formatTime } from '@/lib/format';

/** A technical value (a size, a path) kept left to right inside a sentence in Arabic. */
const ltr = (v: string | number) => `\u2066${v}\u2069`;

/** English text, each a key: shown through `t`. */
const LANE_LABELS: Record<string, string> = { otp: 'OTP', single: 'Single', bulk: 'Bulk' };

/**
 * Up: every bind in use bound (all configured, or the keptBinds the SMSC allows); degraded: some;
 * down: none; unbound: none, as an operator paused it. The label is English text and a key.
 */
export function connectionState(
  c: Pick<ConnectionStatusDto, 'bound' | 'binds' | 'paused'> & { keptBinds?: number | null },
) {
  if (c.bound === 0 && c.paused) return { label: 'Unbound', color: 'gray' };
  if (c.bound === 0) return { label: 'Down', color: 'red' };
  if (c.bound < (c.keptBinds ?? c.binds)) return { label: 'Degraded', color: 'yellow' };
  return { label: 'Up', color: 'green' };
}

const sessionColor = (state: string) =>
  state === 'bound'
    ? 'green'
    : state === 'binding' || state === 'connecting'
      ? 'yellow'
      : state === 'stopped' || state === 'unbinding'
        ? 'gray'
        : 'red';

function ConnectionCard({ c, onToggle }: { c: ConnectionStatusDto; onToggle: () => void }) {
  const t = useT();
  const state = connectionState(c);
  const use = c.window > 0 ? Math.min(100, (c.inFlight / c.window) * 100) : 0;
  return (
    <Paper withBorder radius="md" p="md" data-testid={`connection-${c.name}`}>
      <Group justify="space-between" mb="xs">
        <div>
          <Group gap="xs">
            <Title order={3} size="h5">
              {c.name}
            </Title>
            <Badge color={state.color} variant="dot" size="lg" data-testid="connection-state">
              {t(state.label)}
            </Badge>
            {c.paused && (
              <Badge color="orange" variant="dot">
                {t('Paused')}
              </Badge>
            )}
            {c.draining && (
              <Badge color="orange" variant="dot" data-testid="draining">
                {t('Draining')}
              </Badge>
            )}
            {c.flapping && (
              <Badge color="red" variant="dot">
                {t('Flapping')}
              </Badge>
            )}
            {c.throttled && (
              <Badge color="orange" variant="dot" data-testid="throttled">
                {t('Throttling')}
              </Badge>
            )}
            {c.keptBinds != null && (
              <Badge color="orange" variant="dot" data-testid="kept-binds">
                {c.keptBinds === 1
                  ? t('Kept to {{count}} bind', { count: c.keptBinds })
                  : t('Kept to {{count}} binds', { count: c.keptBinds })}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {c.worker} · {c.bindMode} ·{' '}
            {t('{{bound}} of {{binds}} binds up', { bound: c.bound, binds: c.binds })}
          </Text>
        </div>
        <Button
          size="xs"
          variant={c.paused ? 'filled' : 'default'}
          color={c.paused ? undefined : 'orange'}
          onClick={onToggle}
        >
          {c.paused ? t('Resume') : t('Pause')}
        </Button>
      </Group>
      <SimpleGrid cols={2} mb="xs">
        <div>
          <Text size="xs" c="dimmed">
            {t('Window in use')}
          </Text>
          <Text fw={600}>
            {c.inFlight} / {c.window}
          </Text>
          <Progress value={use} size="sm" aria-label={t('Window in use on {{name}}', { name: c.name })} />
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('Submits per second')}
          </Text>
          <Text fw={600}>{c.tps}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('Delivered (15 min)')}
          </Text>
          <Text fw={600} data-testid="delivered-ratio">
            {c.deliveredRatio === null
              ? c.finalReceipts > 0
                ? c.finalReceipts === 1
                  ? t('{{count}} receipt, too few to judge', { count: c.finalReceipts })
                  : t('{{count}} receipts, too few to judge', { count: c.finalReceipts })
                : t('No receipts yet')
              : t('{{percent}}% of {{count}}', {
                  percent: (Math.round(c.deliveredRatio * 1000) / 10).toFixed(1),
                  count: c.finalReceipts,
                })}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('Receipt time, median')}
          </Text>
          <Text fw={600} data-testid="receipt-p50">
            {c.receiptP50Ms === null
              ? '—'
              : c.receiptP50Ms < 1000
                ? `${Math.round(c.receiptP50Ms)} ms`
                : `${(c.receiptP50Ms / 1000).toFixed(1)} s`}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            {t('Refused, last minute')}
          </Text>
          <Text fw={600} data-testid="refusals">
            {c.submitErrorsPerMinute === 1
              ? t('{{throttled}} throttled · {{errors}} error', {
                  throttled: c.throttlesPerMinute,
                  errors: c.submitErrorsPerMinute,
                })
              : t('{{throttled}} throttled · {{errors}} errors', {
                  throttled: c.throttlesPerMinute,
                  errors: c.submitErrorsPerMinute,
                })}
          </Text>
        </div>
      </SimpleGrid>
      <Group gap={6} mb={c.lastError ? 'xs' : 0}>
        {c.sessions.map((s) => (
          <Badge key={`${s.bind}-${s.role}`} variant="dot" color={sessionColor(s.state)} tt="none">
            #{s.bind + 1} {s.role}: {s.state}
          </Badge>
        ))}
      </Group>
      {c.bindsNotice && (
        <Alert color="orange" variant="light" p="xs" mb="xs" data-testid="binds-notice">
          <Text size="xs">{c.bindsNotice}</Text>
        </Alert>
      )}
      {c.lastError && (
        <Text size="xs" c={c.bound < (c.keptBinds ?? c.binds) ? 'var(--mantine-color-red-text)' : 'dimmed'}>
          {t('Last error: {{error}}', { error: c.lastError })}
        </Text>
      )}
    </Paper>
  );
}

function Figure({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

function Body({ s }: { s: SystemStatus }) {
  const t = useT();
  const control = useConnectionControl();
  const dialog = useModalTarget<ConnectionStatusDto>();
  const target = dialog.target;
  const toggle = async () => {
    if (!target) return;
    try {
      await control.mutateAsync({ name: target.name, pause: !target.paused });
      toast.success(
        target.paused
          ? t('{{name}} resumes sending.', { name: target.name })
          : t('{{name}} is paused: messages for it wait in the queue.', { name: target.name }),
      );
      dialog.close();
    } catch (e) {
      toast.error(messageOf(e));
    }
  };
  const chart = s.throughput.map((p) => ({ ...p, minute: formatTime(p.minute) }));
  const alive = s.workers.filter((w) => w.alive).length;
  return (
    <Stack gap="lg">
      <Text size="xs" c="dimmed" ta="right">
        {rich(t, 'Updated {{time}} · live', {
          time: <span data-testid="status-updated">{formatTime(s.at, { seconds: true })}</span>,
        })}
      </Text>
      <Paper withBorder radius="md">
        <SectionHeader
          title={t('SMPP connections')}
          hint={t('Every connection of every worker, with its binds')}
        />
        {s.connections.length === 0 ? (
          <Alert color="red" variant="light" m="md" title={t('No worker is reporting')}>
            {t(
              'No running worker has reported its SMPP connections in the last few seconds. Messages stay queued until a worker runs.',
            )}
          </Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }} p="md" pt={0}>
            {s.connections.map((c) => (
              <ConnectionCard key={`${c.worker}-${c.name}`} c={c} onToggle={() => dialog.open(c)} />
            ))}
          </SimpleGrid>
        )}
      </Paper>

      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <Figure
          label={t('Receipts parked')}
          value={s.receipts.parked}
          hint={t('waiting for their message')}
        />
        <Figure
          label={t('Matched (1 h)')}
          value={s.receipts.matchedLastHour}
          hint={t('parked receipts matched')}
        />
        <Figure label={t('Workers')} value={`${alive} / ${s.workers.length}`} hint={t('alive / seen')} />
        <Figure label={t('Hub sockets')} value={s.hubSockets} hint={t('on this API node')} />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder radius="md">
          <SectionHeader title={t('Send queue')} hint={t('Waiting messages by lane')} />
          <Table verticalSpacing="xs" mx="md" mb="md" w="auto">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Lane')}</Table.Th>
                <Table.Th ta="right">{t('Waiting')}</Table.Th>
                <Table.Th>{t('Oldest waiting since')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {s.lanes.map((l) => (
                <Table.Tr key={l.lane}>
                  <Table.Td>{LANE_LABELS[l.lane] ? t(LANE_LABELS[l.lane]) : l.lane}</Table.Td>
                  <Table.Td ta="right">{formatNumber(l.depth)}</Table.Td>
                  <Table.Td>
                    <When at={l.oldestAt} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
        <Paper withBorder radius="md">
          <SectionHeader title={t('Workers and storage')} />
          <Stack px="md" pb="md" gap="xs">
            {s.workers.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('No worker has reported yet.')}
              </Text>
            )}
            {s.workers.map((w) => (
              <Group key={w.id} justify="space-between">
                <Text size="sm" ff="monospace">
                  {w.id}{' '}
                  <Text span size="xs" c="dimmed">
                    ({w.role})
                  </Text>
                </Text>
                <Badge color={w.alive ? 'green' : 'red'} variant="dot" tt="none">
                  {w.alive
                    ? t('heartbeat {{time}}', { time: formatTime(w.heartbeatAt, { seconds: true }) })
                    : t('silent since {{time}}', { time: formatTime(w.heartbeatAt, { seconds: true }) })}
                </Badge>
              </Group>
            ))}
            <Group justify="space-between">
              <Text size="sm">{t('Database')}</Text>
              <Text size="sm">
                <Badge color={s.database.ok ? 'green' : 'red'} variant="dot" mr={6}>
                  {s.database.ok ? t('OK') : t('Unreachable')}
                </Badge>
                {t('{{size}} · {{connections}} connections · {{latency}} ms', {
                  size: ltr(bytes(s.database.sizeBytes)),
                  connections: s.database.connections,
                  latency: ltr(s.database.latencyMs),
                })}
              </Text>
            </Group>
            {s.disk && (
              <div>
                <Group justify="space-between">
                  <Text size="sm">{t('Disk ({{path}})', { path: ltr(s.disk.path) })}</Text>
                  <Text size="sm">
                    {t('{{free}} free of {{total}}', {
                      free: ltr(bytes(s.disk.freeBytes)),
                      total: ltr(bytes(s.disk.totalBytes)),
                    })}
                  </Text>
                </Group>
                <Progress
                  value={s.disk.totalBytes ? 100 - (s.disk.freeBytes / s.disk.totalBytes) * 100 : 0}
                  color={s.disk.totalBytes && s.disk.freeBytes / s.disk.totalBytes < 0.1 ? 'red' : 'blue'}
                  size="sm"
                  aria-label={t('Disk used')}
                />
              </div>
            )}
          </Stack>
        </Paper>
      </SimpleGrid>

      <Paper withBorder radius="md">
        <SectionHeader title={t('Throughput')} hint={t('Messages per minute, last 30 minutes')} />
        <BarChart
          h={240}
          px="md"
          pb="md"
          data={chart}
          dataKey="minute"
          withLegend
          series={[
            { name: 'submitted', label: t('Submitted'), color: 'blue.6' },
            { name: 'delivered', label: t('Delivered'), color: 'teal.6' },
            { name: 'failed', label: t('Failed'), color: 'red.6' },
          ]}
        />
      </Paper>

      <Modal
        opened={dialog.opened}
        onClose={dialog.close}
        title={target?.paused ? t('Resume connection') : t('Pause connection')}
        centered
      >
        <Stack>
          <Text size="sm">
            {target?.paused
              ? t('Resume sending through {{name}}? Messages waiting for it go out again.', {
                  name: target?.name ?? '',
                })
              : t(
                  'Pause {{name}}? New messages routed to it wait in the queue (until they expire); once the submits in flight are answered its binds are unbound. The SMSC keeps receipts until it is resumed.',
                  { name: target?.name ?? '' },
                )}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => dialog.close()} data-autofocus>
              {t('Cancel')}
            </Button>
            <Button
              color={target?.paused ? undefined : 'orange'}
              loading={control.isPending}
              onClick={() => void toggle()}
            >
              {target?.paused ? t('Resume') : t('Pause')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

export default function SystemPage() {
  const t = useT();
  const status = useSystemStatus();
  const { refetch } = status;
  // Live: admins' sockets get SystemStatusUpdated every second.
  useEffect(
    () =>
      hub.onPush((push, ...args) => {
        if (push === 'SystemStatusUpdated' && args.length === 0) void refetch();
      }),
    [refetch],
  );
  if (status.isPending) return <LoadingBlock label={t('Loading the system status…')} />;
  if (status.isError) return <ErrorBlock message={messageOf(status.error)} onRetry={() => void refetch()} />;
  return <Body s={status.data} />;
}
