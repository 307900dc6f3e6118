import { sql, type Insertable, type Selectable } from 'kysely';
import type { OtpTables } from '../../db/schema-otp';
import type { Db } from '../../platform/db';

export type OtpServiceRow = Selectable<OtpTables['otp_services']>;
export type OtpVerificationRow = Selectable<OtpTables['otp_verifications']>;
export type NewOtpService = Omit<Insertable<OtpTables['otp_services']>, 'id' | 'created_at'>;

export async function listServices(db: Db, accountId: string) {
  return db
    .selectFrom('otp_services')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findService(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('otp_services')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertService(db: Db, row: NewOtpService) {
  return db.insertInto('otp_services').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateService(
  db: Db,
  accountId: string,
  id: string,
  patch: Partial<Omit<NewOtpService, 'account_id'>>,
) {
  return db
    .updateTable('otp_services')
    .set({ ...patch, updated_at: new Date() })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteService(db: Db, accountId: string, id: string) {
  const r = await db
    .deleteFrom('otp_services')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Sends, approvals and blocked sends per service since `since`. */
export async function countsSince(db: Db, serviceIds: string[], since: Date) {
  if (serviceIds.length === 0) return [];
  return db
    .selectFrom('otp_verifications')
    .select((eb) => [
      'service_id',
      sql<number>`count(*) FILTER (WHERE status <> 'blocked')::int`.as('sends'),
      sql<number>`count(*) FILTER (WHERE status = 'approved')::int`.as('approved'),
      sql<number>`count(*) FILTER (WHERE status = 'blocked')::int`.as('blocked'),
      eb.fn.countAll<number>().as('all'),
    ])
    .where('service_id', 'in', serviceIds)
    .where('created_at', '>', since)
    .groupBy('service_id')
    .execute();
}

/** Per day in `timezone`, the last `days` days ending today. */
export async function daily(db: Db, serviceId: string, timezone: string, days: number, now: Date) {
  const { rows } = await sql<{ date: string; sends: number; approved: number; blocked: number }>`
    WITH bounds AS (
      SELECT (date_trunc('day', ${now}::timestamptz AT TIME ZONE ${timezone}) - make_interval(days => ${days - 1})) AS first_day
    ), counts AS (
      SELECT date_trunc('day', v.created_at AT TIME ZONE ${timezone}) AS day,
             count(*) FILTER (WHERE v.status <> 'blocked')::int AS sends,
             count(*) FILTER (WHERE v.status = 'approved')::int AS approved,
             count(*) FILTER (WHERE v.status = 'blocked')::int AS blocked
        FROM otp_verifications v, bounds b
       WHERE v.service_id = ${serviceId}
         AND v.created_at >= (b.first_day AT TIME ZONE ${timezone})
       GROUP BY 1
    )
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
           coalesce(c.sends, 0) AS sends, coalesce(c.approved, 0) AS approved, coalesce(c.blocked, 0) AS blocked
      FROM bounds b,
           generate_series(b.first_day, b.first_day + make_interval(days => ${days - 1}), interval '1 day') AS d(day)
      LEFT JOIN counts c ON c.day = d.day
     ORDER BY d.day`.execute(db);
  return rows;
}

/** The service's verifications, newest first, with their SMS status; keyset on (created_at, id). */
export async function listVerifications(
  db: Db,
  serviceId: string,
  after: { createdAt: Date; id: string } | null,
  limit: number,
) {
  let q = db
    .selectFrom('otp_verifications as v')
    .leftJoin('messages as m', 'm.id', 'v.message_id')
    .select([
      'v.id',
      'v.recipient',
      'v.status',
      'v.attempts',
      'v.max_attempts',
      'v.message_id',
      'v.blocked_reason',
      'v.created_at',
      'v.expires_at',
      'v.approved_at',
      'm.status as message_status',
    ])
    .where('v.service_id', '=', serviceId);
  if (after) q = q.where(sql<boolean>`(v.created_at, v.id) < (${after.createdAt}, ${after.id}::uuid)`);
  return q.orderBy('v.created_at', 'desc').orderBy('v.id', 'desc').limit(limit).execute();
}

export async function listBlockedRanges(db: Db, serviceId: string, now: Date) {
  return db
    .selectFrom('otp_blocked_ranges')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('blocked_until', '>', now)
    .orderBy('blocked_at', 'desc')
    .limit(50)
    .execute();
}

// ---- Sending (inside the send transaction, under the range's advisory lock) ----

/** Serialises sends to one number range of one service (the number's own limits are inside it). */
export async function lockRange(trx: Db, serviceId: string, rangePrefix: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`otp|${serviceId}|${rangePrefix}`}, 0))`.execute(
    trx,
  );
}

export async function blockRange(
  trx: Db,
  b: { serviceId: string; rangePrefix: string; reason: string; at: Date; until: Date },
) {
  await trx
    .insertInto('otp_blocked_ranges')
    .values({
      service_id: b.serviceId,
      range_prefix: b.rangePrefix,
      reason: b.reason,
      blocked_at: b.at,
      blocked_until: b.until,
    })
    .onConflict((oc) =>
      oc.columns(['service_id', 'range_prefix']).doUpdateSet({
        reason: b.reason,
        blocked_at: b.at,
        blocked_until: b.until,
      }),
    )
    .execute();
}

/** Times of the codes sent to a number since `since`, newest first (blocked sends excluded). */
/**
 * What the send guards read, in one round trip (after lockRange, so the range's concurrent sends
 * are settled): the range's active block, this number's sends since `sendSince` (newest first),
 * and the range's sends since `rangeSince`. Blocked attempts never count.
 */
export async function sendGuardState(
  trx: Db,
  q: {
    serviceId: string;
    rangePrefix: string;
    recipient: string;
    now: Date;
    sendSince: Date;
    rangeSince: Date;
  },
) {
  const { rows } = await sql<{
    block_reason: string | null;
    blocked_until: Date | null;
    recent: Date[];
    in_range: number;
  }>`
    SELECT b.reason AS block_reason, b.blocked_until,
           ARRAY(SELECT created_at FROM otp_verifications
                  WHERE service_id = ${q.serviceId}::uuid AND recipient = ${q.recipient}
                    AND created_at > ${q.sendSince} AND status <> 'blocked'
                  ORDER BY created_at DESC) AS recent,
           (SELECT count(*)::int FROM otp_verifications
             WHERE service_id = ${q.serviceId}::uuid AND range_prefix = ${q.rangePrefix}
               AND status <> 'blocked' AND created_at > ${q.rangeSince}) AS in_range
      FROM (SELECT 1) one
      LEFT JOIN LATERAL (
        SELECT reason, blocked_until FROM otp_blocked_ranges
         WHERE service_id = ${q.serviceId}::uuid AND range_prefix = ${q.rangePrefix}
           AND blocked_until > ${q.now}
         LIMIT 1) b ON true`.execute(trx);
  const r = rows[0];
  return {
    block:
      r.block_reason !== null && r.blocked_until
        ? { reason: r.block_reason, blocked_until: r.blocked_until }
        : null,
    recent: r.recent.map((d) => new Date(d)),
    inRange: r.in_range,
  };
}

/** A new code replaces the number's pending one. */
export async function cancelPending(trx: Db, serviceId: string, recipient: string) {
  await trx
    .updateTable('otp_verifications')
    .set({ status: 'canceled' })
    .where('service_id', '=', serviceId)
    .where('recipient', '=', recipient)
    .where('status', '=', 'pending')
    .execute();
}

export async function insertVerification(trx: Db, row: Insertable<OtpTables['otp_verifications']>) {
  await trx.insertInto('otp_verifications').values(row).execute();
}

// ---- Checking ----

export async function findVerification(db: Db, serviceId: string, id: string) {
  return db
    .selectFrom('otp_verifications')
    .selectAll()
    .where('service_id', '=', serviceId)
    .where('id', '=', id)
    .where('status', '<>', 'blocked')
    .executeTakeFirst();
}

/**
 * A check's first (and, for a wrong code, only) round trip: the caller's service (its code type), the
 * verification named by id or the number's latest, and, when that one is pending, in time, has
 * attempts left and the code is in the service's format, one attempt taken from it (atomically: the
 * row lock serialises parallel guesses, and a guess past the limit takes nothing). No row: no such
 * service for this account. `taken_*` are null when no attempt was taken; `v_*` are as the statement
 * found them.
 */
export async function takeCheckAttempt(
  db: Db,
  input: {
    accountId: string;
    serviceId: string;
    target: { id: string } | { recipient: string };
    /** Which formats the given code is in. */
    format: { numeric: boolean; alphanumeric: boolean };
    /**
     * The given code's hash for the target's column: `code_hash` (HMAC of `<id>:<code>`) for a check
     * by id, `recipient_code_hash` (HMAC of `<service id>:<E.164>:<code>`) for one by number.
     */
    given: Buffer;
    now: Date;
  },
) {
  const { target, format, given, now } = input;
  const byId = 'id' in target;
  // Whether the row's hash for this target is known (rows sent before 0017 have no recipient hash:
  // those are compared in Wren), and whether the given code is the code.
  const decidable = byId ? sql`o.code_hash IS NOT NULL` : sql`o.recipient_code_hash IS NOT NULL`;
  const match = byId ? sql`o.code_hash = ${given}` : sql`o.recipient_code_hash = ${given}`;
  const { rows } = await sql<{
    code_type: 'numeric' | 'alphanumeric';
    account_id: string;
    v_id: string | null;
    v_status: OtpVerificationRow['status'] | null;
    v_expires_at: Date | null;
    taken_hash: Buffer | null;
    taken_attempts: number | null;
    taken_max_attempts: number | null;
    taken_status: OtpVerificationRow['status'] | null;
    taken_decided: boolean | null;
    taken_matched: boolean | null;
  }>`
    WITH s AS (
      SELECT id, code_type, account_id FROM otp_services
       WHERE id = ${input.serviceId}::uuid AND account_id = ${input.accountId}::uuid),
    v AS (
      SELECT o.id, o.status, o.expires_at FROM s, LATERAL (
        SELECT id, status, expires_at FROM otp_verifications
         WHERE service_id = s.id AND status <> 'blocked'
           AND ${byId ? sql`id = ${target.id}::uuid` : sql`recipient = ${target.recipient}`}
         ORDER BY created_at DESC, (status = 'pending') DESC
         LIMIT 1) o),
    t AS (
      -- One statement takes the attempt and, where the hash decides, settles it: a right code is
      -- approved, the last wrong one ends the verification. (Equality of keyed hashes leaks nothing
      -- an attacker could use: they cannot compute the hashes without the key.)
      UPDATE otp_verifications o SET
             attempts = o.attempts + 1,
             status = CASE WHEN NOT (${decidable}) THEN o.status
                           WHEN ${match} THEN 'approved'
                           WHEN o.attempts + 1 >= o.max_attempts THEN 'max_attempts_reached'
                           ELSE o.status END,
             approved_at = CASE WHEN (${decidable}) AND ${match} THEN ${now} ELSE o.approved_at END
        FROM v, s
       WHERE o.id = v.id AND o.status = 'pending' AND o.attempts < o.max_attempts
         AND o.expires_at > ${now}
         AND CASE s.code_type WHEN 'numeric' THEN ${format.numeric}::boolean
                              ELSE ${format.alphanumeric}::boolean END
   RETURNING o.code_hash, o.attempts, o.max_attempts, o.status,
             (${decidable}) AS decided, coalesce(${match}, false) AS matched)
    SELECT s.code_type, s.account_id, v.id AS v_id, v.status AS v_status, v.expires_at AS v_expires_at,
           t.code_hash AS taken_hash, t.attempts AS taken_attempts, t.max_attempts AS taken_max_attempts,
           t.status AS taken_status, t.decided AS taken_decided, t.matched AS taken_matched
      FROM s LEFT JOIN v ON true LEFT JOIN t ON true`.execute(db);
  return rows[0];
}

/** Moves a pending verification to another status; returns false if it was no longer pending. */
export async function settle(
  db: Db,
  id: string,
  to: 'approved' | 'expired' | 'max_attempts_reached',
  now: Date,
) {
  const r = await db
    .updateTable('otp_verifications')
    .set(to === 'approved' ? { status: to, approved_at: now } : { status: to })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
