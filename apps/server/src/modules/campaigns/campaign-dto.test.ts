import { describe, expect, it } from 'vitest';
import { toCampaignDto } from './campaign-dto';
import type { CampaignRow } from './campaigns.repository';

const now = Date.parse('2026-12-03T12:00:00Z');
const row = (over: Partial<CampaignRow>): CampaignRow =>
  ({
    campaign_id: 'c1',
    account_id: 'a1',
    user_id: null,
    kind: 'bulk',
    name: 'n',
    status: 'sending',
    sender: 'Wren',
    body: 'hi',
    columns: [],
    encoding: 'GSM-7',
    segments: 1,
    recipients: 6,
    invalid: 0,
    duplicates: 0,
    suppressed: 0,
    next_seq: 6,
    materialised: 6,
    cost_minor: 0,
    currency: 'USD',
    unsent_refund_minor: 0,
    scheduled_at: null,
    timezone: null,
    rate_per_minute: null,
    resend_of: null,
    stats: {},
    stats_at: null,
    started_at: new Date(now),
    finished_at: null,
    paced_at: null,
    link_base: null,
    link_clicks: 0,
    link_unique_clicks: 0,
    send_window: null,
    batch_size: null,
    batch_pause_seconds: null,
    prefix_rates: [{ prefix: '447', perMinute: 2 }],
    prefix_counts: { '447': 4 },
    shaping: null,
    created_at: new Date(now),
    updated_at: new Date(now),
    ...over,
  }) as CampaignRow;

describe('a campaign whose stats are not counted yet', () => {
  it('counts its queued messages as pending and still projects a finish', () => {
    // Just accepted: all six queued (four under +447 at 2 a minute), the stats snapshot not taken yet.
    const fresh = toCampaignDto(row({}), now);
    expect(fresh.pending).toBe(6);
    expect(fresh.projectedFinishAt).not.toBeNull();
    // Counted: the same answer from the stats.
    const counted = toCampaignDto(row({ stats: { queued: 6 }, stats_at: new Date(now) }), now);
    expect(counted.pending).toBe(6);
    expect(counted.projectedFinishAt).toBe(fresh.projectedFinishAt);
    // All delivered: nothing pending, no projection.
    const done = toCampaignDto(row({ stats: { delivered: 6 }, stats_at: new Date(now) }), now);
    expect(done.pending).toBe(0);
    expect(done.projectedFinishAt).toBeNull();
  });
});
