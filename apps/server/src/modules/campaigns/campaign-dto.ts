import { FINAL_STATUSES, MESSAGE_STATUSES, type CampaignDto, type MessageStatus } from '@wren/contracts';
import * as repo from './campaigns.repository';

/** Failed outcomes, for the report's "failed" and resend-to-failed. */
export const FAILED: readonly MessageStatus[] = ['undelivered', 'expired', 'rejected', 'failed', 'unknown'];

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toCampaignDto(row: repo.CampaignRow): CampaignDto {
  const stats = row.stats ?? {};
  const counts = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, Number(stats[s] ?? 0)])) as Record<
    MessageStatus,
    number
  >;
  const delivered = counts.delivered;
  const failed = FAILED.reduce((a, s) => a + counts[s], 0);
  const finished = FINAL_STATUSES.filter((s) => s !== 'canceled').reduce((a, s) => a + counts[s], 0);
  const closed = row.status === 'canceled' ? 0 : row.recipients - row.materialised;
  const pending = closed + counts.scheduled + counts.queued + counts.sending + counts.sent;
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
