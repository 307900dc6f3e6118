import { sql } from 'kysely';
import type { Database } from './db';
import type { Db } from './db-handle';
import { isDatabaseUnavailable } from './http/database-errors';
import type { Logger } from './logger';

/**
 * Reads that tolerate a little lag (the SMS log, its export, reports, dashboards, statements) from a
 * streaming replica (DATABASE_READ_URL; issue 44 item 2). Everything else reads and writes the
 * primary.
 *
 * Freshness is measured, never assumed: every CHECK_MS this node samples the primary's WAL position
 * and the replica's replayed position. The replica serves reads only while it has replayed
 * everything the primary had written `maxLagMs` ago, and the last check succeeded less than
 * `maxLagMs` ago. A replica that lags, is down, or is not a replica at all (a promoted or wrong URL)
 * sends the reads to the primary, and the log says so on each change. A read that fails on the
 * replica's connection runs again on the primary.
 */
export interface ReadRouter {
  /** True when DATABASE_READ_URL is set. */
  readonly configured: boolean;
  /**
   * Runs `read` on the replica when it is fresh and `afterWrite` is false (the caller did not just
   * write: see platform/http/read-after-write.ts), else on the primary.
   */
  read<T>(read: (db: Db) => Promise<T>, opts?: { afterWrite?: boolean }): Promise<T>;
  /** The Db for a read that cannot be run twice (a streamed export): chosen as `read` chooses. */
  pick(opts?: { afterWrite?: boolean }): Db;
  status(): ReplicaStatus;
  close(): Promise<void>;
}

export interface ReplicaStatus {
  configured: boolean;
  /** Reads go to the replica now. */
  serving: boolean;
  /** Why not, when it is configured and does not serve. */
  reason: string | null;
  /** Bytes of WAL the replica had not replayed at the last check. */
  lagBytes: number | null;
  checkedAt: string | null;
}

export const CHECK_MS = 250;

/** The primary only: no replica configured (no checks, no cost). */
export function primaryReads(primary: Database): ReadRouter {
  return {
    configured: false,
    read: (fn) => fn(primary.db),
    pick: () => primary.db,
    status: () => ({ configured: false, serving: false, reason: null, lagBytes: null, checkedAt: null }),
    close: async () => undefined,
  };
}

/** LSN text (`16/B374D848`) as a number of bytes (exact below 2^53: 8 PiB of WAL). */
export const lsnBytes = (lsn: string): number => {
  const [hi, lo] = lsn.split('/');
  return parseInt(hi ?? '0', 16) * 2 ** 32 + parseInt(lo ?? '0', 16);
};

export function createReadRouter(opts: {
  primary: Database;
  /** Opens the replica's pool (at the first check). */
  openReplica: () => Promise<Database>;
  maxLagMs: number;
  logger: Logger;
  now?: () => number;
}): ReadRouter {
  const { primary, logger } = opts;
  let replica: Database | null = null;
  const replicaDb = () => replica!.db;
  const now = opts.now ?? Date.now;
  /** The primary's WAL position, sampled each check (oldest first), kept for maxLagMs and a bit. */
  const samples: { at: number; lsn: number }[] = [];
  let serving = false;
  let reason: string | null = 'not checked yet';
  let lagBytes: number | null = null;
  let checkedAt = 0;
  let closed = false;

  const setServing = (next: boolean, why: string | null) => {
    if (next !== serving) {
      if (next) logger.info('read replica is fresh: lag-tolerant reads go to it');
      else logger.warn({ reason: why }, 'read replica not used: lag-tolerant reads go to the primary');
    }
    serving = next;
    reason = next ? null : why;
  };

  const check = async () => {
    try {
      replica ??= await opts.openReplica();
      const p = await sql<{ lsn: string }>`SELECT pg_current_wal_lsn()::text AS lsn`.execute(primary.db);
      const at = now();
      samples.push({ at, lsn: lsnBytes(p.rows[0].lsn) });
      while (samples.length > 1 && samples[1].at <= at - opts.maxLagMs) samples.shift();
      const r = await sql<{ recovery: boolean; lsn: string | null }>`
        SELECT pg_is_in_recovery() AS recovery, pg_last_wal_replay_lsn()::text AS lsn`.execute(replicaDb());
      const row = r.rows[0];
      if (!row.recovery || !row.lsn) {
        checkedAt = now();
        return setServing(false, 'DATABASE_READ_URL is not a streaming replica (not in recovery)');
      }
      const replayed = lsnBytes(row.lsn);
      lagBytes = Math.max(0, samples[samples.length - 1].lsn - replayed);
      checkedAt = now();
      // Everything the primary had written maxLagMs ago (the newest sample at least that old).
      const due = [...samples].reverse().find((s) => s.at <= at - opts.maxLagMs);
      if (!due) return setServing(serving, reason); // less than maxLagMs of samples: unchanged
      if (replayed >= due.lsn) setServing(true, null);
      else setServing(false, `replica more than ${opts.maxLagMs} ms behind (${lagBytes} bytes of WAL)`);
    } catch (err) {
      setServing(false, `replica check failed: ${(err as Error).message}`);
    }
  };

  let timer: NodeJS.Timeout | null = null;
  const loop = () => {
    if (closed) return;
    void check().finally(() => {
      if (!closed) timer = setTimeout(loop, CHECK_MS).unref();
    });
  };
  loop();

  const fresh = (afterWrite?: boolean) => !afterWrite && serving && now() - checkedAt <= opts.maxLagMs;

  return {
    configured: true,
    pick: (o) => (fresh(o?.afterWrite) ? replicaDb() : primary.db),
    async read(fn, o) {
      if (!fresh(o?.afterWrite)) return fn(primary.db);
      try {
        return await fn(replicaDb());
      } catch (err) {
        if (!isConnectionError(err)) throw err;
        setServing(false, `replica read failed: ${(err as Error).message}`);
        return fn(primary.db);
      }
    },
    status: () => ({
      configured: true,
      serving: fresh(false),
      reason: fresh(false) ? null : (reason ?? 'last check too old'),
      lagBytes,
      checkedAt: checkedAt ? new Date(checkedAt).toISOString() : null,
    }),
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await replica?.close();
    },
  };
}

/** A failure of the connection or the server (not of the query): worth running again on the primary. */
function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  // A standby cancels a query that conflicts with the WAL it replays.
  if (e.code === '40001' && /conflict with recovery/i.test(e.message ?? '')) return true;
  return isDatabaseUnavailable(err);
}
