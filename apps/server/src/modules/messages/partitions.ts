import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import type { Jobs } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';

/**
 * Upkeep of the monthly partitions of `messages` (migration 0016): `messages_pYYYYMM` holds
 * [first of the month 00:00 UTC, first of the next month), `messages_pdefault` whatever has no month.
 *
 * - {@link ensurePartitions} creates the current month and the {@link MONTHS_AHEAD} after it, at
 *   worker boot (before the dispatcher starts) and daily. Rows of such a month already in the
 *   default partition are moved into it in the same transaction.
 * - {@link applyRetention} drops whole months older than MESSAGE_RETENTION_MONTHS (with their parts,
 *   events, API records and outcome rows, by index) and deletes old rows of the default partition.
 *   A month that still holds a message waiting to be sent (scheduled, queued, sending: a send_queue
 *   row) is skipped with a warning. The ledger is never touched.
 */

export const MONTHS_AHEAD = 3;
/** The daily pass (pg-boss queue): ensure the months ahead, then apply retention. */
export const PARTITIONS_JOB = 'messages.partitions';
/** 03:17 UTC every day. */
export const PARTITIONS_CRON = '17 3 * * *';

const LOCK_ID = 7263017;
const BATCH = 5000;

/** First instant (UTC) of the month `offset` months after the month of `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** `messages_p202611` for any instant in November 2026 (UTC). */
export function partitionName(month: Date): string {
  return `messages_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

export interface MonthPartition {
  name: string;
  /** Inclusive lower bound (first of the month, UTC). */
  from: Date;
  /** Exclusive upper bound (first of the next month, UTC). */
  to: Date;
}

/** The monthly partitions attached to `messages`, oldest first (the default partition excluded). */
export async function listMonthPartitions(db: Db): Promise<MonthPartition[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'messages'::regclass AND c.relname ~ '^messages_p[0-9]{6}$'
     ORDER BY c.relname`.execute(db);
  return rows.map(({ name }) => {
    const from = new Date(Date.UTC(Number(name.slice(10, 14)), Number(name.slice(14, 16)) - 1, 1));
    return { name, from, to: monthStart(from, 1) };
  });
}

const ident = (name: string) => sql.id(name);
const lit = (d: Date) => sql.lit(d.toISOString());

/**
 * Creates the partitions of the month of `now` and the {@link MONTHS_AHEAD} months after it that do
 * not exist yet (idempotent; concurrent callers wait for one another). Each month is one transaction:
 * a standalone table receives the month's rows from the default partition (if any), then is attached
 * (attaching adds the indexes, triggers and foreign keys of `messages`). Returns the names created.
 */
