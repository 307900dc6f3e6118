import { Badge, Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Can } from '@/components/can';
import { describeSendWindow, type CampaignDto } from '@wren/contracts';
import { CampaignActions, CampaignProgress, CampaignStatusBadge } from '@/features/campaigns';
import { formatDateTime, formatInZone } from '../format';
import { RescheduleCampaign } from './reschedule-campaign';
import { formatNumber, formatPause } from '@/lib/format';

interface CampaignHeaderCardProps {
  c: CampaignDto;
  /** The user's zone: times are shown in it (and in the campaign's own, where that differs). */
  zone: string;
  live: boolean;
  onResend: () => void;
  resending: boolean;
  onExport: () => void;
}

/** A campaign's name, kind, live state, sender and schedule, its actions, text and progress. */
export function CampaignHeaderCard({
  c,
  zone,
  live,
  onResend,
  resending,
  onExport,
}: CampaignHeaderCardProps) {
  return (
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
              color={live ? 'teal' : 'gray'}
              data-testid="live-badge"
              title={live ? 'Updates arrive as they happen' : 'Not connected to live updates'}
            >
              {live ? 'Live' : 'Offline'}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            From {c.sender} · created {formatDateTime(c.createdAt)}
            {c.scheduledAt && ` · scheduled ${formatInZone(c.scheduledAt, c.timezone ?? zone)}`}
            {c.scheduledAt && c.timezone && c.timezone !== zone && ` (${formatInZone(c.scheduledAt, zone)})`}
            {c.ratePerMinute && ` · at most ${formatNumber(c.ratePerMinute)} a minute`}
            {c.sendWindow && ` · sends ${describeSendWindow(c.sendWindow)}, recipient's local time`}
            {c.batchSize &&
              c.batchPauseSeconds &&
              ` · in batches of ${formatNumber(c.batchSize)}, ${formatPause(c.batchPauseSeconds)} apart`}
            {c.prefixRates
              ?.map((r) => ` · ${r.prefix} at most ${formatNumber(r.perMinute)} a minute`)
              .join('')}
          </Text>
          {c.projectedFinishAt && (
            <Text size="sm" data-testid="projected-finish">
              Projected finish: <b>{formatInZone(c.projectedFinishAt, zone)}</b>
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <CampaignActions c={c} size="sm" />
          <RescheduleCampaign c={c} zone={zone} />
          {c.failed > 0 && (
            <Can permission="messages:send">
              <Button size="sm" variant="light" onClick={onResend} loading={resending}>
                Resend to {formatNumber(c.failed)} failed
              </Button>
            </Can>
          )}
          <Can permission="reports:read">
            <Button size="sm" variant="default" onClick={onExport}>
              Export CSV
            </Button>
          </Can>
        </Group>
      </Group>
      <Text size="sm" mt="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {c.text}
      </Text>
      <Box mt="sm">
        <CampaignProgress c={c} />
      </Box>
    </Card>
  );
}
