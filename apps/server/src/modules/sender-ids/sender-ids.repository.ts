import { sql } from 'kysely';
import type { Db } from '../../platform/db';

const columns = [
  's.id',
  's.account_id',
  's.value',
  's.kind',
  's.purpose',
  's.sample_message',
  's.status',
  's.reason',
  's.is_default',
  's.created_at',
  's.decided_at',
] as const;

export type SenderIdRow = Awaited<ReturnType<typeof findSenderId>> & {};
export type SenderStatus = SenderIdRow['status'];

export async function listSenderIds(db: Db, accountId: string) {
  return db
    .selectFrom('sender_ids as s')
    .select(columns)
    .where('s.account_id', '=', accountId)
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .execute();
}

export async function findSenderId(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('sender_ids as s')
    .select(columns)
    .where('s.account_id', '=', accountId)
    .where('s.id', '=', id)
    .executeTakeFirst();
}

/** Any account's sender ID, unlocked (admin only): which account's senders to lock first. */
export async function findAnySenderId(db: Db, id: string) {
  return db.selectFrom('sender_ids as s').select(columns).where('s.id', '=', id).executeTakeFirst();
}

/**
 * One of the account's sender IDs, locked FOR UPDATE for a decision or a delete; call under
 * `lockAccountSenders` (the advisory lock first, then rows, as every writer of the table does).
 */
export async function lockSenderIdForChange(trx: Db, accountId: string, id: string) {
  return trx
    .selectFrom('sender_ids as s')
    .select(columns)
    .where('s.account_id', '=', accountId)
    .where('s.id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * The account's sender ID with this value (any case), locked FOR SHARE until the transaction ends:
 * while something that will name it (an OTP service) is saved, it cannot be deleted or decided on.
 * A delete that got there first has removed the row, and then nothing is returned.
 */
export async function lockSenderIdForUse(trx: Db, accountId: string, value: string) {
  return byValue(trx, accountId, value).forShare().executeTakeFirst();
}

/** The account's sender ID with this value, in any case. */
const byValue = (db: Db, accountId: string, value: string) =>
  db
    .selectFrom('sender_ids as s')
    .select(columns)
    .where('s.account_id', '=', accountId)
    .where(sql`lower(s.value)`, '=', value.toLowerCase());

/** The account's OTP services that name a sender of their own (not the account's default). */
export async function otpServicesNamingASender(db: Db, accountId: string) {
  return db
    .selectFrom('otp_services')
    .select(['id', 'name', 'sender_id'])
    .where('account_id', '=', accountId)
    .where('sender_id', '<>', '')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findSenderIdByValue(db: Db, accountId: string, value: string) {
  return byValue(db, accountId, value).executeTakeFirst();
}

/**
 * Serialises changes to which of the account's sender IDs is the default (a transaction-scoped
 * advisory lock, so it also covers an account with no sender IDs yet). Returns whether one is.
 */
export async function lockAccountSenders(trx: Db, accountId: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`sender_ids:${accountId}`}, 0))`.execute(trx);
  const row = await trx
    .selectFrom('sender_ids')
    .select('id')
    .where('account_id', '=', accountId)
    .where('is_default', '=', true)
    .executeTakeFirst();
  return { hasDefault: row !== undefined };
}

export interface NewSenderId {
  accountId: string;
  value: string;
  kind: 'alphanumeric' | 'numeric';
  purpose: string;
  sampleMessage: string;
  status: SenderStatus;
  reason: string | null;
  isDefault: boolean;
}

/** Inserts unless the account already has that value (any case); then returns undefined. */
export async function insertSenderId(trx: Db, s: NewSenderId) {
  const now = new Date();
  const row = await trx
    .insertInto('sender_ids')
    .values({
      account_id: s.accountId,
      value: s.value,
      kind: s.kind,
      purpose: s.purpose,
      sample_message: s.sampleMessage,
      status: s.status,
      reason: s.reason,
      is_default: s.isDefault,
      decided_at: s.status === 'requested' ? null : now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? findSenderId(trx, s.accountId, row.id) : undefined;
}

export async function setDecision(
  trx: Db,
  id: string,
  d: { status: SenderStatus; reason: string | null; decidedBy: string | null; isDefault: boolean },
) {
  await trx
    .updateTable('sender_ids')
    .set({
      status: d.status,
      reason: d.reason,
      decided_by: d.decidedBy,
      decided_at: new Date(),
      is_default: d.isDefault,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

/** Makes `id` the only default of the account; call under `lockAccountSenders`. */
export async function makeDefault(trx: Db, accountId: string, id: string) {
  await trx
    .updateTable('sender_ids')
    .set({ is_default: false, updated_at: new Date() })
    .where('account_id', '=', accountId)
    .where('is_default', '=', true)
    .where('id', '!=', id)
    .execute();
  await trx
    .updateTable('sender_ids')
    .set({ is_default: true, updated_at: new Date() })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function deleteSenderId(db: Db, accountId: string, id: string) {
  const r = await db
    .deleteFrom('sender_ids')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/**
 * Gives an account that has lost its default (deleted or rejected) a new one: its oldest approved
 * sender ID, by request time (`created_at`, then `id` for a tie), so the choice is deterministic and
 * the longest-standing sender wins. Returns it, or undefined when the account has no approved
 * sender ID left (sends then use the platform's sender). Call under `lockAccountSenders`.
 */
export async function promoteOldestApproved(trx: Db, accountId: string) {
  const next = await trx
    .selectFrom('sender_ids')
    .select('id')
    .where('account_id', '=', accountId)
    .where('status', '=', 'approved')
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!next) return undefined;
  await makeDefault(trx, accountId, next.id);
  return findSenderId(trx, accountId, next.id);
}

/** Every account's sender IDs for review, oldest first, after the (created_at, id) cursor. */
export async function listForReview(
  db: Db,
  q: { status?: SenderStatus; after?: { t: string; id: string }; limit: number },
) {
  let query = db
    .selectFrom('sender_ids as s')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select([...columns, 'a.name as account_name', sql<string>`s.created_at::text`.as('created_key')]);
  if (q.status) query = query.where('s.status', '=', q.status);
  if (q.after) {
    const { t, id } = q.after;
    query = query.where(sql<boolean>`(s.created_at, s.id) > (${t}::timestamptz, ${id}::uuid)`);
  }
  return query.orderBy('s.created_at').orderBy('s.id').limit(q.limit).execute();
}
