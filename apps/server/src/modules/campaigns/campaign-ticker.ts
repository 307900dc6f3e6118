import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import { EVERY_SECOND_PASSES, type Jobs } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import { COUNTS_EVERY_MS, COUNTS_SCALE_MESSAGES } from '../../shared/counts-freshness';
import { publishCampaignChanged } from './campaign-row';
import * as repo from './campaigns.repository';

/** The materialiser's pass (pg-boss queue name) and its period. */
export const CAMPAIGN_TICK_JOB = 'campaigns.materialise';
export const CAMPAIGN_TICK_SECONDS = 1;

interface Deps {
  db: Db;
  events: EventBus;
  jobs: Jobs;
  logger: Logger;
  /** Tops up one sending campaign (campaign-materialiser). */
  materialise: (id: string) => Promise<number>;
}

/** Starts the campaigns' pass on this node; returns the pass and a stop for its local timer. */
export function startCampaignTicker(deps: Deps) {
  const { db, events, logger, materialise } = deps;
  const changed = (accountId: string, campaignId: string) =>
    publishCampaignChanged(events, accountId, campaignId);

  /** One pass: scheduled campaigns whose time came start; sending ones are topped up; counts refreshed. */
  async function tick() {
    const started = await sql<{ campaign_id: string; account_id: string }>`
      UPDATE bulk_campaigns SET status = 'sending', started_at = now(), paced_at = now(), updated_at = now()
       WHERE status = 'scheduled' AND scheduled_at <= now()
   RETURNING campaign_id, account_id`.execute(db);
    for (const s of started.rows) changed(s.account_id, s.campaign_id);
    const live = await sql<{ campaign_id: string }>`
      SELECT campaign_id FROM bulk_campaigns WHERE status = 'sending' ORDER BY created_at LIMIT 200`.execute(
      db,
    );
    for (const { campaign_id } of live.rows) {
      try {
        await materialise(campaign_id);
      } catch (err) {
        logger.error({ err, campaignId: campaign_id }, 'campaign materialise failed');
      }
    }
    // Counts for the report: live campaigns, and finished ones while late receipts still come in.
    const stale = await sql<{ campaign_id: string }>`
      SELECT campaign_id FROM bulk_campaigns
       WHERE (status IN ('sending', 'paused') OR finished_at > now() - interval '2 hours')
         AND (stats_at IS NULL OR stats_at < now() - make_interval(
               secs => ${COUNTS_EVERY_MS / 1000} * greatest(1, materialised::float8 / ${COUNTS_SCALE_MESSAGES})))
       LIMIT 50`.execute(db);
    for (const { campaign_id } of stale.rows) {
      await repo.saveStats(db, campaign_id, await repo.statusCounts(db, campaign_id));
    }
  }

  // On a node that works jobs, one pass cluster-wide through pg-boss; on an API-only node (which works
  // no jobs) a local timer, so campaigns move in every topology. Passes on several nodes are safe: a
  // campaign is materialised under its row lock (SKIP LOCKED) and the start is one UPDATE.
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;
  if (deps.jobs.working) {
    deps.jobs.every(CAMPAIGN_TICK_JOB, CAMPAIGN_TICK_SECONDS, () => tick(), { group: EVERY_SECOND_PASSES });
  } else {
    timer = setInterval(() => {
      if (ticking) return;
      ticking = true;
      tick()
        .catch((err: unknown) => logger.warn({ err }, 'campaign pass failed'))
        .finally(() => (ticking = false));
    }, CAMPAIGN_TICK_SECONDS * 1000);
    timer.unref();
  }

  /** Stops the local timer (API-only nodes). */
  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  return { tick, stop };
}
