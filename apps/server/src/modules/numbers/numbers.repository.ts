import type { NumberCreate, NumberUpdate } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';

export interface NumberRow {
  id: string;
  number: string;
  kind: 'long' | 'short';
  country: string;
  connection: string | null;
  monthly_price_minor: number;
  account_id: string | null;
  account_name: string | null;
  assigned_at: Date | null;
  paid_until: Date | null;
  past_due_since: Date | null;
  created_at: Date;
}

const withAccount = (db: Db) =>
  db
    .selectFrom('phone_numbers as n')
    .leftJoin('accounts as a', 'a.id', 'n.account_id')
    .select([
      'n.id',
      'n.number',
      'n.kind',
      'n.country',
      'n.connection',
      'n.monthly_price_minor',
      'n.account_id',
      'a.name as account_name',
      'n.assigned_at',
      'n.paid_until',
      'n.past_due_since',
      'n.created_at',
    ]);

/** Numbers in number order after `cursor`, filtered by status, text (number, country, account) or account. */
export async function listNumbers(
  db: Db,
  q: { q?: string; status?: 'all' | 'free' | 'assigned'; cursor?: string; accountId?: string; limit: number },
): Promise<NumberRow[]> {
  let query = withAccount(db).orderBy('n.number').limit(q.limit);
  if (q.cursor) query = query.where('n.number', '>', q.cursor);
  if (q.status === 'free') query = query.where('n.account_id', 'is', null);
  if (q.status === 'assigned') query = query.where('n.account_id', 'is not', null);
  if (q.accountId) query = query.where('n.account_id', '=', q.accountId);
  if (q.q) {
    const like = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([eb('n.number', 'like', like), eb('n.country', 'ilike', like), eb('a.name', 'ilike', like)]),
    );
  }
  return await query.execute();
}

export async function getNumber(db: Db, id: string): Promise<NumberRow> {
  return await withAccount(db).where('n.id', '=', id).executeTakeFirstOrThrow();
}

/** The number's row, locked for the rest of the transaction (undefined: no such number). */
export async function lockNumber(trx: Db, id: string): Promise<NumberRow | undefined> {
  const locked = await trx
    .selectFrom('phone_numbers')
    .select('id')
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return locked ? getNumber(trx, id) : undefined;
}

/** The new number's id, or undefined when the number is in the inventory already. */
export async function insertNumber(trx: Db, n: NumberCreate): Promise<string | undefined> {
  const row = await trx
    .insertInto('phone_numbers')
    .values({
      number: n.number,
      kind: n.kind,
      country: n.country,
      connection: n.connection ?? null,
      monthly_price_minor: n.monthlyPriceMinor,
    })
    .onConflict((oc) => oc.column('number').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function updateNumber(trx: Db, id: string, u: NumberUpdate) {
  await trx
    .updateTable('phone_numbers')
    .set({
      ...(u.connection !== undefined && { connection: u.connection }),
      ...(u.monthlyPriceMinor !== undefined && { monthly_price_minor: u.monthlyPriceMinor }),
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteNumber(trx: Db, id: string) {
  await trx.deleteFrom('phone_numbers').where('id', '=', id).execute();
}

export async function setAssignment(trx: Db, id: string, accountId: string, start: Date) {
  await trx
    .updateTable('phone_numbers')
    .set({
      account_id: accountId,
      assigned_at: start,
      paid_until: sql`${start}::timestamptz + interval '1 month'`,
      past_due_since: null,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function clearAssignment(trx: Db, id: string) {
  await trx
    .updateTable('phone_numbers')
    .set({
      account_id: null,
      assigned_at: null,
      paid_until: null,
      past_due_since: null,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .execute();
}

export async function extendPaid(trx: Db, id: string) {
  await trx
    .updateTable('phone_numbers')
    .set({ paid_until: sql`paid_until + interval '1 month'`, past_due_since: null, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

export async function markPastDue(trx: Db, id: string) {
  await trx
    .updateTable('phone_numbers')
    .set({ past_due_since: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
}

/** Assigned numbers whose paid month has ended, oldest first. */
export async function dueNumbers(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('phone_numbers')
    .select('id')
    .where('account_id', 'is not', null)
    .where('paid_until', '<=', sql<Date>`now()`)
    .orderBy('paid_until')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The approved sender ID an assigned number gives its account. A sender ID of the same value the
 * account had requested becomes this one (approved, tied to the number).
 */
export async function addNumberSender(trx: Db, s: { accountId: string; numberId: string; value: string }) {
  await sql`INSERT INTO sender_ids (account_id, value, kind, purpose, sample_message, status, decided_at, number_id, updated_at)
            VALUES (${s.accountId}::uuid, ${s.value}, 'numeric', 'A number assigned to the account', '', 'approved', now(),
                    ${s.numberId}::uuid, now())
            ON CONFLICT (account_id, lower(value)) DO UPDATE
              SET status = 'approved', reason = NULL, decided_at = now(), number_id = EXCLUDED.number_id,
                  updated_at = now()`.execute(trx);
}

export async function removeNumberSender(trx: Db, numberId: string) {
  await trx.deleteFrom('sender_ids').where('number_id', '=', numberId).execute();
}

export async function connectionExists(db: Db, name: string): Promise<boolean> {
  const row = await db
    .selectFrom('smsc_connections')
    .select('name')
    .where('name', '=', name)
    .executeTakeFirst();
  return row !== undefined;
}

export async function accountExists(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('accounts').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function now(db: Db): Promise<Date> {
  const { rows } = await sql<{ now: Date }>`SELECT now() AS now`.execute(db);
  return rows[0].now;
}
