import { FINAL_STATUSES, MESSAGE_STATUSES, type CampaignDto, type MessageStatus } from '@wren/contracts';
import * as repo from './campaigns.repository';
import { shapedFinish, type Shaping } from './delivery-shaping';

/** Failed outcomes, for the report's "failed" and resend-to-failed. */
export const FAILED: readonly MessageStatus[] = ['undelivered', 'expired', 'rejected', 'failed', 'unknown'];

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/**
 * When a sending (or scheduled) campaign's last message should go: the later of what its shaping
 * allows (delivery-shaping.ts) and the pace it has kept since it started; null when everything has
 * gone (or it is not sending), or nothing tells yet.
 */
/**
 * Messages queued since the last stats snapshot (stats are counted apart from the queueing, so a
 * campaign just accepted has its messages materialised and none counted yet): they are waiting.
 */
function uncounted(row: repo.CampaignRow, counts: Record<MessageStatus, number>): number {
  const counted = MESSAGE_STATUSES.reduce((a, s) => a + counts[s], 0);
  return Math.max(0, row.materialised - counted);
}

export function projectedFinish(
  row: repo.CampaignRow,
  counts: Record<MessageStatus, number>,
  now: number,
): number | null {
  if (row.status !== 'sending' && row.status !== 'scheduled') return null;
  const unmaterialised = Math.max(0, row.recipients - row.materialised);
  const notCounted = uncounted(row, counts);
  const waiting = unmaterialised + counts.queued + counts.scheduled + notCounted;
  if (waiting === 0) return null;
  const from = row.status === 'scheduled' && row.scheduled_at ? new Date(row.scheduled_at).getTime() : now;
  const shape: Shaping = {
    batchSize: row.batch_size,
    batchPauseSeconds: row.batch_pause_seconds,
    ratePerMinute: row.rate_per_minute,
    prefixRates: row.prefix_rates ?? [],
  };
  let finish = shapedFinish(shape, row.shaping, row.prefix_counts, row.materialised, unmaterialised, from);
  // The pace so far: messages that left the queue since it started.
  const started = row.started_at ? new Date(row.started_at).getTime() : null;
  const gone = row.materialised - counts.queued - counts.scheduled - notCounted;
  if (row.status === 'sending' && started !== null && gone > 0 && now - started >= 5_000) {
    const paced = now + (waiting * (now - started)) / gone;
    finish = finish === null ? paced : Math.max(finish, paced);
  }
  return finish;
}

export function toCampaignDto(row: repo.CampaignRow, now = Date.now()): CampaignDto {
  const stats = row.stats ?? {};
  const counts = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, Number(stats[s] ?? 0)])) as Record<
    MessageStatus,
    number
  >;
  const delivered = counts.delivered;
  const failed = FAILED.reduce((a, s) => a + counts[s], 0);
  const finished = FINAL_STATUSES.filter((s) => s !== 'canceled').reduce((a, s) => a + counts[s], 0);
  const closed = row.status === 'canceled' ? 0 : row.recipients - row.materialised;
  const pending =
    closed + counts.scheduled + counts.queued + counts.sending + counts.sent + uncounted(row, counts);
  const finishAt = projectedFinish(row, counts, now);
  return {
    id: row.campaign_id,
    kind: row.kind,
    name: row.name,
    status: row.status,
    sender: row.sender,
    text: row.body,
    encoding: row.encoding,
    segments: row.segments,
    recipients: row.recipients,
    invalid: row.invalid,
    duplicates: row.duplicates,
    suppressed: row.suppressed,
    materialised: row.materialised,
    counts,
    delivered,
    failed,
    pending,
    deliveryRate: finished ? Math.round((delivered / finished) * 10_000) / 10_000 : 0,
    costMinor: Number(row.cost_minor),
    // Recipients never queued (one entry at a cancel) and messages refunded one by one.
    refundedMinor: Number(row.unsent_refund_minor) + Number(stats[repo.REFUNDED_STAT] ?? 0),
    currency: row.currency,
    ratePerMinute: row.rate_per_minute,
    batchSize: row.batch_size,
    batchPauseSeconds: row.batch_pause_seconds,
    prefixRates: row.prefix_rates?.map((r) => ({ prefix: `+${r.prefix}`, perMinute: r.perMinute })) ?? null,
    projectedFinishAt: iso(finishAt === null ? null : new Date(finishAt)),
    scheduledAt: iso(row.scheduled_at),
    timezone: row.timezone,
    createdAt: new Date(row.created_at).toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    resendOf: row.resend_of,
    trackLinks: row.link_base !== null,
    sendWindow: row.send_window ?? null,
    clicks: row.link_clicks,
    uniqueClicks: row.link_unique_clicks,
    clickThroughRate: delivered ? Math.round((row.link_unique_clicks / delivered) * 10_000) / 10_000 : 0,
  };
}
