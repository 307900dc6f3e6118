import type { MessageStatus } from '@wren/contracts';
import { sql } from 'kysely';
import { jsonParam, type Db } from '../../platform/db';
import { GENERIC_PLAN_OK } from '../../platform/statement-cache';
import { canTransition, fromStatesOf, isFinalStatus, type FromOf } from './message-state';
import type { PartitionDirectory } from './partition-directory';

/** What a transition returns for each message it moved. */
export interface Transitioned {
  id: string;
  account_id: string;
  campaign_id: string | null;
  price_minor: number;
}

/** Per-message values a transition can record (null keeps what is there). */
export interface TransitionRow {
  id: string;
  smscStat?: string | null;
  smscErr?: string | null;
  /** The raw final receipt. */
  receiptRaw?: string | null;
  /** On `sent`: when the SMSC accepted it (default: now; never before the message was accepted). */
  submittedAt?: Date | null;
  /** On `sent`: how long the message waits for its receipt before it ends as `unknown`. */
  receiptTimeoutMinutes?: number | null;
  error?: string | null;
}

export interface Transition<To extends MessageStatus> {
  to: To;
  /** Statuses the messages may be in now; defaults to every status the table allows into `to`. */
  from?: readonly FromOf<To>[];
  rows: readonly (TransitionRow | string)[];
  /** Only messages leased by this worker (the dispatcher settling its own claims). */
  heldBy?: string;
  /** Only messages of this account (user actions). */
  accountId?: string;
  /** The error recorded on every row that names none. */
  error?: string;
  /** The SMPP connection that accepted the messages. */
  connection?: string;
  /**
   * On `sent`: the parts the SMSC accepted, each under its SMSC id, stored in the same statement for
   * the messages that moved (the others' parts are not stored).
   */
  parts?: readonly { connection: string; smsc_key: string; message_id: string; part: number }[];
  /**
   * On `sent`: the routing decision (route_decisions.id, route-decisions.ts) of each message a route
   * chose, by message id, set in the same statement.
   */
  decisions?: ReadonlyMap<string, number>;
  /** Back in the queue: earliest next attempt, from now. */
  retryInMs?: number;
  /** Back in the queue: the claim's attempt is given back (nothing reached the SMSC). */
  giveBackAttempt?: boolean;
  /** The time the scheduled/queued/lease condition refers to has passed (maintenance sweeps). */
  /**
   * A sweep: scheduled time reached, validity over (queued), lease expired (sending), or a sent
   * message past its receipt deadline (`receiptOverdue`: no connection waits less than this).
   */
  due?: 'scheduled' | 'validity' | 'lease' | { receiptOverdue: { shortestTimeoutMinutes: number } };
  /**
   * Where the given messages' monthly partition is looked up: when they all share one, the
   * statement names it instead of `messages` and is planned once per connection (see
   * partition-directory.ts). Not for sweeps.
   */
  partitions?: PartitionDirectory;
}

/**
 * The one writer of `messages.status`: moves the given messages from an allowed status to `to` in
 * one statement, stamping the times that go with it (submitted_at on `sent`, done_at on a final
 * status), and keeps the work queue in step in the same statement: a message back in the queue gets
 * its queue row released (retry, lease reclaim) or made ready (scheduled time reached); a message
 * that leaves the queue (sent, or ended) loses its row. Messages in any other status are left alone
 * and not returned, so callers learn exactly which ones moved.
 */
