import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/** Adds each message's link clicks (all its short links) to pages of a campaign's messages. */
export async function* withLinkClicks<T extends { id: string }>(
  db: Db,
  campaignId: string,
  pages: AsyncIterable<T[]>,
): AsyncGenerator<(T & { linkClicks: number })[]> {
  for await (const page of pages) {
    const counts = page.length
      ? await db
          .selectFrom('short_links')
          .select(['message_id', (eb) => eb.fn.sum<string>('clicks').as('clicks')])
          .where('campaign_id', '=', campaignId)
          .where('message_id', '=', sql<string>`ANY(${page.map((m) => m.id)}::uuid[])`)
          .groupBy('message_id')
          .execute()
      : [];
    const byMessage = new Map(counts.map((r) => [r.message_id, Number(r.clicks)]));
    yield page.map((m) => ({ ...m, linkClicks: byMessage.get(m.id) ?? 0 }));
  }
}

/** Buckets of a campaign's clicks: hours while its clicks span a week at most, then days. */
const HOURLY_UP_TO_MS = 7 * 24 * 3_600_000;
/** At most this many buckets are answered (the latest ones). */
const MAX_BUCKETS = 400;

/** A campaign's human clicks over time, by device and by country (campaignClicksSchema). */
export async function clickSeries(db: Db, campaignId: string) {
  const span = await db
    .selectFrom('link_clicks')
    .select([(eb) => eb.fn.min('clicked_at').as('first'), (eb) => eb.fn.max('clicked_at').as('last')])
    .where('campaign_id', '=', campaignId)
    .where('device', '<>', 'bot')
    .executeTakeFirst();
  const first = span?.first ? new Date(span.first) : null;
  const last = span?.last ? new Date(span.last) : null;
  const bucket: 'hour' | 'day' =
    first && last && last.getTime() - first.getTime() > HOURLY_UP_TO_MS ? 'day' : 'hour';
  if (!first) return { bucket, points: [], devices: [], countries: [] };
  const points = await sql<{ at: Date; clicks: string; first_clicks: string }>`
    WITH c AS (
      SELECT date_trunc(${bucket}, clicked_at, 'UTC') AS at, count(*) AS n FROM link_clicks
       WHERE campaign_id = ${campaignId}::uuid AND device <> 'bot' GROUP BY 1),
    f AS (
      SELECT date_trunc(${bucket}, first_clicked_at, 'UTC') AS at, count(*) AS n FROM short_links
       WHERE campaign_id = ${campaignId}::uuid AND first_clicked_at IS NOT NULL GROUP BY 1)
    SELECT coalesce(c.at, f.at) AS at, coalesce(c.n, 0) AS clicks, coalesce(f.n, 0) AS first_clicks
      FROM c FULL JOIN f ON f.at = c.at
     ORDER BY 1 DESC LIMIT ${MAX_BUCKETS}`.execute(db);
  const by = (column: 'device' | 'country') =>
    db
      .selectFrom('link_clicks')
      .select([column, (eb) => eb.fn.countAll<string>().as('n')])
      .where('campaign_id', '=', campaignId)
      .where('device', '<>', 'bot')
      .groupBy(column)
      .orderBy('n', 'desc')
      .limit(20)
      .execute();
  const [devices, countries] = await Promise.all([by('device'), by('country')]);
  return {
    bucket,
    points: points.rows
      .map((r) => ({
        at: new Date(r.at).toISOString(),
        clicks: Number(r.clicks),
        firstClicks: Number(r.first_clicks),
      }))
      .reverse(),
    devices: devices.map((d) => ({ device: String(d.device), clicks: Number(d.n) })),
    countries: countries.map((d) => ({ country: d.country ?? null, clicks: Number(d.n) })),
  };
}
