import type { Insertable, Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { ApiKeysTable } from '../../db/schema-api';
import type { Db } from '../../platform/db';

export type ApiKeyRow = Selectable<ApiKeysTable>;

export async function insertKey(db: Db, row: Insertable<ApiKeysTable>) {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function listKeys(db: Db, accountId: string) {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function findKey(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A key by its prefix, with its account's lock (an operator's lock stops the account's keys). */
export async function findByPrefix(db: Db, prefix: string) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .selectAll('k')
    .select('a.locked_at as account_locked_at')
    .where('k.prefix', '=', prefix)
    .executeTakeFirst();
}

/** A secret retired by a rotation, by its prefix: when it was retired and its hash. */
export async function findRetiredByPrefix(db: Db, prefix: string) {
  return db
    .selectFrom('api_key_retired_secrets')
    .select(['secret_hash', 'retired_at'])
    .where('prefix', '=', prefix)
    .executeTakeFirst();
}

/** A rotation: the key takes a new secret, and the old one is kept (prefix and hash) as retired. */
export async function rotateSecret(
  db: Db,
  accountId: string,
  old: { id: string; prefix: string; secret_hash: Buffer },
  next: { prefix: string; secret_hash: Buffer },
) {
  return db.transaction().execute(async (trx) => {
    const row = await updateKey(trx, accountId, old.id, next);
    if (!row) return undefined;
    await trx
      .insertInto('api_key_retired_secrets')
      .values({ prefix: old.prefix, api_key_id: old.id, secret_hash: old.secret_hash })
      .onConflict((oc) => oc.column('prefix').doNothing())
      .execute();
    return row;
  });
}

export async function updateKey(db: Db, accountId: string, id: string, patch: Updateable<ApiKeysTable>) {
  return db
    .updateTable('api_keys')
    .set({ ...patch, updated_at: new Date() })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Requests per key over the last 24 hours (from the hourly usage rows). */
export async function requestsLastDay(db: Db, keyIds: string[]) {
  if (keyIds.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('api_key_usage')
    .select(['api_key_id', sql<number>`sum(requests)::int`.as('n')])
    .where('api_key_id', 'in', keyIds)
    .where('hour', '>=', sql<Date>`date_trunc('hour', now() - interval '24 hours')`)
    .groupBy('api_key_id')
    .execute();
  return new Map(rows.map((r) => [r.api_key_id, r.n]));
}

export interface UsageDelta {
  keyId: string;
  hour: Date;
  statusClass: number;
  requests: number;
}

export async function addUsage(db: Db, rows: UsageDelta[]) {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO api_key_usage (api_key_id, hour, status_class, requests)
    SELECT * FROM unnest(${rows.map((r) => r.keyId)}::uuid[], ${rows.map((r) => r.hour)}::timestamptz[],
                         ${rows.map((r) => r.statusClass)}::smallint[], ${rows.map((r) => r.requests)}::int[])
    ON CONFLICT (api_key_id, hour, status_class)
    DO UPDATE SET requests = api_key_usage.requests + EXCLUDED.requests`.execute(db);
}

export async function addErrors(
  db: Db,
  rows: { keyId: string; day: string; code: string; requests: number }[],
) {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO api_key_errors (api_key_id, day, code, requests)
    SELECT * FROM unnest(${rows.map((r) => r.keyId)}::uuid[], ${rows.map((r) => r.day)}::date[],
                         ${rows.map((r) => r.code)}::text[], ${rows.map((r) => r.requests)}::int[])
    ON CONFLICT (api_key_id, day, code)
    DO UPDATE SET requests = api_key_errors.requests + EXCLUDED.requests`.execute(db);
}

export async function touchKeys(db: Db, rows: { keyId: string; at: Date; ip: string | null }[]) {
  if (rows.length === 0) return;
  await sql`
    UPDATE api_keys k SET last_used_at = v.at, last_used_ip = v.ip
      FROM (SELECT * FROM unnest(${rows.map((r) => r.keyId)}::uuid[], ${rows.map((r) => r.at)}::timestamptz[],
                                 ${rows.map((r) => r.ip)}::text[]) AS t(id, at, ip)) v
     WHERE k.id = v.id AND (k.last_used_at IS NULL OR k.last_used_at < v.at)`.execute(db);
}

export async function usageByDay(db: Db, keyId: string, days: number) {
  return db
    .selectFrom('api_key_usage')
    .select([
      sql<string>`to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as('day'),
      'status_class',
      sql<number>`sum(requests)::int`.as('n'),
    ])
    .where('api_key_id', '=', keyId)
    .where(
      'hour',
      '>=',
      sql<Date>`date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(days => ${days - 1})`,
    )
    .groupBy(['day', 'status_class'])
    .execute();
}

export async function topErrors(db: Db, keyId: string, days: number) {
  return db
    .selectFrom('api_key_errors')
    .select(['code', sql<number>`sum(requests)::int`.as('count')])
    .where('api_key_id', '=', keyId)
    .where('day', '>=', sql<string>`(now() AT TIME ZONE 'UTC')::date - ${days - 1}::int`)
    .groupBy('code')
    .orderBy('count', 'desc')
    .limit(10)
    .execute();
}

/**
 * The messages a key sent in the report's window (UTC days, today included), their count and cost:
 * its /v1/messages sends (api_messages) and the SMS of the OTP codes it sent (otp_verifications with
 * its id; a refused code has no message). Both sources are scoped to the key and its account.
 */
export async function messageTotals(db: Db, accountId: string, keyId: string, days: number) {
  const since = sql`date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - make_interval(days => ${days - 1})`;
  return sql<{ count: number; cost: number; currency: string | null }>`
    WITH sent AS (
      SELECT a.message_id FROM api_messages a
       WHERE a.api_key_id = ${keyId} AND a.account_id = ${accountId} AND a.created_at >= ${since}
      UNION ALL
      SELECT v.message_id FROM otp_verifications v
       WHERE v.api_key_id = ${keyId} AND v.account_id = ${accountId} AND v.created_at >= ${since}
         AND v.message_id IS NOT NULL
    )
    SELECT count(*)::int AS count, coalesce(sum(m.price_minor), 0)::int AS cost, max(m.currency) AS currency
      FROM sent s JOIN messages m ON m.id = s.message_id AND m.account_id = ${accountId}`
    .execute(db)
    .then((r) => r.rows[0]);
}

/** The account's most recent API call: key prefix, time and caller IP. */
export async function lastCall(db: Db, accountId: string) {
  return db
    .selectFrom('api_keys')
    .select(['prefix', 'last_used_at', 'last_used_ip'])
    .where('account_id', '=', accountId)
    .where('last_used_at', 'is not', null)
    .orderBy('last_used_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The shared per-key rate-limit counter (0015): adds each window's new requests (rows with a delta)
 * and reads the others (delta 0: windows this node serves but had no new request for); returns the
 * cluster totals of all of them.
 */
export async function addRateWindows(db: Db, rows: { keyId: string; start: Date; delta: number }[]) {
  const adds = rows.filter((r) => r.delta > 0);
  const reads = rows.filter((r) => r.delta === 0);
  const out: { api_key_id: string; window_start: Date; requests: number }[] = [];
  if (adds.length) {
    const res = await sql<{ api_key_id: string; window_start: Date; requests: number }>`
      INSERT INTO api_key_rate_windows AS w (api_key_id, window_start, requests)
      SELECT * FROM unnest(${adds.map((r) => r.keyId)}::uuid[], ${adds.map((r) => r.start)}::timestamptz[],
                           ${adds.map((r) => r.delta)}::int[])
      ON CONFLICT (api_key_id, window_start) DO UPDATE SET requests = w.requests + excluded.requests
      RETURNING api_key_id, window_start, requests`.execute(db);
    out.push(...res.rows);
  }
  if (reads.length) {
    const res = await sql<{ api_key_id: string; window_start: Date; requests: number }>`
      SELECT w.api_key_id, w.window_start, w.requests
        FROM unnest(${reads.map((r) => r.keyId)}::uuid[], ${reads.map((r) => r.start)}::timestamptz[]) AS v(k, s)
        JOIN api_key_rate_windows w ON w.api_key_id = v.k AND w.window_start = v.s`.execute(db);
    out.push(...res.rows);
  }
  return out.map((r) => ({ keyId: r.api_key_id, start: r.window_start, total: r.requests }));
}

export async function readRateWindow(db: Db, keyId: string, start: Date) {
  const { rows } = await sql<{ requests: number }>`
    SELECT requests FROM api_key_rate_windows WHERE api_key_id = ${keyId} AND window_start = ${start}`.execute(
    db,
  );
  return rows[0]?.requests ?? 0;
}

export async function purgeRateWindows(db: Db) {
  await sql`DELETE FROM api_key_rate_windows WHERE window_start < now() - interval '5 minutes'`.execute(db);
}