export async function transition<To extends MessageStatus>(
  trx: Db,
  t: Transition<To>,
): Promise<Transitioned[]> {
  // The table is enforced here too, whatever a caller's types said.
  const from = (t.from ?? fromStatesOf(t.to)).filter((f) => canTransition(f, t.to));
  if ((t.rows.length === 0 && !t.due) || from.length === 0) return [];
  const rows = t.rows.map((r) => (typeof r === 'string' ? { id: r } : r));
  const final = isFinalStatus(t.to);
  // Each row's own values (receipt, submit time, error) by id, in one jsonb parameter that every
  // updated row looks up by its key: no join with the given rows. Joined as a subquery of unnested
  // arrays, the planner (the status statistics say few messages are in `from`) put the messages on
  // the outer side and produced every given row again for each of them, a whole-row copy of each
  // for the recheck included: n² rows for a batch of n (180 × 180 per receipt batch in bench:pipeline).
  const values: Record<string, Record<string, string | number>> = {};
  let shared: string | undefined;
  let allShare = rows.length > 0;
  for (const r of rows) {
    const v: Record<string, string | number> = {};
    if (r.smscStat != null) v.smsc_stat = r.smscStat;
    if (r.smscErr != null) v.smsc_err = r.smscErr;
    if (r.receiptRaw != null) v.receipt_raw = r.receiptRaw;
    if (r.receiptTimeoutMinutes != null) v.receipt_minutes = r.receiptTimeoutMinutes;
    if (r.submittedAt != null) v.submitted_at = r.submittedAt.toISOString();
    if (r.error != null) v.error = r.error;
    const decision = t.to === 'sent' ? t.decisions?.get(r.id) : undefined;
    if (decision !== undefined) v.route_decision = decision;
    // Keyed as PostgreSQL prints the id (lower case): an id may come as a user typed it.
    if (Object.keys(v).length > 0) values[r.id.toLowerCase()] = v;
    if (allShare) {
      const key = JSON.stringify(v);
      if (shared === undefined) shared = key;
      else if (key !== shared) allShare = false;
    }
  }
  // Every row records the same values (a batch of DELIVRD 000 receipts, a retry's error): they go
  // as scalar parameters, and no row looks anything up. The jsonb lookup cost 7-12 µs a row against
  // 5 for the plain assignment (33-row batches, PostgreSQL 15).
  const one =
    allShare && shared !== undefined ? (JSON.parse(shared) as Record<string, string | number>) : null;
  const x = (column: string, type: 'text' | 'int' | 'timestamptz') =>
    one ? sql`${one[column] ?? null}::${sql.raw(type)}` : sql`(${sql.ref(`x.${column}`)})`;
  const targets = [sql`smsc_stat`, sql`smsc_err`, sql`receipt_raw`, sql`receipt_due_at`, sql`error`];
  const assigned = [
    sql`COALESCE(${x('smsc_stat', 'text')}, m.smsc_stat)`,
    sql`COALESCE(${x('smsc_err', 'text')}, m.smsc_err)`,
    sql`COALESCE(${x('receipt_raw', 'text')}, m.receipt_raw)`,
    sql`COALESCE(now() + make_interval(mins => ${x('receipt_minutes', 'int')}), m.receipt_due_at)`,
    sql`COALESCE(${x('error', 'text')}, ${t.error ?? null}::text, m.error)`,
  ];
  if (t.to === 'sent') {
    targets.push(sql`submitted_at`);
    assigned.push(sql`GREATEST(m.created_at, LEAST(${x('submitted_at', 'timestamptz')}, now()))`);
    if (t.decisions?.size) {
      targets.push(sql`route_decision`);
      assigned.push(sql`COALESCE(${x('route_decision', 'int')}, m.route_decision)`);
    }
  }
  const sets = [
    sql`status = ${t.to}`,
    one
      ? sql`(${sql.join(targets)}) = (${sql.join(assigned)})`
      : sql`(${sql.join(targets)}) = (SELECT ${sql.join(assigned)}
          FROM jsonb_to_record(COALESCE(${jsonParam(values)}::jsonb -> m.id::text, '{}'::jsonb))
               AS x(smsc_stat text, smsc_err text, receipt_raw text, receipt_minutes int,
                    submitted_at timestamptz, error text, route_decision int))`,
  ];
  if (final) sets.push(sql`done_at = now()`);
  if (t.giveBackAttempt) sets.push(sql`attempts = greatest(m.attempts - 1, 0)`);
  if (t.connection) sets.push(sql`connection = ${t.connection}`);
  // Literals from the typed table (never user input).
  const inFrom = sql`(${sql.join(from.map((f) => sql.lit(f)))})`;
  const conditions = [sql`m.status IN ${inFrom}`];
  // The lease lives in the work queue only (the message row stays small and its updates HOT).
  // Looked up by the given ids through the queue's key, once (`held`, materialised): as a correlated
  // EXISTS, stale statistics (the queue's size swings) planned a hash join over a scan of the whole
  // queue for each flush; as an IN subquery, the generic plan (estimating one message) put a scan of
  // the queue on the inner side of a nested loop, read again for every message: 74 ms for a flush of
  // 30 in bench:peer (auto_explain), once the queue's pages had filled with dead rows.
  if (t.heldBy !== undefined) conditions.push(sql`m.id IN (SELECT message_id FROM held)`);
  const held =
    t.heldBy !== undefined
      ? sql`held AS MATERIALIZED (SELECT q.message_id FROM send_queue q
                WHERE q.message_id = ANY(${rows.map((r) => r.id)}::uuid[]) AND q.leased_by = ${t.heldBy}),`
      : sql``;
  if (t.accountId !== undefined) conditions.push(sql`m.account_id = ${t.accountId}::uuid`);
  if (typeof t.due === 'object') {
    conditions.push(sql`m.receipt_due_at < now()`);
  }
  // The ids as a plain condition on the partition key (0018): it can be pruned when planned (an
  // array parameter: never a generic plan, see statement-cache.ts), so only the months of these ids
  // are planned and opened. A join with the given rows alone could not: 50 ids on 28 monthly
  // partitions planned in ~1.2 ms and ran as a hash join over every partition (14 ms).
  //
  // A sweep of the queue first reads its ids from the queue's small indexes, and stops there when
  // nothing is due. Joined in one statement, on statistics taken while the queue was empty, the planner read the month's messages whatever the sweep found: the scheduled-time sweep,
  // which runs every second, read 260,000 message rows in three passes with 60,000 messages waiting
  // (maintenance-scale.test.ts), and cost 35 ms a call in bench:pipeline (pg_stat_statements). The
  // UPDATE still joins the sweep's own condition, so a message whose state changed in between
  // (claimed, reclaimed, ended) is not moved on a stale read.
  //
  // The receipt-deadline sweep's candidates (parts still open past the shortest deadline) can be far
  // more than the messages due (connections with longer deadlines): it only asks whether there is
  // any, and keeps the one statement.
  let ids: string[] | null = rows.map((r) => r.id);
  if (typeof t.due === 'object') {
    const open = await sql<{
      found: boolean;
    }>`SELECT EXISTS (SELECT 1 FROM ${sourceOf(t)}) AS found`.execute(trx);
    if (open.rows[0]?.found !== true) return [];
    ids = null;
  } else if (t.due) {
    const due = await sql<{ id: string }>`SELECT v.id FROM ${sourceOf(t)}`.execute(trx);
    if (due.rows.length === 0) return [];
    ids = due.rows.map((r) => r.id);
  }
  if (ids) conditions.push(sql`m.id = ANY(${ids}::uuid[])`);
  // One month's partition by name: nothing to prune, so a generic plan reads the same rows as any
  // custom one (the ids through its primary key).
  const partition = ids && !t.due && t.partitions ? t.partitions.of(ids) : undefined;
  const target = partition ? sql`${sql.raw(GENERIC_PLAN_OK)} ${sql.table(partition)}` : sql`messages`;

  const res = await sql<Transitioned>`
    WITH ${held} moved AS (
      UPDATE ${target} m SET ${sql.join(sets, sql`, `)}
        ${t.due ? sql`FROM ${sourceOf(t)} WHERE m.id = v.id AND` : sql`WHERE`} ${sql.join(conditions, sql` AND `)}
   RETURNING m.id, m.account_id, m.campaign_id, m.price_minor),
    queue AS (${queueEffect(t, from)}),
    parts AS (${partsOf(t)})
    SELECT * FROM moved`.execute(trx);
  return res.rows;
}

