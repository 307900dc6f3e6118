import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import type { Jobs } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import { lowestMessageIdAt } from '../../shared/message-uuid';

/**
 * Upkeep of the monthly partitions of `messages` (migration 0018: RANGE on the UUIDv7 id).
 * `messages_pYYYYMM` holds the ids [lowest v7 of the month's first instant (UTC), same of the next
 * month); `messages_legacy` (the DEFAULT partition) every other id: the random v4 ids of rows made
 * before 0018, and a v7 id of a month that has no partition yet.
 *
 * - {@link ensurePartitions} creates the current month and the {@link MONTHS_AHEAD} after it, at
 *   worker boot (never fatal) and daily. Rows of such a month already in the legacy partition are
 *   moved into it in the same transaction.
 * - {@link applyRetention} (MESSAGE_RETENTION_MONTHS) drops each month partition wholly before the
 *   cutoff, its dependants deleted first by their indexes; a month that still holds a message that
 *   is not final, or a row created after the cutoff (a v4 id whose value fell in that month's range),
 *   is kept and only its old final rows are deleted. Old final rows of the legacy partition are
 *   deleted in batches (its own created_at index). The ledger is never touched.
 */

export const MONTHS_AHEAD = 3;
/** The daily pass (pg-boss queue): ensure the months ahead, then apply retention. */
export const PARTITIONS_JOB = 'messages.partitions';
/** 03:17 UTC every day. */
export const PARTITIONS_CRON = '17 3 * * *';
export const LEGACY_PARTITION = 'messages_legacy';

const LOCK_ID = 7263018;
const BATCH = 5000;
/**
 * Attaching a month takes a short exclusive lock on the legacy partition, detaching one an exclusive
 * lock on `messages`: a lock not granted this fast (a long reader, an export's cursor) makes the pass
 * retry later rather than hold every other statement queued behind it.
 */
const LOCK_TIMEOUT = '1s';

const FINAL = ['delivered', 'undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown'] as const;
const finalList = sql.join(FINAL.map((s) => sql.lit(s)));

/** First instant (UTC) of the month `offset` months after the month of `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** `messages_p202611` for any instant in November 2026 (UTC). */
export function partitionName(month: Date): string {
  return `messages_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The id range of a month: [from, to) as uuid text. */
export function monthIdRange(month: Date): { from: string; to: string } {
  return { from: lowestMessageIdAt(monthStart(month)), to: lowestMessageIdAt(monthStart(month, 1)) };
}

export interface MonthPartition {
  name: string;
  /** First instant of the month (UTC). */
  from: Date;
  /** First instant of the next month (UTC). */
  to: Date;
}

const monthOfName = (name: string) =>
  new Date(Date.UTC(Number(name.slice(10, 14)), Number(name.slice(14, 16)) - 1, 1));

/** The monthly partitions attached to `messages`, oldest first (the legacy partition excluded). */
export async function listMonthPartitions(db: Db): Promise<MonthPartition[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'messages'::regclass AND c.relname ~ '^messages_p[0-9]{6}$'
     ORDER BY c.relname`.execute(db);
  return rows.map(({ name }) => {
    const from = monthOfName(name);
    return { name, from, to: monthStart(from, 1) };
  });
}

const ident = (name: string) => sql.id(name);

/**
 * Creates the partitions of the month of `now` and the `ahead` months after it that do not exist
 * yet (idempotent; concurrent callers wait for one another). Each month is one transaction: a
 * standalone table receives the month's ids from the legacy partition (by its primary key), the
 * legacy partition gets a CHECK that excludes the month's range (validated without blocking its
 * readers or writers, so that attaching need not scan it under an exclusive lock), then the table
 * is attached (which adds the indexes and row triggers of `messages`). Returns the names created.
 */
