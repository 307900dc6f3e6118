import { Badge, Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useT } from '@/lib/i18n';
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
  const t = useT();
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
              {c.kind === 'personalised' ? t('Personalised') : t('Bulk')}
            </Badge>
            <Badge
              variant="dot"
              color={live ? 'teal' : 'gray'}
              data-testid="live-badge"
              title={live ? t('Updates arrive as they happen') : t('Not connected to live updates')}
            >
              {live ? t('Live') : t('Offline')}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {t('From {{sender}} · created {{time}}', { sender: c.sender, time: formatDateTime(c.createdAt) })}
            {c.scheduledAt &&
              t(' · scheduled {{time}}', { time: formatInZone(c.scheduledAt, c.timezone ?? zone) })}
            {c.scheduledAt && c.timezone && c.timezone !== zone && ` (${formatInZone(c.scheduledAt, zone)})`}
            {c.ratePerMinute && t(' · at most {{count}} a minute', { count: formatNumber(c.ratePerMinute) })}
            {c.sendWindow &&
              t(" · sends {{window}}, recipient's local time", { window: describeSendWindow(c.sendWindow) })}
            {c.batchSize &&
              c.batchPauseSeconds &&
              t(' · in batches of {{count}}, {{pause}} apart', {
                count: formatNumber(c.batchSize),
                pause: formatPause(c.batchPauseSeconds),
              })}
            {c.prefixRates
              ?.map((r) =>
                t(' · {{prefix}} at most {{count}} a minute', {
                  prefix: r.prefix,
                  count: formatNumber(r.perMinute),
                }),
              )
              .join('')}
          </Text>
          {c.projectedFinishAt && (
            <Text size="sm" data-testid="projected-finish">
              {t('Projected finish:')} <b>{formatInZone(c.projectedFinishAt, zone)}</b>
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          <CampaignActions c={c} size="sm" />
          <RescheduleCampaign c={c} zone={zone} />
          {c.failed > 0 && (
            <Can permission="messages:send">
              <Button size="sm" variant="light" onClick={onResend} loading={resending}>
                {t('Resend to {{count}} failed', { count: formatNumber(c.failed) })}
              </Button>
            </Can>
          )}
          <Can permission="reports:read">
            <Button size="sm" variant="default" onClick={onExport}>
              {t('Export CSV')}
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
