import { MESSAGE_STATUSES, type CampaignDto, type MessageStatus } from '@wren/contracts';
import { translate } from '@/lib/i18n';
import { statusLabel } from './format';

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
export function withCounts(c: CampaignDto, counts: Record<MessageStatus, number>): CampaignDto {
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

export interface StatusSlice {
  status: string;
  count: number;
  color: string;
}

/** The status chart's slices: each status with messages, and the recipients not yet queued. */
export function statusSlices(c: CampaignDto): StatusSlice[] {
  const counts: Record<string, number> = c.counts;
  const slices = MESSAGE_STATUSES.filter((s) => (counts[s] ?? 0) > 0).map((s) => ({
    status: statusLabel(s),
    count: counts[s] ?? 0,
    color: STATUS_COLOR[s] ?? 'gray.6',
  }));
  if (c.recipients - c.materialised > 0 && c.status !== 'canceled') {
    slices.push({
      status: translate('Not yet queued'),
      count: c.recipients - c.materialised,
      color: 'gray.4',
    });
  }
  return slices;
}
