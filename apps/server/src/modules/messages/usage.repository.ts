import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/**
 * The account's messages created in [from, to), grouped by the first 7 digits of the recipient
 * (`+` and 7 digits tell the country of every numbering plan libphonenumber knows, NANP's area
 * codes included), with one recipient of each group to tell its country from. Through
 * messages_log_idx (account_id, created_at).
 */
export async function usageByPrefix(db: Db, accountId: string, from: Date, to: Date) {
  const rows = await db
    .selectFrom('messages')
    .select([
      sql<string>`min(recipient)`.as('sample'),
      sql<number>`count(*)::int`.as('messages'),
      sql<string>`sum(segments)::text`.as('parts'),
      sql<string>`sum(price_minor)::text`.as('charged'),
      sql<string>`coalesce(sum(price_minor) FILTER (WHERE refunded), 0)::text`.as('refunded'),
    ])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy(sql`left(recipient, 8)`)
    .execute();
  return rows.map((r) => ({
    sample: r.sample,
    messages: r.messages,
    parts: Number(r.parts),
    chargedMinor: Number(r.charged),
    refundedMinor: Number(r.refunded),
  }));
}
