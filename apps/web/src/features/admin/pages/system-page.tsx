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
import { toast } from '@/lib/toast';
import { useConnectionControl, useSystemStatus } from '../api/admin-api';
import { bytes, ErrorBlock, LoadingBlock, SectionHeader, When } from '../components/common';
import { formatNumber, formatTime } from '@/lib/format';

const LANE_LABELS: Record<string, string> = { otp: 'OTP', single: 'Single', bulk: 'Bulk' };

/**
 * Up: every bind in use bound (all configured, or the keptBinds the SMSC allows); degraded: some;
 * down: none; unbound: none, as an operator paused it.
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
              {state.label}
            </Badge>
            {c.paused && (
              <Badge color="orange" variant="dot">
                Paused
              </Badge>
            )}
            {c.draining && (
              <Badge color="orange" variant="dot" data-testid="draining">
                Draining
              </Badge>
            )}
            {c.flapping && (
              <Badge color="red" variant="dot">
                Flapping
              </Badge>
            )}
            {c.throttled && (
              <Badge color="orange" variant="dot" data-testid="throttled">
                Throttling
              </Badge>
            )}
            {c.keptBinds != null && (
              <Badge color="orange" variant="dot" data-testid="kept-binds">
                Kept to {c.keptBinds} {c.keptBinds === 1 ? 'bind' : 'binds'}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {c.worker} · {c.bindMode} · {c.bound} of {c.binds} binds up
          </Text>
        </div>
        <Button
          size="xs"
          variant={c.paused ? 'filled' : 'default'}
          color={c.paused ? undefined : 'orange'}
          onClick={onToggle}
        >
          {c.paused ? 'Resume' : 'Pause'}
        </Button>
      </Group>
      <SimpleGrid cols={2} mb="xs">
        <div>
          <Text size="xs" c="dimmed">
            Window in use
          </Text>
          <Text fw={600}>
            {c.inFlight} / {c.window}
          </Text>
          <Progress value={use} size="sm" aria-label={`Window in use on ${c.name}`} />
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Submits per second
          </Text>
          <Text fw={600}>{c.tps}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Delivered (15 min)
          </Text>
          <Text fw={600} data-testid="delivered-ratio">
            {c.deliveredRatio === null
              ? c.finalReceipts > 0
                ? `${c.finalReceipts} ${c.finalReceipts === 1 ? 'receipt' : 'receipts'}, too few to judge`
                : 'No receipts yet'
              : `${(Math.round(c.deliveredRatio * 1000) / 10).toFixed(1)}% of ${c.finalReceipts}`}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Receipt time, median
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
            Refused, last minute
          </Text>
          <Text fw={600} data-testid="refusals">
            {c.throttlesPerMinute} throttled · {c.submitErrorsPerMinute}{' '}
            {c.submitErrorsPerMinute === 1 ? 'error' : 'errors'}
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
          Last error: {c.lastError}
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
  const control = useConnectionControl();
  const dialog = useModalTarget<ConnectionStatusDto>();
  const target = dialog.target;
  const toggle = async () => {
    if (!target) return;
    try {
      await control.mutateAsync({ name: target.name, pause: !target.paused });
      toast.success(
        target.paused
          ? `${target.name} resumes sending.`
          : `${target.name} is paused: messages for it wait in the queue.`,
      );
      dialog.close();
    } catch (e) {
      toast.error(messageOf(e));
    }
  };
  const chart = s.throughput.map((t) => ({ ...t, minute: formatTime(t.minute) }));
  const alive = s.workers.filter((w) => w.alive).length;
  return (
    <Stack gap="lg">
      <Text size="xs" c="dimmed" ta="right">
        Updated <span data-testid="status-updated">{formatTime(s.at, { seconds: true })}</span> · live
      </Text>
      <Paper withBorder radius="md">
        <SectionHeader title="SMPP connections" hint="Every connection of every worker, with its binds" />
        {s.connections.length === 0 ? (
          <Alert color="red" variant="light" m="md" title="No worker is reporting">
            No running worker has reported its SMPP connections in the last few seconds. Messages stay queued
            until a worker runs.
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
        <Figure label="Receipts parked" value={s.receipts.parked} hint="waiting for their message" />
        <Figure label="Matched (1 h)" value={s.receipts.matchedLastHour} hint="parked receipts matched" />
        <Figure label="Workers" value={`${alive} / ${s.workers.length}`} hint="alive / seen" />
        <Figure label="Hub sockets" value={s.hubSockets} hint="on this API node" />
      </SimpleGrid>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder radius="md">
          <SectionHeader title="Send queue" hint="Waiting messages by lane" />
          <Table verticalSpacing="xs" mx="md" mb="md" w="auto">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Lane</Table.Th>
                <Table.Th ta="right">Waiting</Table.Th>
                <Table.Th>Oldest waiting since</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {s.lanes.map((l) => (
                <Table.Tr key={l.lane}>
                  <Table.Td>{LANE_LABELS[l.lane] ?? l.lane}</Table.Td>
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
          <SectionHeader title="Workers and storage" />
          <Stack px="md" pb="md" gap="xs">
            {s.workers.length === 0 && (
              <Text size="sm" c="dimmed">
                No worker has reported yet.
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
                  {w.alive ? 'heartbeat' : 'silent since'} {formatTime(w.heartbeatAt, { seconds: true })}
                </Badge>
              </Group>
            ))}
            <Group justify="space-between">
              <Text size="sm">Database</Text>
              <Text size="sm">
                <Badge color={s.database.ok ? 'green' : 'red'} variant="dot" mr={6}>
                  {s.database.ok ? 'OK' : 'Unreachable'}
                </Badge>
                {bytes(s.database.sizeBytes)} · {s.database.connections} connections · {s.database.latencyMs}{' '}
                ms
              </Text>
            </Group>
            {s.disk && (
              <div>
                <Group justify="space-between">
                  <Text size="sm">Disk ({s.disk.path})</Text>
                  <Text size="sm">
                    {bytes(s.disk.freeBytes)} free of {bytes(s.disk.totalBytes)}
                  </Text>
                </Group>
                <Progress
                  value={s.disk.totalBytes ? 100 - (s.disk.freeBytes / s.disk.totalBytes) * 100 : 0}
                  color={s.disk.totalBytes && s.disk.freeBytes / s.disk.totalBytes < 0.1 ? 'red' : 'blue'}
                  size="sm"
                  aria-label="Disk used"
                />
              </div>
            )}
          </Stack>
        </Paper>
      </SimpleGrid>

      <Paper withBorder radius="md">
        <SectionHeader title="Throughput" hint="Messages per minute, last 30 minutes" />
        <BarChart
          h={240}
          px="md"
          pb="md"
          data={chart}
          dataKey="minute"
          withLegend
          series={[
            { name: 'submitted', label: 'Submitted', color: 'blue.6' },
            { name: 'delivered', label: 'Delivered', color: 'teal.6' },
            { name: 'failed', label: 'Failed', color: 'red.6' },
          ]}
        />
      </Paper>

      <Modal
        opened={dialog.opened}
        onClose={dialog.close}
        title={target?.paused ? 'Resume connection' : 'Pause connection'}
        centered
      >
        <Stack>
          <Text size="sm">
            {target?.paused
              ? `Resume sending through ${target?.name}? Messages waiting for it go out again.`
              : `Pause ${target?.name}? New messages routed to it wait in the queue (until they expire); once the submits in flight are answered its binds are unbound. The SMSC keeps receipts until it is resumed.`}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => dialog.close()} data-autofocus>
              Cancel
            </Button>
            <Button
              color={target?.paused ? undefined : 'orange'}
              loading={control.isPending}
              onClick={() => void toggle()}
            >
              {target?.paused ? 'Resume' : 'Pause'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

export default function SystemPage() {
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
  if (status.isPending) return <LoadingBlock label="Loading the system status…" />;
  if (status.isError) return <ErrorBlock message={messageOf(status.error)} onRetry={() => void refetch()} />;
  return <Body s={status.data} />;
}
