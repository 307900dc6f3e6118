import { Badge, Group, Progress, Text, Tooltip } from '@mantine/core';
import type { CampaignDto, CampaignStatus } from '@wren/contracts';

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
  return (
    <Badge color={COLORS[status]} variant="light" data-testid="campaign-status">
      {LABELS[status]}
    </Badge>
  );
}

/** Delivered, failed and still pending, as one bar (the rest of the recipients not yet sent). */
export function CampaignProgress({ c }: { c: CampaignDto }) {
  const total = Math.max(1, c.recipients);
  const delivered = (c.delivered / total) * 100;
  const failed = (c.failed / total) * 100;
  const sent = ((c.counts.sent + c.counts.sending) / total) * 100;
  const done = c.recipients - c.pending;
  return (
    <Tooltip
      label={`${c.delivered.toLocaleString()} delivered · ${c.failed.toLocaleString()} failed · ${c.pending.toLocaleString()} pending`}
    >
      <div>
        <Progress.Root size="lg">
          <Progress.Section value={delivered} color="teal" aria-label="Delivered" />
          <Progress.Section value={sent} color="blue" aria-label="Sent, waiting for a receipt" />
          <Progress.Section value={failed} color="red" aria-label="Failed" />
        </Progress.Root>
        <Group justify="space-between" mt={2}>
          <Text size="xs" c="dimmed">
            {Math.round((done / total) * 100)}% done
          </Text>
          <Text size="xs" c="dimmed">
            {done.toLocaleString()} / {c.recipients.toLocaleString()}
          </Text>
        </Group>
      </div>
    </Tooltip>
  );
}