export async function ensurePartitions(db: Db, now: Date, ahead = MONTHS_AHEAD): Promise<string[]> {
  const created: string[] = [];
  for (let k = 0; k <= ahead; k++) {
    const month = monthStart(now, k);
    const name = partitionName(month);
    const { from, to } = monthIdRange(month);
    const made = await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
      await sql`SELECT pg_advisory_xact_lock(${LOCK_ID})`.execute(trx);
      const { rows } = await sql<{ exists: boolean }>`
        SELECT to_regclass(${name}) IS NOT NULL AS exists`.execute(trx);
      if (rows[0]?.exists) return false;
      // No row of this month may reach the legacy partition between the move and the attach.
      await sql`LOCK TABLE ${ident(LEGACY_PARTITION)} IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
      await sql`
        CREATE TABLE ${ident(name)} (LIKE messages INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
        WITH (fillfactor = 50)`.execute(trx);
      // Attaching validates the bound by a scan of the new table unless a CHECK proves it.
      const bound = `${name}_bound`;
      await sql`
        ALTER TABLE ${ident(name)} ADD CONSTRAINT ${ident(bound)}
        CHECK (id IS NOT NULL AND id >= ${sql.lit(from)}::uuid AND id < ${sql.lit(to)}::uuid)`.execute(trx);
      await sql`
        WITH moved AS (
          DELETE FROM ${ident(LEGACY_PARTITION)} WHERE id >= ${from}::uuid AND id < ${to}::uuid
          RETURNING *)
        INSERT INTO ${ident(name)} SELECT * FROM moved`.execute(trx);
      const excluded = `${LEGACY_PARTITION}_not_${name.slice('messages_'.length)}`;
      await sql`
        ALTER TABLE ${ident(LEGACY_PARTITION)} ADD CONSTRAINT ${ident(excluded)}
        CHECK (id < ${sql.lit(from)}::uuid OR id >= ${sql.lit(to)}::uuid) NOT VALID`.execute(trx);
      await sql`ALTER TABLE ${ident(LEGACY_PARTITION)} VALIDATE CONSTRAINT ${ident(excluded)}`.execute(trx);
      await sql`
        ALTER TABLE messages ATTACH PARTITION ${ident(name)}
        FOR VALUES FROM (${sql.lit(from)}) TO (${sql.lit(to)})`.execute(trx);
      await sql`ALTER TABLE ${ident(name)} DROP CONSTRAINT ${ident(bound)}`.execute(trx);
      await sql`ALTER TABLE ${ident(LEGACY_PARTITION)} DROP CONSTRAINT ${ident(excluded)}`.execute(trx);
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
      'message partitions not created now (the daily pass retries; rows go to the legacy partition)',
    );
  }
}

export interface RetentionReport {
  /** First instant kept: the first of the month `months` months before the month of `now`. */
  cutoff: Date;
  /** Monthly partitions detached and dropped. */
  dropped: string[];
  /**
   * Months wholly before the cutoff kept because a message in them is not final yet, or was created
   * after the cutoff (a v4 id in that month's range): only their old final rows were deleted.
   */
  kept: string[];
  /** Messages deleted row by row: old final rows of kept months and of the legacy partition. */
  rowsDeleted: number;
}

interface DoomedRow {
  id: string;
  account_id: string;
  status: string;
  created_at: Date;
}

/** Deletes the rows that hang off these messages (no foreign keys since 0018): each by its index. */
async function deleteDependants(trx: Db, rows: DoomedRow[]): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((r) => r.id);
  const idArray = sql`${ids}::uuid[]`;
  await sql`DELETE FROM message_parts WHERE message_id = ANY(${idArray})`.execute(trx);
  await sql`DELETE FROM message_events WHERE message_id = ANY(${idArray})`.execute(trx);
  await sql`DELETE FROM api_messages WHERE message_id = ANY(${idArray})`.execute(trx);
  await sql`DELETE FROM smpp_messages WHERE message_id = ANY(${idArray})`.execute(trx);
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

/** Deletes these messages (from `table`, a partition) and their dependants, in one transaction. */
async function deleteMessages(db: Db, table: string, rows: DoomedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await deleteDependants(trx, rows);
    await sql`DELETE FROM ${ident(table)} WHERE id = ANY(${rows.map((r) => r.id)}::uuid[])`.execute(trx);
  });
}

/**
 * Why a month partition wholly before the cutoff cannot be dropped: it holds a message that is not
 * final (scheduled, queued, sending, sent), or one created at or after the cutoff. One pass over
 * the partition (an old month: the pass stops at the first such row).
 */
async function keepReason(db: Db, table: string, cutoff: Date): Promise<string | null> {
  const { rows } = await sql<{ status: string; created_at: Date }>`
    SELECT status, created_at FROM ${ident(table)}
     WHERE status NOT IN (${finalList}) OR created_at >= ${cutoff.toISOString()}::timestamptz
     LIMIT 1`.execute(db);
  const row = rows[0];
  if (!row) return null;
  return FINAL.includes(row.status as (typeof FINAL)[number])
    ? 'a row created after the cutoff'
    : `a ${row.status} message`;
}

/** Deletes the final rows created before the cutoff from one partition, walking it by id. */
async function deleteOldRows(db: Db, table: string, cutoff: Date): Promise<number> {
  let deleted = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<DoomedRow & { doomed: boolean }>`
      SELECT id, account_id, status, created_at,
             status IN (${finalList}) AND created_at < ${cutoff.toISOString()}::timestamptz AS doomed
        FROM ${ident(table)} WHERE id > ${after}::uuid ORDER BY id LIMIT ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    const doomed = rows.filter((r) => r.doomed);
    await deleteMessages(db, table, doomed);
    deleted += doomed.length;
    after = rows[rows.length - 1].id;
  }
  return deleted;
}

/** Deletes the final rows of the legacy partition created before the cutoff (its created_at index). */
async function deleteOldLegacyRows(db: Db, cutoff: Date): Promise<number> {
  let deleted = 0;
  let after: { created_at: Date; id: string } | null = null;
  for (;;) {
    const from: { created_at: Date; id: string } | null = after;
    const { rows }: { rows: DoomedRow[] } = await sql<DoomedRow>`
      SELECT id, account_id, status, created_at FROM ${ident(LEGACY_PARTITION)}
       WHERE created_at < ${cutoff.toISOString()}::timestamptz
         ${from ? sql`AND (created_at, id) > (${from.created_at.toISOString()}::timestamptz, ${from.id}::uuid)` : sql``}
       ORDER BY created_at, id LIMIT ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    const doomed = rows.filter((r) => FINAL.includes(r.status as (typeof FINAL)[number]));
    await deleteMessages(db, LEGACY_PARTITION, doomed);
    deleted += doomed.length;
    const last: DoomedRow = rows[rows.length - 1];
    after = { created_at: last.created_at, id: last.id };
    if (rows.length < BATCH) break;
  }
  return deleted;
}

/** A month partition detached but not dropped yet (a pass that stopped half-way): finished first. */
async function listDetachedMonths(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c
     WHERE c.relkind = 'r' AND c.relnamespace = 'public'::regnamespace AND c.relname ~ '^messages_p[0-9]{6}$'
       AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)
     ORDER BY 1`.execute(db);
  return rows.map((r) => r.name);
}

/** Deletes the dependants of every message of a detached month, then drops it. */
async function dropDetached(db: Db, table: string): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<DoomedRow>`
      SELECT id, account_id, status, created_at FROM ${ident(table)}
       WHERE id > ${after}::uuid ORDER BY id LIMIT ${BATCH}`.execute(db);
    if (rows.length === 0) break;
    await db.transaction().execute((trx) => deleteDependants(trx, rows));
    after = rows[rows.length - 1].id;
  }
  await sql`DROP TABLE ${ident(table)}`.execute(db);
}

