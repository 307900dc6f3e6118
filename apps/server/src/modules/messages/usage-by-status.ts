import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/**
 * The account's messages created in [from, to), grouped by status, by the first 8 characters of the
 * recipient (`+` and 7 digits: longer than any rate plan's prefix) and by whether they were refunded,
 * with one recipient of each group to price it by. The messages module's public read for the
 * sub-accounts' usage and margin (issue 39 item 4). Through messages_log_idx (account_id, created_at).
 */
export async function usageByStatus(db: Db, accountId: string, from: Date, to: Date) {
  const rows = await db
    .selectFrom('messages')
    .select([
      'status',
      'refunded',
      sql<string>`min(recipient)`.as('sample'),
      sql<number>`count(*)::int`.as('messages'),
      sql<string>`sum(segments)::text`.as('parts'),
      sql<string>`sum(price_minor)::text`.as('charged'),
    ])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy(['status', 'refunded', sql`left(recipient, 8)`])
    .execute();
  return rows.map((r) => ({
    status: r.status,
    refunded: r.refunded,
    sample: r.sample,
    messages: r.messages,
    parts: Number(r.parts),
    chargedMinor: Number(r.charged),
  }));
}
