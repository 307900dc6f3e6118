import { sql } from 'kysely';
import type { Logger } from '../../platform/logger';
import { type Db, transact } from '../../platform/db';

export interface Click {
  code: string;
  campaignId: string;
  at: Date;
  device: string;
  country: string | null;
}

/** How often buffered clicks are written (one transaction for all of them). */
export const CLICK_FLUSH_MS = 250;

/**
 * Clicks are buffered and written together, off the redirect's path: the redirect answers after
 * one indexed read. A flush stores every click (link_clicks), adds them to their links (a link's
 * first click is a unique click) and to their campaigns' counters, in one transaction. Bots
 * (chat apps' link previews, crawlers) are stored with device `bot` but not counted. A crash
 * loses at most CLICK_FLUSH_MS of clicks; the redirects themselves were answered.
 */
export function createClickRecorder(deps: { db: Db; logger: Logger }) {
  let buffer: Click[] = [];
  let flushing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  async function write(clicks: Click[]) {
    await transact(deps.db, async (trx) => {
      // Locked in code order, so two nodes' flushes of the same links cannot deadlock; a link
      // removed since its redirect (its campaign's retention ended) takes its clicks with it.
      const before = await sql<{ code: string; first: boolean }>`
        SELECT code, first_clicked_at IS NULL AS first FROM short_links
         WHERE code = ANY(${[...new Set(clicks.map((c) => c.code))]}::text[]) ORDER BY code FOR UPDATE`.execute(
        trx,
      );
      const exists = new Set(before.rows.map((r) => r.code));
      const kept = clicks.filter((c) => exists.has(c.code));
      if (!kept.length) return;
      await trx
        .insertInto('link_clicks')
        .values(
          kept.map((c) => ({
            code: c.code,
            campaign_id: c.campaignId,
            clicked_at: c.at,
            device: c.device,
            country: c.country,
          })),
        )
        .execute();
      const perCode = new Map<string, { n: number; first: Date; campaignId: string }>();
      for (const c of kept) {
        if (c.device === 'bot') continue;
        const e = perCode.get(c.code);
        if (e) e.n += 1;
        else perCode.set(c.code, { n: 1, first: c.at, campaignId: c.campaignId });
      }
      if (!perCode.size) return;
      const perCampaign = new Map<string, { clicks: number; unique: number }>();
      for (const row of before.rows) {
        const e = perCode.get(row.code);
        if (!e) continue;
        const c = perCampaign.get(e.campaignId) ?? { clicks: 0, unique: 0 };
        c.clicks += e.n;
        if (row.first) c.unique += 1;
        perCampaign.set(e.campaignId, c);
      }
      // One statement for every link of the flush (a statement per link held 2,000 a second).
      const found = [...perCode.keys()];
      await sql`UPDATE short_links s SET clicks = s.clicks + v.n,
                       first_clicked_at = coalesce(s.first_clicked_at, v.first)
                  FROM unnest(${found}::text[], ${found.map((c) => perCode.get(c)!.n)}::int[],
                              ${found.map((c) => perCode.get(c)!.first.toISOString())}::timestamptz[])
                       AS v(code, n, first)
                 WHERE s.code = v.code`.execute(trx);
      for (const [campaignId, c] of [...perCampaign].sort(([a], [b]) => a.localeCompare(b))) {
        await sql`UPDATE bulk_campaigns SET link_clicks = link_clicks + ${c.clicks},
                         link_unique_clicks = link_unique_clicks + ${c.unique}
                   WHERE campaign_id = ${campaignId}::uuid`.execute(trx);
      }
    });
  }

  async function flush(): Promise<void> {
    if (flushing) await flushing;
    if (!buffer.length) return;
    const clicks = buffer;
    buffer = [];
    flushing = write(clicks)
      .catch((err: unknown) => {
        // The database is away: keep the clicks for the next flush (bounded, newest kept).
        deps.logger.warn({ err, clicks: clicks.length }, 'link clicks not stored yet; retrying');
        buffer = [...clicks, ...buffer].slice(-100_000);
      })
      .finally(() => {
        flushing = null;
      });
    await flushing;
  }

  return {
    record(click: Click) {
      buffer.push(click);
      timer ??= setTimeout(() => {
        timer = null;
        void flush();
      }, CLICK_FLUSH_MS);
    },
    flush,
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await flush();
    },
  };
}
export type ClickRecorder = ReturnType<typeof createClickRecorder>;