/** The messages a sweep looks at (from the queue's or the open parts' indexes), as `v(id)`. */
function sourceOf(t: Transition<MessageStatus>) {
  if (t.due === 'scheduled') {
    return sql`(SELECT message_id AS id FROM send_queue WHERE scheduled AND due_at <= now()) v`;
  }
  if (t.due === 'validity') {
    return sql`(SELECT message_id AS id FROM send_queue
                 WHERE leased_by IS NULL AND NOT scheduled AND validity_until < now()) v`;
  }
  if (t.due === 'lease') {
    return sql`(SELECT message_id AS id FROM send_queue WHERE leased_by IS NOT NULL AND lease_until < now()) v`;
  }
  if (!t.due) throw new Error('sourceOf: a sweep only');
  // Sent parts still without a final receipt, older than the shortest receipt deadline.
  return sql`(SELECT DISTINCT message_id AS id FROM message_parts
               WHERE stat IS NULL
                 AND created_at < now() - make_interval(mins => ${t.due.receiptOverdue.shortestTimeoutMinutes})) v`;
}

/** The parts a `sent` transition stores, for the messages it moved. */
function partsOf(t: Transition<MessageStatus>) {
  const parts = t.to === 'sent' ? (t.parts ?? []) : [];
  if (parts.length === 0) return sql`SELECT 1`;
  return sql`INSERT INTO message_parts (connection, smsc_key, message_id, part)
      SELECT p.connection, p.smsc_key, p.message_id, p.part
        FROM unnest(${parts.map((x) => x.connection)}::text[], ${parts.map((x) => x.smsc_key)}::text[],
                    ${parts.map((x) => x.message_id)}::uuid[], ${parts.map((x) => x.part)}::int[])
             AS p(connection, smsc_key, message_id, part)
       WHERE p.message_id IN (SELECT id FROM moved)
      ON CONFLICT DO NOTHING`;
}

