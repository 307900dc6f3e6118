import { sql } from 'kysely';
import { type Db, insertUnnest, jsonParam } from '../../platform/db';
import type { FromOf } from './message-state';

/** The status a claim moves from; the type checks it against the state table. */
const CLAIM_FROM = 'queued' satisfies FromOf<'sending'>;

/**
 * Queue operations of the dispatcher: claiming with a lease (the queued → sending transition, which
 * needs SKIP LOCKED; every other transition goes through status.repository's `transition`), and
 * storing the parts the SMSC accepted.
 */

interface ClaimedMessage {
  id: string;
  account_id: string;
  recipient: string;
  sender: string;
  body: string;
  encoding: 'GSM-7' | 'UCS-2';
  priority: number;
  attempts: number;
  validity_until: Date;
}

/** Claims up to `limit` ready messages, most urgent first; with `maxPriority`, only that urgent or more. */
export async function claimBatch(
  db: Db,
  workerId: string,
  limit: number,
  leaseSeconds: number,
  maxPriority?: number,
) {
  // Two statements in one transaction (0018): the queue rows are leased first, then their messages
  // are moved by id. A single UPDATE … FROM the leased rows cannot be pruned when it is planned, so
  // it planned every monthly partition of `messages` (~1 ms more per claim with 28 months); by ids
  // (an array parameter: never a generic plan) only the months of the claimed ids are planned.
  return db.transaction().execute(async (trx) => {
    // The rows to lease are chosen once, in a MATERIALIZED CTE. As a subquery in FROM, a plan with
    // it on the inner side of a nested loop (statistics taken while the queue was empty) rescanned it
    // for every outer row, and each rescan's SKIP LOCKED locked the next rows: a claim of 400 leased
    // 5,000 (claim-limit.test.ts). `wren_lease_ready` (0024) holds that statement with the plan fixed
    // to an ordered index scan that stops at the limit and a key lookup per row: planned here, stale
    // statistics sorted the whole backlog for every claim.
    const leased = await sql<{ message_id: string; attempts: number }>`
      SELECT message_id, attempts
        FROM wren_lease_ready(${limit}::int, ${maxPriority ?? null}::smallint, ${workerId}::text, ${leaseSeconds}::int)`.execute(
      trx,
    );
    if (leased.rows.length === 0) return [];
    const ids = leased.rows.map((r) => r.message_id);
    // Each message's attempt count by its id, in one jsonb parameter (no join with the leased rows:
    // see status.repository.ts transition).
    const attempts = Object.fromEntries(leased.rows.map((r) => [r.message_id.toLowerCase(), r.attempts]));
    const res = await sql<ClaimedMessage>`
      UPDATE messages m
         SET status = 'sending', attempts = (${jsonParam(attempts)}::jsonb ->> m.id::text)::int
       WHERE m.id = ANY(${ids}::uuid[]) AND m.status = ${sql.lit(CLAIM_FROM)}
   RETURNING m.id, m.account_id, m.recipient, m.sender, m.body, m.encoding, m.priority, m.attempts, m.validity_until`.execute(
      trx,
    );
    return res.rows;
  });
}

/**
 * Whether any message waits to be claimed: one statement, where a claim that finds nothing is a
 * transaction of three. An idle dispatcher's looks use it (issue #17: idle statements).
 */
export async function anyDue(db: Db) {
  const res = await sql<{ due: boolean }>`
    SELECT EXISTS (SELECT 1 FROM send_queue WHERE leased_by IS NULL AND NOT scheduled AND due_at <= now()) AS due`.execute(
    db,
  );
  return res.rows[0]?.due === true;
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
