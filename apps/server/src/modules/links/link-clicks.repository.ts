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
