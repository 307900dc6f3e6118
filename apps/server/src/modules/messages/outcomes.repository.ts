import { sql } from 'kysely';
import { type Db, insertUnnest } from '../../platform/db';

/** Queue operations of the dispatcher: claiming with a lease, and settling what came back. */

export async function claimBatch(db: Db, workerId: string, limit: number, leaseSeconds: number) {
  const res = await sql<{
    id: string;
    account_id: string;
    recipient: string;
    sender: string;
    body: string;
    encoding: 'GSM-7' | 'UCS-2';
    attempts: number;
    validity_until: Date;
  }>`
    WITH claimed AS (
    UPDATE messages m
       SET status = 'sending', lease_until = now() + make_interval(secs => ${leaseSeconds}),
           leased_by = ${workerId}, attempts = m.attempts + 1
      FROM (SELECT id FROM messages
             WHERE status = 'queued' AND next_attempt_at <= now()
             ORDER BY priority, next_attempt_at
             LIMIT ${limit}
             FOR UPDATE SKIP LOCKED) c
     WHERE m.id = c.id
 RETURNING m.id, m.account_id, m.recipient, m.sender, m.body, m.encoding, m.attempts, m.validity_until),
    ev AS (INSERT INTO message_events (message_id, status, detail)
           SELECT id, 'sending', 'Claimed by ' || ${workerId} || ', attempt ' || attempts FROM claimed)
    SELECT * FROM claimed`.execute(db);
  return res.rows;
}

type Settled = { id: string; account_id: string; campaign_id: string | null; price_minor: number };

/** Moves messages this worker still holds (status sending, our lease) to a new status. */
export async function settle(
  trx: Db,
  workerId: string,
  ids: string[],
  set: { status: string; error?: string | null; connection?: string | null; retryInMs?: number },
): Promise<Settled[]> {
  if (ids.length === 0) return [];
  const final = !['queued', 'sent'].includes(set.status);
  return trx
    .updateTable('messages')
    .set({
      status: set.status,
      lease_until: null,
      leased_by: null,
      ...(set.error !== undefined ? { error: set.error } : {}),
      ...(set.connection ? { connection: set.connection } : {}),
      ...(set.status === 'sent' ? { submitted_at: sql`now()` } : {}),
      ...(set.retryInMs !== undefined
        ? { next_attempt_at: sql`now() + make_interval(secs => ${set.retryInMs / 1000})` }
        : {}),
      ...(final ? { done_at: sql`now()` } : {}),
    })
    .where(sql<boolean>`id = ANY(${ids}::uuid[])`)
    .where('status', '=', 'sending')
    .where('leased_by', '=', workerId)
    .returning(['id', 'account_id', 'campaign_id', 'price_minor'])
    .execute();
}

export async function insertParts(
  trx: Db,
  rows: { connection: string; smsc_key: string; message_id: string; part: number }[],
) {
  if (rows.length === 0) return;
  await sql`${insertUnnest(
    'message_parts',
    { connection: 'text', smsc_key: 'text', message_id: 'uuid', part: 'integer' },
    rows,
  )} ON CONFLICT DO NOTHING`.execute(trx);
}

/** Scheduled messages whose time has come join the queue. */
export async function promoteScheduled(db: Db) {
  return db
    .updateTable('messages')
    .set({ status: 'queued', next_attempt_at: sql`now()` })
    .where('status', '=', 'scheduled')
    .where('scheduled_at', '<=', sql<Date>`now()`)
    .returning(['id', 'account_id', 'campaign_id'])
    .execute();
}

/** Queued messages past their validity never go out: expired (and refunded, never submitted). */
export async function expireQueued(db: Db) {
  return db
    .updateTable('messages')
    .set({
      status: 'expired',
      done_at: sql`now()`,
      error: 'The validity period ended before the message could be sent',
    })
    .where('status', '=', 'queued')
    .where('validity_until', '<', sql<Date>`now()`)
    .returning(['id', 'account_id', 'campaign_id', 'price_minor'])
    .execute();
}

/** Messages held by a worker whose lease ran out (it crashed or hung) go back to the queue. */
export async function reclaimExpiredLeases(db: Db) {
  return db
    .updateTable('messages')
    .set({ status: 'queued', lease_until: null, leased_by: null, next_attempt_at: sql`now()` })
    .where('status', '=', 'sending')
    .where('lease_until', '<', sql<Date>`now()`)
    .returning(['id', 'account_id', 'campaign_id'])
    .execute();
}

/** Sent messages that never got a receipt long after their validity end as expired. */
export async function expireSilentSent(db: Db, graceMinutes: number) {
  return db
    .updateTable('messages')
    .set({
      status: 'expired',
      done_at: sql`now()`,
      error: 'No delivery receipt arrived within the validity period',
    })
    .where('status', '=', 'sent')
    .where(sql<boolean>`validity_until + make_interval(mins => ${graceMinutes}) < now()`)
    .returning(['id', 'account_id', 'campaign_id', 'price_minor'])
    .execute();
}
