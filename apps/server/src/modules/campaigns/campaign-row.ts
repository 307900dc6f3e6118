import type { Db } from '../../platform/db';
import { notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { countsEveryMs } from '../../shared/counts-freshness';
import * as repo from './campaigns.repository';

/** Tells the hub and the report screens that a campaign changed. */
export const publishCampaignChanged = (events: EventBus, accountId: string, campaignId: string) =>
  events.publish('campaign.changed', { accountId, campaignId });

/** The account's campaign; 404 for another account's or an unknown one. */
export async function ownCampaign(db: Db, accountId: string, id: string) {
  const row = await repo.findCampaign(db, accountId, id);
  if (!row) throw notFound('Campaign');
  return row;
}

/** Fresh counts for a campaign whose stored ones are older than countsEveryMs allows. */
export async function refreshStats(db: Db, row: repo.CampaignRow, opts: { force?: boolean } = {}) {
  if (
    !opts.force &&
    row.stats_at &&
    Date.now() - new Date(row.stats_at).getTime() < countsEveryMs(row.materialised)
  )
    return row;
  if (row.materialised === 0) return row;
  const stats = await repo.statusCounts(db, row.campaign_id);
  await repo.saveStats(db, row.campaign_id, stats);
  return { ...row, stats, stats_at: new Date() };
}