export async function ensurePartitions(db: Db, now: Date, ahead = MONTHS_AHEAD): Promise<string[]> {
  const created: string[] = [];
  for (let k = 0; k <= ahead; k++) {
    const from = monthStart(now, k);
    const to = monthStart(now, k + 1);
    const name = partitionName(from);
    const made = await db.transaction().execute(async (trx) => {
      // Attaching takes a short exclusive lock on the default partition: a long reader of `messages`
      // (an export's cursor) makes this month wait for the next pass (rows meanwhile go to the
      // default partition) rather than queue every other statement behind the lock.
      await sql`SET LOCAL lock_timeout = '5s'`.execute(trx);
      await sql`SELECT pg_advisory_xact_lock(${LOCK_ID})`.execute(trx);
      const { rows } = await sql<{ exists: boolean }>`
        SELECT to_regclass(${name}) IS NOT NULL AS exists`.execute(trx);
      if (rows[0]?.exists) return false;
      // No row of this month may reach the default partition between the move and the attach.
      await sql`LOCK TABLE messages_pdefault IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
      await sql`
        CREATE TABLE ${ident(name)} (LIKE messages INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
        WITH (fillfactor = 50)`.execute(trx);
      // Attaching validates the bound by a scan of the new table unless a CHECK proves it.
      await sql`
        ALTER TABLE ${ident(name)} ADD CONSTRAINT ${ident(`${name}_bound`)}
        CHECK (created_at IS NOT NULL AND created_at >= ${lit(from)}::timestamptz
               AND created_at < ${lit(to)}::timestamptz)`.execute(trx);
      await sql`
        WITH moved AS (
          DELETE FROM messages_pdefault
           WHERE created_at >= ${lit(from)}::timestamptz AND created_at < ${lit(to)}::timestamptz
          RETURNING *)
        INSERT INTO ${ident(name)} SELECT * FROM moved`.execute(trx);
      await sql`
        ALTER TABLE messages ATTACH PARTITION ${ident(name)}
        FOR VALUES FROM (${lit(from)}) TO (${lit(to)})`.execute(trx);
      await sql`ALTER TABLE ${ident(name)} DROP CONSTRAINT ${ident(`${name}_bound`)}`.execute(trx);
      return true;
    });
    if (made) created.push(name);
  }
  return created;
}

/** {@link ensurePartitions} at worker boot: a failure (a lock not granted in time) is logged, not fatal. */
export async function ensurePartitionsAtBoot(db: Db, now: Date, logger: Logger): Promise<void> {
  try {
    const created = await ensurePartitions(db, now);
    if (created.length > 0) logger.info({ created }, 'message partitions created');
  } catch (err) {
    logger.warn(
      { err },
      'message partitions not created now (the daily pass retries; rows go to the default partition)',
    );
  }
}

export interface RetentionReport {
  /** First instant kept: the first of the month `months` months before the month of `now`. */
  cutoff: Date;
  /** Monthly partitions detached and dropped. */
  dropped: string[];
  /** Months entirely before the cutoff kept because a message in them still waits to be sent. */
  skipped: string[];
  /** Messages deleted from the default partition (created before the cutoff). */
  defaultRowsDeleted: number;
}

interface DoomedRow {
  id: string;
  account_id: string;
  status: string;
  created_at: Date;
}

/** Deletes the rows that hang off these messages (no foreign keys since 0016): each by its index. */
async function deleteDependants(trx: Db, rows: DoomedRow[]): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  const idArray = sql`${ids}::uuid[]`;
  await sql`DELETE FROM message_parts WHERE message_id = ANY(${idArray})`.execute(trx);
  await sql`DELETE FROM message_events WHERE message_id = ANY(${idArray})`.execute(trx);
  await sql`DELETE FROM api_messages WHERE message_id = ANY(${idArray})`.execute(trx);
  await sql`DELETE FROM webhook_status_outbox WHERE message_id = ANY(${idArray})`.execute(trx);
  await sql`DELETE FROM send_queue WHERE message_id = ANY(${idArray})`.execute(trx);
  await sql`
    DELETE FROM message_outcomes o
     USING unnest(${sql`${rows.map((r) => r.account_id)}::uuid[]`},
                  ${sql`${rows.map((r) => r.status)}::text[]`},
                  ${sql`${rows.map((r) => r.created_at.toISOString())}::timestamptz[]`},
                  ${idArray}) AS d(account_id, status, created_at, id)
     WHERE o.account_id = d.account_id AND o.status = d.status AND o.created_at = d.created_at
       AND o.id = d.id`.execute(trx);
}

/** Whether a message of this partition still waits to be sent (every such message has a send_queue row). */
async function holdsUnsent(db: Db, table: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM (
      SELECT 1 FROM send_queue q JOIN ${ident(table)} m ON m.id = q.message_id
       WHERE m.status IN ('scheduled', 'queued', 'sending') LIMIT 1) x`.execute(db);
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * MESSAGE_RETENTION_MONTHS: keeps the month of `now` and the `months` months before it; every
 * monthly partition wholly before that is detached and dropped (its dependants deleted first, by
 * index, in batches of its own ids), except one holding a message still waiting to be sent (logged,
 * retried at the next pass). Old rows of the default partition are deleted with their dependants.
 * `months` null: keep everything (no-op). The ledger is never touched.
 */
export async function applyRetention(
  db: Db,
  months: number | null,
  now: Date,
  logger?: Logger,
): Promise<RetentionReport> {
  const cutoff = monthStart(now, -(months ?? 0));
  const report: RetentionReport = { cutoff, dropped: [], skipped: [], defaultRowsDeleted: 0 };
  if (months === null) return report;

  for (const p of await listMonthPartitions(db)) {
    if (p.to.getTime() > cutoff.getTime()) continue;
    if (await holdsUnsent(db, p.name)) {
      logger?.warn(
        { partition: p.name },
        'message retention: month kept, it still holds messages waiting to be sent',
      );
      report.skipped.push(p.name);
      continue;
    }
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await sql<DoomedRow>`
        SELECT id, account_id, status, created_at FROM ${ident(p.name)}
         WHERE id > ${after}::uuid ORDER BY id LIMIT ${BATCH}`.execute(db);
      if (rows.length === 0) break;
      await db.transaction().execute((trx) => deleteDependants(trx, rows));
      after = rows[rows.length - 1].id;
    }
    const dropped = await db.transaction().execute(async (trx) => {
      // Short waits only: a long query on `messages` makes this pass retry tomorrow rather than
      // queue every other statement behind the detach's lock.
      await sql`SET LOCAL lock_timeout = '5s'`.execute(trx);
      await sql`SELECT pg_advisory_xact_lock(${LOCK_ID})`.execute(trx);
      if (await holdsUnsent(trx, p.name)) return false;
      await sql`ALTER TABLE messages DETACH PARTITION ${ident(p.name)}`.execute(trx);
      await sql`DROP TABLE ${ident(p.name)}`.execute(trx);
      return true;
    });
    (dropped ? report.dropped : report.skipped).push(p.name);
  }

  for (;;) {
    const deleted = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<DoomedRow>`
        SELECT m.id, m.account_id, m.status, m.created_at FROM messages_pdefault m
         WHERE m.created_at < ${lit(cutoff)}::timestamptz
           AND NOT EXISTS (SELECT 1 FROM send_queue q WHERE q.message_id = m.id)
         LIMIT ${BATCH}
           FOR UPDATE SKIP LOCKED`.execute(trx);
      await deleteDependants(trx, rows);
      if (rows.length > 0) {
        await sql`DELETE FROM messages_pdefault WHERE id = ANY(${rows.map((r) => r.id)}::uuid[])`.execute(
          trx,
        );
      }
      return rows.length;
    });
    report.defaultRowsDeleted += deleted;
    if (deleted < BATCH) break;
  }

  if (report.dropped.length > 0 || report.skipped.length > 0 || report.defaultRowsDeleted > 0) {
    logger?.info(
      {
        retentionMonths: months,
        cutoff: cutoff.toISOString(),
        dropped: report.dropped,
        skipped: report.skipped,
        defaultRowsDeleted: report.defaultRowsDeleted,
      },
      'message retention applied',
    );
  }
  return report;
}

/**
 * The daily partition pass as a pg-boss job (one node at a time), plus, when MESSAGE_RETENTION_MONTHS
 * is set, one run soon after this worker starts (a changed setting applies without waiting for the
 * night; the months ahead are ensured at boot by the worker itself).
 * Returns a function that stops handling it.
 */
export function registerPartitionJobs(
  jobs: Jobs,
  deps: { db: Db; logger: Logger; retentionMonths: number | null; now: () => Date },
): () => void {
  const off = jobs.register(
    PARTITIONS_JOB,
    async () => {
      const created = await ensurePartitions(deps.db, deps.now());
      if (created.length > 0) deps.logger.info({ created }, 'message partitions created');
      await applyRetention(deps.db, deps.retentionMonths, deps.now(), deps.logger);
    },
    { policy: 'stately', expireInSeconds: 3600, retryLimit: 2, retryDelaySeconds: 300 },
  );
  jobs.schedule(PARTITIONS_JOB, PARTITIONS_CRON);
  if (deps.retentionMonths !== null) {
    void jobs
      .send(PARTITIONS_JOB, {})
      .catch((err: unknown) => deps.logger.warn({ err }, 'could not queue the message partition pass'));
  }
  return off;
}