/** The statuses of a message that has a work-queue row. */
const IN_QUEUE: readonly MessageStatus[] = ['scheduled', 'queued', 'sending'];

/** What a transition does to the work queue (and, for a silent expiry, to the open parts). */
function queueEffect(t: Transition<MessageStatus>, from: readonly MessageStatus[]) {
  // Claiming (queued → sending) leases the queue row itself (outcomes.repository).
  if (t.to === 'sending') return sql`SELECT 1`;
  if (t.to === 'queued') {
    // The queue row's count is the one a claim adds to (wren_lease_ready, 0024).
    const attempts = t.giveBackAttempt ? sql`, attempts = greatest(attempts - 1, 0)` : sql``;
    return sql`UPDATE send_queue SET scheduled = false, leased_by = NULL, lease_until = NULL,
                      due_at = now() + make_interval(secs => ${(t.retryInMs ?? 0) / 1000})${attempts}
                WHERE message_id IN (SELECT id FROM moved)`;
  }
  if (typeof t.due === 'object') {
    return sql`UPDATE message_parts SET stat = 'EXPIRED'
                WHERE message_id IN (SELECT id FROM moved) AND stat IS NULL`;
  }
  // A message that leaves the queue loses its row; one that was not in it (a receipt ending a sent
  // message) has none, so there is nothing to look up for each row it moved.
  if (!from.some((f) => IN_QUEUE.includes(f))) return sql`SELECT 1`;
  return sql`DELETE FROM send_queue WHERE message_id IN (SELECT id FROM moved)`;
}

/** Records an error note on messages without moving their status (e.g. "receipt unclear"). */
export async function annotate(trx: Db, rows: readonly { id: string; error: string }[]) {
  if (rows.length === 0) return;
  await sql`
    UPDATE messages m SET error = v.error
      FROM (SELECT unnest(${rows.map((r) => r.id)}::uuid[]) AS id,
                   unnest(${rows.map((r) => r.error)}::text[]) AS error) v
     WHERE m.id = v.id AND m.id = ANY(${rows.map((r) => r.id)}::uuid[])`.execute(trx);
}
