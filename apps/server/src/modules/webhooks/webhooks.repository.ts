import { FINAL_STATUSES } from '@wren/contracts';
import { sql, type Selectable } from 'kysely';
import type { WebhookDeliveriesTable } from '../../db/schema-api';
import type { Db } from '../../platform/db';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

const finals = sql.join(FINAL_STATUSES.map((s) => sql.lit(s)));

export async function findSettings(db: Db, accountId: string) {
  return db.selectFrom('webhook_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function ensureSettings(db: Db, accountId: string, secret: string) {
  await db
    .insertInto('webhook_settings')
    .values({ account_id: accountId, secret, rotated_at: new Date() })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  return (await findSettings(db, accountId))!;
}

/** Gives accounts without webhook settings their first signing secret (events need one to be signed). */
export async function ensureSecrets(db: Db, rows: { accountId: string; secret: string }[]) {
  if (rows.length === 0) return;
  await db
    .insertInto('webhook_settings')
    .values(rows.map((r) => ({ account_id: r.accountId, secret: r.secret, rotated_at: new Date() })))
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
}

/** What a final-status event says of its message (both outboxes read these columns). */
export interface FinishedMessage {
  message_id: string;
  recipient: string;
  sender: string;
  status: string;
  error: string | null;
  segments: number;
  price_minor: number;
  currency: string;
  done_at: Date | null;
}

/**
 * Whether the sweep has anything to claim: API messages waiting to be notified, statuses in the
 * outbox. One statement, where each claim that finds nothing is a transaction of three (issue #17).
 */
export async function sweepPending(db: Db) {
  const res = await sql<{ finished: boolean; outbox: boolean }>`
    SELECT EXISTS (SELECT 1 FROM api_messages WHERE notify_pending) AS finished,
           EXISTS (SELECT 1 FROM webhook_status_outbox) AS outbox`.execute(db);
  return res.rows[0] ?? { finished: true, outbox: true };
}

/** API messages whose final status is known and not yet turned into an event (claimed, locked). */
export async function claimFinished(trx: Db, limit: number) {
  const { rows } = await sql<
    FinishedMessage & {
      account_id: string;
      api_key_id: string;
      client_ref: string | null;
      callback_url: string;
    }
  >`
    WITH due AS (
      SELECT a.message_id FROM api_messages a JOIN messages m ON m.id = a.message_id
       WHERE a.notify_pending AND m.status IN (${finals})
       ORDER BY a.created_at
       LIMIT ${limit}
         FOR UPDATE OF a SKIP LOCKED),
    done AS (
      UPDATE api_messages a SET notify_pending = false FROM due
       WHERE a.message_id = due.message_id
   RETURNING a.message_id, a.account_id, a.api_key_id, a.client_ref, a.callback_url)
    SELECT d.*, m.recipient, m.sender, m.status, m.error, m.segments, m.price_minor, m.currency, m.done_at
      FROM done d JOIN messages m ON m.id = d.message_id`.execute(trx);
  return rows;
}

/** Inbound messages of accounts with a webhook URL, received since their last sweep (with overlap). */
export async function newInbound(db: Db, limit: number) {
  const { rows } = await sql<{
    id: string;
    account_id: string;
    url: string;
    sender: string;
    recipient: string;
    text: string;
    keyword: string | null;
    received_at: Date;
  }>`
    SELECT i.id, i.account_id, s.url, i.sender, i.recipient, i.text, i.keyword, i.received_at
      FROM webhook_settings s
      JOIN inbound_messages i
        ON i.account_id = s.account_id AND i.received_at > s.inbound_seen_at - interval '5 seconds'
     WHERE s.url IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = 'evt_in_' || i.id::text)
     ORDER BY i.received_at
     LIMIT ${limit}`.execute(db);
  return rows;
}

export async function advanceInboundSeen(db: Db, seen: { accountId: string; at: Date }[]) {
  if (seen.length === 0) return;
  await sql`
    UPDATE webhook_settings s SET inbound_seen_at = GREATEST(s.inbound_seen_at, v.at)
      FROM (SELECT * FROM unnest(${seen.map((x) => x.accountId)}::uuid[], ${seen.map((x) => x.at)}::timestamptz[]) AS t(account_id, at)) v
     WHERE s.account_id = v.account_id`.execute(db);
}

export interface NewDelivery {
  id: string;
  account_id: string;
  api_key_id: string | null;
  event_type: string;
  url: string;
  payload: string;
}

export async function insertDeliveries(db: Db, rows: NewDelivery[]) {
  if (rows.length === 0) return;
  await db
    .insertInto('webhook_deliveries')
    .values(
      rows.map((r) => ({
        ...r,
        next_attempt_at: sql<Date>`now()`,
        give_up_at: sql<Date>`now() + interval '24 hours'`,
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Due deliveries, leased for `leaseSeconds` so a node that dies mid-attempt hands them back. */
export async function claimDue(db: Db, limit: number, leaseSeconds: number) {
  const { rows } = await sql<DeliveryRow & { secret: string | null }>`
    WITH due AS (
      SELECT id FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at <= now()
       ORDER BY next_attempt_at
       LIMIT ${limit}
         FOR UPDATE SKIP LOCKED),
    claimed AS (
      UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
        FROM due WHERE d.id = due.id
     RETURNING d.*)
    SELECT c.*, s.secret FROM claimed c LEFT JOIN webhook_settings s ON s.account_id = c.account_id`.execute(
    db,
  );
  return rows;
}

export async function findDelivery(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .leftJoin('webhook_settings as s', 's.account_id', 'd.account_id')
    .selectAll('d')
    .select('s.secret')
    .where('d.account_id', '=', accountId)
    .where('d.id', '=', id)
    .executeTakeFirst();
}

export interface AttemptResult {
  deliveryId: string;
  attempt: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  ok: boolean;
  replay: boolean;
  /** When to try again (null: delivered, or given up). */
  nextAttemptAt: Date | null;
  giveUp: boolean;
}

export async function recordAttempt(db: Db, r: AttemptResult) {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_attempts')
      .values({
        delivery_id: r.deliveryId,
        attempt: r.attempt,
        status_code: r.statusCode,
        latency_ms: r.latencyMs,
        error: r.error,
        replay: r.replay,
      })
      .execute();
    await trx
      .updateTable('webhook_deliveries')
      .set({
        attempts: r.attempt,
        last_status_code: r.statusCode,
        last_error: r.error,
        last_latency_ms: r.latencyMs,
        ...(r.ok
          ? { status: 'delivered', delivered_at: new Date() }
          : r.giveUp
            ? { status: 'failed' }
            : { status: 'pending', next_attempt_at: r.nextAttemptAt ?? new Date() }),
      })
      .where('id', '=', r.deliveryId)
      .execute();
  });
}

export async function listDeliveries(db: Db, accountId: string, keyId: string | null, limit: number) {
  let q = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
  if (keyId) q = q.where('api_key_id', '=', keyId);
  return q.execute();
}

export async function listAttempts(db: Db, deliveryId: string) {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('id')
    .execute();
}

/**
 * Messages queued by the status trigger (0015) for the account webhook URL: claimed (deleted) with
 * their final status and the account's current URL, in one statement. Messages whose account has
 * since removed its URL are dropped.
 */
export async function claimStatusOutbox(trx: Db, limit: number) {
  const { rows } = await sql<
    FinishedMessage & { account_id: string; url: string | null; campaign_id: string | null }
  >`
    WITH due AS (
      SELECT message_id FROM webhook_status_outbox
       ORDER BY queued_at
       LIMIT ${limit}
         FOR UPDATE SKIP LOCKED),
    taken AS (
      DELETE FROM webhook_status_outbox o USING due
       WHERE o.message_id = due.message_id
   RETURNING o.message_id, o.account_id)
    SELECT t.message_id, t.account_id, s.url, m.campaign_id, m.recipient, m.sender, m.status, m.error,
           m.segments, m.price_minor, m.currency, m.done_at
      FROM taken t
      JOIN messages m ON m.id = t.message_id
      LEFT JOIN webhook_settings s ON s.account_id = t.account_id`.execute(trx);
  return rows;
}
