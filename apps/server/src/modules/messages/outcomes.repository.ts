import { sql } from 'kysely';
import { type Db, insertUnnest } from '../../platform/db';
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
  // One statement, run on its own (0025): the claim's transaction ends with it, where a transaction
  // of BEGIN, lease, update and COMMIT stayed open across three turns of the worker's event loop and
  // held back the pruning that keeps status updates HOT. `wren_claim` leases through
  // `wren_lease_ready` (0024: the ready rows read in claim order, whatever the statistics say), then
  // moves those messages by id with their months pruned at planning (0018).
  const res = await sql<ClaimedMessage>`
    SELECT id, account_id, recipient, sender, body, encoding, priority, attempts, validity_until
      FROM wren_claim(${limit}::int, ${maxPriority ?? null}::smallint, ${workerId}::text, ${leaseSeconds}::int,
                      ${CLAIM_FROM}::text)`.execute(db);
  return res.rows;
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

/** Of these accounts, the ones an operator has locked (their messages are not sent again). */
export async function lockedAccounts(db: Db, accountIds: readonly string[]): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set();
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM accounts WHERE id = ANY(${[...new Set(accountIds)]}::uuid[]) AND locked_at IS NOT NULL`.execute(
    db,
  );
  return new Set(rows.map((r) => r.id));
}
