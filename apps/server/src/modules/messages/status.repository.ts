import type { MessageStatus } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { canTransition, fromStatesOf, isFinalStatus, type FromOf } from './message-state';

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
  /** Back in the queue: earliest next attempt, from now. */
  retryInMs?: number;
  /** The time the scheduled/queued/lease condition refers to has passed (maintenance sweeps). */
  due?: 'scheduled' | 'validity' | 'lease' | { sentValidityGraceMinutes: number };
}

/**
 * The one writer of `messages.status`: moves the given messages from an allowed status to `to` in
 * one statement, stamping the times that go with it (submitted_at on `sent`, done_at on a final
 * status) and clearing the lease when a worker lets go. Messages in any other status are left
 * alone and not returned, so callers learn exactly which ones moved.
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
  const sets = [
    sql`status = ${t.to}`,
    sql`smsc_stat = COALESCE(v.smsc_stat, m.smsc_stat)`,
    sql`smsc_err = COALESCE(v.smsc_err, m.smsc_err)`,
    sql`receipt_raw = COALESCE(v.receipt_raw, m.receipt_raw)`,
    sql`error = COALESCE(v.error, m.error)`,
  ];
  if (t.to !== 'sending') sets.push(sql`lease_until = NULL, leased_by = NULL`);
  if (t.to === 'sent') sets.push(sql`submitted_at = now()`);
  if (final) sets.push(sql`done_at = now()`);
  if (t.connection) sets.push(sql`connection = ${t.connection}`);
  if (t.to === 'queued') {
    sets.push(sql`next_attempt_at = now() + make_interval(secs => ${(t.retryInMs ?? 0) / 1000})`);
  }
  // Literals from the typed table (never user input), so the planner can use partial indexes.
  const inFrom = sql`(${sql.join(from.map((f) => sql.lit(f)))})`;
  const conditions = [sql`m.status IN ${inFrom}`];
  if (t.heldBy !== undefined) conditions.push(sql`m.leased_by = ${t.heldBy}`);
  if (t.accountId !== undefined) conditions.push(sql`m.account_id = ${t.accountId}::uuid`);
  if (t.due === 'scheduled') conditions.push(sql`m.scheduled_at <= now()`);
  else if (t.due === 'validity') conditions.push(sql`m.validity_until < now()`);
  else if (t.due === 'lease') conditions.push(sql`m.lease_until < now()`);
  else if (t.due) {
    conditions.push(sql`m.validity_until + make_interval(mins => ${t.due.sentValidityGraceMinutes}) < now()`);
  }

  // A sweep selects its messages by condition; otherwise the rows name them.
  const source = t.due
    ? sql`(SELECT m2.id, NULL::text AS smsc_stat, NULL::text AS smsc_err, NULL::text AS receipt_raw,
                  ${t.error ?? null}::text AS error
             FROM messages m2 WHERE m2.status IN ${inFrom}) v`
    : sql`(SELECT unnest(${rows.map((r) => r.id)}::uuid[]) AS id,
                  unnest(${rows.map((r) => r.smscStat ?? null)}::text[]) AS smsc_stat,
                  unnest(${rows.map((r) => r.smscErr ?? null)}::text[]) AS smsc_err,
                  unnest(${rows.map((r) => r.receiptRaw ?? null)}::text[]) AS receipt_raw,
                  unnest(${rows.map((r) => r.error ?? t.error ?? null)}::text[]) AS error) v`;
  const res = await sql<Transitioned>`
    UPDATE messages m SET ${sql.join(sets, sql`, `)}
      FROM ${source}
     WHERE m.id = v.id AND ${sql.join(conditions, sql` AND `)}
 RETURNING m.id, m.account_id, m.campaign_id, m.price_minor`.execute(trx);
  return res.rows;
}
