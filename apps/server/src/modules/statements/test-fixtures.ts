import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/**
 * Test fixture: ledger entries at given times (postings take the database's now(), so a statement's
 * past months are written directly), with the cached balance moved by their sum as the ledger does.
 */
export async function postAt(
  db: Db,
  accountId: string,
  entries: { at: string; amountMinor: number; kind: string; reference?: string; note?: string }[],
) {
  await db.transaction().execute(async (trx) => {
    for (const e of entries)
      await trx
        .insertInto('ledger_entries')
        .values({
          account_id: accountId,
          amount_minor: e.amountMinor,
          currency: 'USD',
          kind: e.kind,
          reference: e.reference ?? null,
          note: e.note ?? null,
          created_at: new Date(e.at),
        })
        .execute();
    const total = entries.reduce((n, e) => n + e.amountMinor, 0);
    await trx
      .updateTable('accounts')
      .set({ balance_minor: sql`balance_minor + ${total}` })
      .where('id', '=', accountId)
      .execute();
  });
}

/** Test fixture: messages written directly (recipient, parts, price, refunded, creation time). */
export async function insertSent(
  db: Db,
  accountId: string,
  rows: { to: string; at: string; segments?: number; priceMinor: number; refunded?: boolean }[],
) {
  await db
    .insertInto('messages')
    .values(
      rows.map((r) => ({
        account_id: accountId,
        recipient: r.to,
        sender: 'Wren',
        body: 'Hello',
        encoding: 'GSM-7' as const,
        segments: r.segments ?? 1,
        price_minor: r.priceMinor,
        currency: 'USD',
        status: r.refunded ? ('undelivered' as const) : ('delivered' as const),
        refunded: r.refunded ?? false,
        validity_until: new Date(Date.parse(r.at) + 86_400_000),
        created_at: new Date(r.at),
      })),
    )
    .execute();
}

/** The ledger's own sum of the account's entries before `at` (what a closing balance must equal). */
export async function ledgerSumBefore(db: Db, accountId: string, at: string) {
  const { rows } = await sql<{ total: string }>`
    SELECT coalesce(sum(amount_minor), 0)::text AS total FROM ledger_entries
     WHERE account_id = ${accountId}::uuid AND created_at < ${new Date(at)}`.execute(db);
  return Number(rows[0]?.total ?? 0);
}

export const setTimeZone = (db: Db, userId: string, tz: string) =>
  db.updateTable('users').set({ timezone: tz }).where('id', '=', userId).execute();
