import { sql } from 'kysely';
import type { Db } from '../../platform/db';

export async function insertTopUp(
  db: Db,
  t: {
    accountId: string;
    provider: 'stripe' | 'manual';
    amountMinor: number;
    currency: string;
    note?: string | null;
    requestedBy: string;
  },
) {
  return db
    .insertInto('top_ups')
    .values({
      account_id: t.accountId,
      provider: t.provider,
      amount_minor: t.amountMinor,
      currency: t.currency,
      note: t.note ?? null,
      requested_by: t.requestedBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow() as Promise<TopUpRow>;
}

export type TopUpRow = {
  id: string;
  account_id: string;
  provider: 'stripe' | 'manual';
  status: 'pending' | 'paid' | 'approved' | 'rejected' | 'expired';
  amount_minor: number;
  currency: string;
  provider_ref: string | null;
  note: string | null;
  requested_by: string | null;
  decided_by: string | null;
  decision_note: string | null;
  decided_at: Date | null;
  created_at: Date;
};

export async function setProviderRef(db: Db, id: string, ref: string) {
  await db.updateTable('top_ups').set({ provider_ref: ref }).where('id', '=', id).execute();
}

export async function setStatus(
  db: Db,
  id: string,
  status: TopUpRow['status'],
  decision: { by?: string | null; note?: string | null } = {},
) {
  await db
    .updateTable('top_ups')
    .set({
      status,
      decided_at: sql<Date>`now()`,
      decided_by: decision.by ?? null,
      decision_note: decision.note ?? null,
    })
    .where('id', '=', id)
    .execute();
}

/** The top-up, locked until the transaction ends (one decision or payment at a time). */
export async function lockTopUp(trx: Db, where: { id: string } | { provider: 'stripe'; ref: string }) {
  let q = trx.selectFrom('top_ups').selectAll();
  q =
    'id' in where
      ? q.where('id', '=', where.id)
      : q.where('provider', '=', where.provider).where('provider_ref', '=', where.ref);
  return q.forUpdate().executeTakeFirst() as Promise<TopUpRow | undefined>;
}

export async function listOfAccount(db: Db, accountId: string, limit: number) {
  return db
    .selectFrom('top_ups')
    .leftJoin('users as r', 'r.id', 'top_ups.requested_by')
    .selectAll('top_ups')
    .select('r.name as requested_by_name')
    .where('top_ups.account_id', '=', accountId)
    .orderBy('top_ups.created_at', 'desc')
    .orderBy('top_ups.id', 'desc')
    .limit(limit)
    .execute();
}

export async function countPending(db: Db, accountId: string) {
  const row = await db
    .selectFrom('top_ups')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('provider', '=', 'manual')
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listForOperators(db: Db, status: TopUpRow['status'] | undefined, limit: number) {
  let q = db
    .selectFrom('top_ups')
    .innerJoin('accounts as a', 'a.id', 'top_ups.account_id')
    .leftJoin('users as r', 'r.id', 'top_ups.requested_by')
    .leftJoin('users as d', 'd.id', 'top_ups.decided_by')
    .selectAll('top_ups')
    .select(['a.name as account_name', 'r.name as requested_by_name', 'd.name as decided_by_name'])
    .where('top_ups.provider', '=', 'manual');
  if (status) q = q.where('top_ups.status', '=', status);
  return q.orderBy('top_ups.created_at', 'desc').orderBy('top_ups.id', 'desc').limit(limit).execute();
}

/** Records a verified provider event once; false when its id was seen before (a replay). */
export async function recordEvent(trx: Db, e: { provider: string; id: string; type: string }) {
  const row = await trx
    .insertInto('payment_events')
    .values({ provider: e.provider, event_id: e.id, type: e.type, outcome: 'received' })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function setEventOutcome(
  trx: Db,
  e: { provider: string; id: string; outcome: string; topUpId: string | null },
) {
  await trx
    .updateTable('payment_events')
    .set({ outcome: e.outcome, top_up_id: e.topUpId })
    .where('provider', '=', e.provider)
    .where('event_id', '=', e.id)
    .execute();
}

export async function accountOf(db: Db, accountId: string) {
  return db
    .selectFrom('accounts')
    .select(['id', 'name', 'currency', 'balance_minor'])
    .where('id', '=', accountId)
    .executeTakeFirst();
}

export async function userOf(db: Db, userId: string) {
  return db.selectFrom('users').select(['id', 'name', 'email']).where('id', '=', userId).executeTakeFirst();
}