/**
 * MESSAGE_RETENTION_MONTHS: keeps the month of `now` and the `months` months before it. Every month
 * partition wholly before that is detached (a moment's exclusive lock on `messages`), its
 * dependants deleted by index, and dropped, unless it holds a message that is not final or one
 * created after the cutoff: then only its old final rows are deleted (retried at the next pass).
 * Old final rows of the legacy partition are deleted in batches. `months` null: keep everything
 * (no-op). The ledger is never touched.
 */
export async function applyRetention(
  db: Db,
  months: number | null,
  now: Date,
  logger?: Logger,
): Promise<RetentionReport> {
  const cutoff = monthStart(now, -(months ?? 0));
  const report: RetentionReport = { cutoff, dropped: [], kept: [], rowsDeleted: 0 };
  if (months === null) return report;

  for (const name of await listDetachedMonths(db)) {
    if (monthStart(monthOfName(name), 1).getTime() > cutoff.getTime()) continue;
    await dropDetached(db, name);
    report.dropped.push(name);
  }

  for (const p of await listMonthPartitions(db)) {
    if (p.to.getTime() > cutoff.getTime()) continue;
    const reason = await keepReason(db, p.name, cutoff);
    if (reason) {
      logger?.warn({ partition: p.name, reason }, 'message retention: month kept, only its old rows deleted');
      report.rowsDeleted += await deleteOldRows(db, p.name, cutoff);
      report.kept.push(p.name);
      continue;
    }
    const detached = await db
      .transaction()
      .execute(async (trx) => {
        await sql`SET LOCAL lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
        await sql`SELECT pg_advisory_xact_lock(${LOCK_ID})`.execute(trx);
        await sql`ALTER TABLE messages DETACH PARTITION ${ident(p.name)}`.execute(trx);
        // Under the detach's lock: nothing of it waits to be sent (the queue is small, its key indexed).
        const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM send_queue q JOIN ${ident(p.name)} m ON m.id = q.message_id`.execute(
          trx,
        );
        if ((rows[0]?.n ?? 0) > 0) throw new KeepMonth();
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof KeepMonth) return false;
        throw err;
      });
    if (!detached) {
      report.kept.push(p.name);
      continue;
    }
    await dropDetached(db, p.name);
    report.dropped.push(p.name);
  }

  report.rowsDeleted += await deleteOldLegacyRows(db, cutoff);

  if (report.dropped.length > 0 || report.kept.length > 0 || report.rowsDeleted > 0) {
    logger?.info(
      {
        retentionMonths: months,
        cutoff: cutoff.toISOString(),
        dropped: report.dropped,
        kept: report.kept,
        rowsDeleted: report.rowsDeleted,
      },
      'message retention applied',
    );
  }
  return report;
}

class KeepMonth extends Error {}

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
    // A daily job (and one sent at boot, fetched at once by this node): a poll a minute is plenty.
    { policy: 'stately', expireInSeconds: 3600, retryLimit: 2, retryDelaySeconds: 300, pollSeconds: 60 },
  );
  jobs.schedule(PARTITIONS_JOB, PARTITIONS_CRON);
  if (deps.retentionMonths !== null) {
    void jobs
      .send(PARTITIONS_JOB, {})
      .catch((err: unknown) => deps.logger.warn({ err }, 'could not queue the message partition pass'));
  }
  return off;
}
