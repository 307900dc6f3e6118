import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/**
 * Reads of a period of an account's ledger (monthly statements): sums and pages by time range,
 * through ledger_entries_account_time_idx (account_id, created_at) INCLUDE (amount_minor, id), 0035.
 * Entries are ordered by id: the order they were appended in, which is the running balance's order.
 */

/** The sum of the account's entries before `at` (a statement's opening balance). */
export async function sumBefore(db: Db, accountId: string, at: Date) {
  const row = await db
    .selectFrom('ledger_entries')
    .select(sql<string>`coalesce(sum(amount_minor), 0)::text`.as('total'))
    .where('account_id', '=', accountId)
    .where('created_at', '<', at)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Per kind, the entries in [from, to): their count and sum. */
export async function totalsByKind(db: Db, accountId: string, from: Date, to: Date) {
  const rows = await db
    .selectFrom('ledger_entries')
    .select([
      'kind',
      sql<number>`count(*)::int`.as('entries'),
      sql<string>`sum(amount_minor)::text`.as('total'),
      sql<string>`coalesce(sum(amount_minor) FILTER (WHERE amount_minor > 0), 0)::text`.as('credits'),
      sql<string>`coalesce(sum(amount_minor) FILTER (WHERE amount_minor < 0), 0)::text`.as('debits'),
    ])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy('kind')
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    entries: r.entries,
    totalMinor: Number(r.total),
    creditsMinor: Number(r.credits),
    debitsMinor: Number(r.debits),
  }));
}

/** The sum of the entries in [from, to) with an id up to `throughId` (a page's starting balance). */
export async function sumThrough(db: Db, accountId: string, from: Date, to: Date, throughId: number) {
  const row = await db
    .selectFrom('ledger_entries')
    .select(sql<string>`coalesce(sum(amount_minor), 0)::text`.as('total'))
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .where('id', '<=', throughId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Up to `limit` entries in [from, to) after id `afterId`, oldest first. */
export async function entriesPage(
  db: Db,
  accountId: string,
  from: Date,
  to: Date,
  afterId: number | undefined,
  limit: number,
) {
  let q = db
    .selectFrom('ledger_entries')
    .select(['id', 'amount_minor', 'kind', 'reference', 'note', 'created_at'])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to);
  if (afterId !== undefined) q = q.where('id', '>', afterId);
  const rows = await q.orderBy('id').limit(limit).execute();
  return rows.map((r) => ({
    id: Number(r.id),
    amountMinor: Number(r.amount_minor),
    kind: r.kind,
    reference: r.reference,
    note: r.note,
    createdAt: r.created_at,
  }));
}

/**
 * The months (YYYY-MM in `timeZone`) that have entries, newest first, with their entry counts; at
 * most `limit`. Grouped from the index alone (an index-only scan of the account's entries).
 */
export async function monthsWithEntries(db: Db, accountId: string, timeZone: string, limit: number) {
  const month = sql<string>`to_char(created_at AT TIME ZONE ${timeZone}, 'YYYY-MM')`;
  const rows = await db
    .selectFrom('ledger_entries')
    .select([month.as('month'), sql<number>`count(*)::int`.as('entries')])
    .where('account_id', '=', accountId)
    .groupBy(sql`1`)
    .orderBy(sql`1`, 'desc')
    .limit(limit)
    .execute();
  return rows;
}
