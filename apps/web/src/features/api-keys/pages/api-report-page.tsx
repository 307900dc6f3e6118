import '@mantine/charts/styles.css';
import { useState } from 'react';
import { BarChart } from '@mantine/charts';
import {
  Badge,
  Button,
  Grid,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import type { WebhookDeliveryDto } from '@wren/contracts';
import { useParams } from 'react-router';
import { ResponsiveTable } from '@/components/responsive-table';
import { formatDateTime, formatDay, formatNumber } from '@/lib/format';
import { messageOf } from '@/lib/http/http-error';
import { useT } from '@/lib/i18n';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { useApiKeyReport, useReplayDelivery } from '../api/api-key-report';
import { IconReplay } from '../components/icons';
import { KeyLoadError } from '../components/key-load-error';
import { KeyStatusBadge } from '../components/key-status-badge';
import { rich } from '../components/rich';

const STATUS_COLOR: Record<WebhookDeliveryDto['status'], string> = {
  pending: 'yellow',
  delivered: 'teal',
  failed: 'red',
};

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={700} mt={4}>
        {value}
      </Text>
    </Paper>
  );
}

/** The delivery states as words (keys), translated when shown. */
const STATUS_LABEL: Record<WebhookDeliveryDto['status'], string> = {
  pending: 'pending',
  delivered: 'delivered',
  failed: 'failed',
};

export default function ApiReportPage() {
  const t = useT();
  const { id = '' } = useParams();
  const [days, setDays] = useState('14');
  const report = useApiKeyReport(id, Number(days));
  const replay = useReplayDelivery();

  const doReplay = async (d: WebhookDeliveryDto) => {
    try {
      const after = await replay.mutateAsync(d.id);
      if (after.lastError) toast.error(t('Replay failed: {{error}}', { error: after.lastError }));
      else
        toast.success(
          t('Delivered again: HTTP {{code}} in {{ms}} ms.', {
            code: after.lastStatusCode ?? '',
            ms: after.lastLatencyMs ?? '',
          }),
        );
    } catch (e) {
      toast.error(messageOf(e));
    }
  };

  if (report.isPending) return <Skeleton height={480} radius="md" />;
  if (report.isError) return <KeyLoadError error={report.error} title={t('Could not load the report')} />;
  const r = report.data;
  const totals = r.days.reduce(
    (t, d) => ({ ok: t.ok + d.ok, c: t.c + d.clientErrors, s: t.s + d.serverErrors }),
    { ok: 0, c: 0, s: 0 },
  );
  const chart = r.days.map((d) => ({
    day: formatDay(d.day),
    '2xx': d.ok,
    '4xx': d.clientErrors,
    '5xx': d.serverErrors,
  }));

  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Title order={2} size="h4">
            {r.key.name}
          </Title>
          <Text c="dimmed" size="sm">
            {r.key.prefix}…
          </Text>
          <KeyStatusBadge status={r.key.status} />
        </Group>
        <SegmentedControl
          aria-label={t('Period')}
          value={days}
          onChange={setDays}
          data={[
            { value: '7', label: t('{{count}} days', { count: 7 }) },
            { value: '14', label: t('{{count}} days', { count: 14 }) },
            { value: '30', label: t('{{count}} days', { count: 30 }) },
          ]}
        />
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Stat label={t('Requests')} value={formatNumber(totals.ok + totals.c + totals.s)} />
        <Stat
          label={t('Errors (4xx / 5xx)')}
          value={`${formatNumber(totals.c)} / ${formatNumber(totals.s)}`}
        />
        <Stat label={t('Messages sent')} value={formatNumber(r.messages.count)} />
        <Stat label={t('Cost')} value={formatMoney(r.messages.costMinor, r.messages.currency)} />
      </SimpleGrid>
      <Paper withBorder radius="md" p="lg">
        <Title order={3} size="h5" mb="md">
          {t('Requests per day by status')}
        </Title>
        <BarChart
          yAxisProps={{ allowDecimals: false }}
          h={240}
          data={chart}
          dataKey="day"
          type="stacked"
          withLegend
          series={[
            { name: '2xx', color: 'teal.6' },
            { name: '4xx', color: 'yellow.6' },
            { name: '5xx', color: 'red.6' },
          ]}
        />
      </Paper>
      {/* A third and two thirds side by side on desktop; stacked, each full width, on a phone. */}
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder radius="md" p="lg" h="100%">
            <Title order={3} size="h5" mb="sm">
              {t('Top errors')}
            </Title>
            {r.topErrors.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('No errors in this period.')}
              </Text>
            ) : (
              <Stack gap={6}>
                {r.topErrors.map((e) => (
                  <Group key={e.code} justify="space-between" wrap="nowrap">
                    <Text size="sm" ff="monospace" miw={0} style={{ overflowWrap: 'anywhere' }}>
                      {e.code}
                    </Text>
                    <Text size="sm" fw={600}>
                      {formatNumber(e.count)}
                    </Text>
                  </Group>
                ))}
              </Stack>
            )}
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder radius="md" h="100%">
            <Title order={3} size="h5" p="lg" pb="sm">
              {t('Webhook deliveries')}
            </Title>
            {r.deliveries.length === 0 ? (
              <Text size="sm" c="dimmed" px="lg" pb="lg">
                {t(
                  'No webhook deliveries yet. Give the key a default webhook URL, or send a callbackUrl with a message.',
                )}
              </Text>
            ) : (
              <ResponsiveTable minWidth={520} verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('Event')}</Table.Th>
                    <Table.Th>{t('Status')}</Table.Th>
                    <Table.Th ta="right">{t('Attempts')}</Table.Th>
                    <Table.Th ta="right">{t('Response')}</Table.Th>
                    <Table.Th ta="right">{t('Latency')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('Actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {r.deliveries.map((d) => (
                    <Table.Tr key={d.id}>
                      <Table.Td data-label={t('Event')}>
                        <Text size="sm">{d.eventType}</Text>
                        <Text size="xs" c="dimmed">
                          <time dateTime={d.createdAt}>{formatDateTime(d.createdAt)}</time>
                        </Text>
                      </Table.Td>
                      <Table.Td data-label={t('Status')}>
                        <Tooltip label={d.lastError ?? d.url} multiline maw={320}>
                          <Badge color={STATUS_COLOR[d.status]} variant="light" miw="max-content">
                            {t(STATUS_LABEL[d.status])}
                          </Badge>
                        </Tooltip>
                        {d.nextAttemptAt && (
                          <Text size="xs" c="dimmed">
                            {rich(t, 'next {{time}}', {
                              time: <time dateTime={d.nextAttemptAt}>{formatDateTime(d.nextAttemptAt)}</time>,
                            })}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td data-label={t('Attempts')} ta="right">
                        {d.attempts}
                      </Table.Td>
                      <Table.Td data-label={t('Response')} ta="right">
                        {d.lastStatusCode ?? '—'}
                      </Table.Td>
                      <Table.Td data-label={t('Latency')} ta="right">
                        {d.lastLatencyMs === null ? '—' : t('{{ms}} ms', { ms: d.lastLatencyMs })}
                      </Table.Td>
                      <Table.Td data-label="">
                        <Button
                          size="xs"
                          variant="light"
                          leftSection={<IconReplay />}
                          loading={replay.isPending && replay.variables === d.id}
                          onClick={() => void doReplay(d)}
                          aria-label={t('Replay {{event}} of {{time}}', {
                            event: d.eventType,
                            time: formatDateTime(d.createdAt, { seconds: true }),
                          })}
                        >
                          {t('Replay')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </ResponsiveTable>
            )}
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
