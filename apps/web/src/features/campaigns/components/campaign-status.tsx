import { Badge, Group, Progress, Text, Tooltip } from '@mantine/core';
import type { CampaignDto, CampaignStatus } from '@wren/contracts';
import { formatNumber } from '@/lib/format';
import { useT } from '@/lib/i18n';

const COLORS: Record<CampaignStatus, string> = {
  scheduled: 'blue',
  sending: 'teal',
  paused: 'yellow',
  completed: 'gray',
  canceled: 'red',
};

const LABELS: Record<CampaignStatus, string> = {
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  completed: 'Completed',
  canceled: 'Canceled',
};

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const t = useT();
  return (
    <Badge color={COLORS[status]} variant="light" data-testid="campaign-status">
      {t(LABELS[status])}
    </Badge>
  );
}

/** The statuses of a message that was handed to an SMSC. */
const WENT = [
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'unknown',
] as const;

/**
 * Delivered, failed, canceled and still pending, as one bar. Canceled messages are not "done": a
 * campaign canceled before it sent anything read "100% done 4/4" (issue 47, defect 9). Its line
 * then says how many were sent of all, and how many were canceled.
 */
export function CampaignProgress({ c }: { c: CampaignDto }) {
  const t = useT();
  const total = Math.max(1, c.recipients);
  const delivered = (c.delivered / total) * 100;
  const failed = (c.failed / total) * 100;
  const sent = ((c.counts.sent + c.counts.sending) / total) * 100;
  const done = c.recipients - c.pending;
  // Of a canceled campaign: the messages that went to the SMSC, and the rest (canceled, or never
  // queued), which will not be sent.
  const went = WENT.reduce((n, status) => n + (c.counts[status] ?? 0), 0);
  const canceled = c.status === 'canceled' ? Math.max(0, c.recipients - went) : (c.counts.canceled ?? 0);
  const pending = c.status === 'canceled' ? 0 : c.pending;
  return (
    <Tooltip
      label={
        canceled > 0
          ? t('{{delivered}} delivered · {{failed}} failed · {{canceled}} canceled · {{pending}} pending', {
              delivered: formatNumber(c.delivered),
              failed: formatNumber(c.failed),
              canceled: formatNumber(canceled),
              pending: formatNumber(pending),
            })
          : t('{{delivered}} delivered · {{failed}} failed · {{pending}} pending', {
              delivered: formatNumber(c.delivered),
              failed: formatNumber(c.failed),
              pending: formatNumber(pending),
            })
      }
    >
      <div>
        <Progress.Root size="lg">
          <Progress.Section value={delivered} color="teal" aria-label={t('Delivered')} />
          <Progress.Section value={sent} color="blue" aria-label={t('Sent, waiting for a receipt')} />
          <Progress.Section value={failed} color="red" aria-label={t('Failed')} />
          <Progress.Section value={(canceled / total) * 100} color="gray" aria-label={t('Canceled')} />
        </Progress.Root>
        <Group justify="space-between" mt={2} data-testid="campaign-progress">
          <Text size="xs" c="dimmed">
            {c.status === 'canceled'
              ? t('{{sent}} sent · {{canceled}} canceled', {
                  sent: formatNumber(went),
                  canceled: formatNumber(canceled),
                })
              : t('{{percent}}% done', { percent: Math.round((done / total) * 100) })}
          </Text>
          <Text size="xs" c="dimmed">
            {formatNumber(c.status === 'canceled' ? went : done)} / {formatNumber(c.recipients)}
          </Text>
        </Group>
      </div>
    </Tooltip>
  );
}
