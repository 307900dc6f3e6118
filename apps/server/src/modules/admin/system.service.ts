import { statfs } from 'node:fs/promises';
import { ErrorCode, type SystemStatus } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { recordAudit } from '../audit/audit.service';
import type { Operator } from './operator';
import { LANES, WORKER_ALIVE_MS as ALIVE_MS, type WorkerReport } from './worker-report';

const FINAL_FAILED = ['undelivered', 'expired', 'rejected', 'failed'];

interface Deps {
  db: Db;
  dataDir: string;
  /** Sockets connected to this node's hub. */
  hubSockets: () => number;
}

/** The operator's live view of the platform: binds, queues, throughput, receipts, workers, storage. */
export function createSystemService(deps: Deps) {
  const { db } = deps;

  async function lanes() {
    const rows = await sql<{ priority: number; depth: number; oldest: Date | null }>`
      SELECT priority, count(*)::int AS depth, min(due_at) AS oldest
        FROM send_queue WHERE NOT scheduled AND leased_by IS NULL GROUP BY priority`.execute(db);
    return [0, 1, 2].map((p) => {
      const r = rows.rows.find((x) => Number(x.priority) === p);
      return {
        lane: LANES[p],
        depth: Number(r?.depth ?? 0),
        oldestAt: r?.oldest ? new Date(r.oldest).toISOString() : null,
      };
    });
  }

  async function throughput(
    counted: Record<'submitted' | 'delivered' | 'failed', Map<string, number>>,
    minutes = 30,
  ) {
    const rows = await sql<{ minute: Date; status: string; n: number }>`
      SELECT date_trunc('minute', created_at) AS minute, status, count(*)::int AS n
        FROM message_events
       WHERE created_at >= date_trunc('minute', now()) - make_interval(mins => ${minutes - 1})
         AND status IN ('sent', 'delivered', 'undelivered', 'expired', 'rejected', 'failed')
       GROUP BY 1, 2`.execute(db);
    const now = new Date();
    now.setUTCSeconds(0, 0);
    const out: SystemStatus['throughput'] = [];
    for (let i = minutes - 1; i >= 0; i--) {
      const minute = new Date(now.getTime() - i * 60_000);
      const at = rows.rows.filter((r) => new Date(r.minute).getTime() === minute.getTime());
      const sum = (statuses: string[]) =>
        at.filter((r) => statuses.includes(r.status)).reduce((a, r) => a + Number(r.n), 0);
      out.push({
        minute: minute.toISOString(),
        // The happy path writes no event on submission or receipt: workers count those.
        submitted: sum(['sent']) + (counted.submitted.get(minute.toISOString()) ?? 0),
        delivered: sum(['delivered']) + (counted.delivered.get(minute.toISOString()) ?? 0),
        failed: sum(FINAL_FAILED) + (counted.failed.get(minute.toISOString()) ?? 0),
      });
    }
    return out;
  }

  async function database() {
    const started = performance.now();
    try {
      const row = await sql<{ size: string; conns: number }>`
        SELECT pg_database_size(current_database())::text AS size,
               (SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database()) AS conns`.execute(
        db,
      );
      return {
        ok: true,
        sizeBytes: Number(row.rows[0]?.size ?? 0),
        connections: Number(row.rows[0]?.conns ?? 0),
        latencyMs: Math.round((performance.now() - started) * 10) / 10,
      };
    } catch {
      return { ok: false, sizeBytes: 0, connections: 0, latencyMs: Math.round(performance.now() - started) };
    }
  }

  async function disk() {
    try {
      const s = await statfs(deps.dataDir);
      return { path: deps.dataDir, totalBytes: s.blocks * s.bsize, freeBytes: s.bavail * s.bsize };
    } catch {
      return null;
    }
  }

  return {
    async status(): Promise<SystemStatus> {
      const heartbeats = await db
        .selectFrom('worker_heartbeats')
        .select(['worker_id', 'role', 'started_at', 'heartbeat_at', 'status'])
        .orderBy('worker_id')
        .execute();
      const counted = {
        submitted: new Map<string, number>(),
        delivered: new Map<string, number>(),
        failed: new Map<string, number>(),
      };
      for (const h of heartbeats) {
        const r = h.status as WorkerReport | null;
        for (const [key, per] of [
          ['submitted', r?.submittedPerMinute],
          ['delivered', r?.deliveredPerMinute],
          ['failed', r?.failedPerMinute],
        ] as const)
          for (const [minute, n] of Object.entries(per ?? {}))
            counted[key].set(minute, (counted[key].get(minute) ?? 0) + n);
      }
      const [laneRows, perMinute, receipts, db_, disk_] = await Promise.all([
        lanes(),
        throughput(counted),
        sql<{ parked: number; matched: number }>`
          SELECT (SELECT count(*)::int FROM parked_receipts WHERE matched_at IS NULL) AS parked,
                 (SELECT count(*)::int FROM parked_receipts WHERE matched_at > now() - interval '1 hour') AS matched`.execute(
          db,
        ),
        database(),
        disk(),
      ]);
      const now = Date.now();
      const workers = heartbeats.map((h) => ({
        id: h.worker_id,
        role: h.role,
        heartbeatAt: h.heartbeat_at.toISOString(),
        startedAt: h.started_at.toISOString(),
        alive: now - h.heartbeat_at.getTime() < ALIVE_MS,
      }));
      const connections = heartbeats
        .filter((h) => now - h.heartbeat_at.getTime() < ALIVE_MS)
        .flatMap((h) =>
          ((h.status as WorkerReport | null)?.connections ?? []).map((c) => ({
            worker: h.worker_id,
            name: c.name,
            bindMode: c.bindMode,
            binds: c.binds,
            bound: c.bound,
            inFlight: c.inFlight,
            window: c.window,
            tps: c.tps,
            paused: c.paused,
            flapping: c.flapping,
            // Reports of workers from before these fields lack them.
            keptBinds: c.keptBinds ?? null,
            bindsNotice: c.bindsNotice ?? null,
            lastError: c.lastError,
            throttled: c.throttled ?? false,
            draining: c.draining ?? false,
            // Reports of workers from before these fields lack them.
            throttlesPerMinute: c.throttlesPerMinute ?? 0,
            submitErrorsPerMinute: c.submitErrorsPerMinute ?? 0,
            deliveredRatio: c.deliveredRatio ?? null,
            finalReceipts: c.finalReceipts ?? 0,
            receiptP50Ms: c.receiptP50Ms ?? null,
            sessions: c.sessions.map((s) => ({
              bind: s.bind,
              role: s.role,
              state: s.state,
              inFlight: s.inFlight,
              lastError: s.lastError,
              lastBoundAt: s.lastBoundAt ? String(s.lastBoundAt) : null,
            })),
          })),
        );
      return {
        at: new Date().toISOString(),
        connections,
        lanes: laneRows,
        throughput: perMinute,
        receipts: {
          parked: Number(receipts.rows[0]?.parked ?? 0),
          matchedLastHour: Number(receipts.rows[0]?.matched ?? 0),
        },
        workers,
        database: db_,
        disk: disk_,
        hubSockets: deps.hubSockets(),
      };
    },

    /** Pauses or resumes a connection on every worker (applied at their next report, within 2 s). */
    async setPaused(input: { op: Operator; name: string; paused: boolean; reason?: string }) {
      const known = await db
        .selectFrom('worker_heartbeats')
        .select('status')
        .execute()
        .then((rows) =>
          rows.some((r) =>
            ((r.status as WorkerReport | null)?.connections ?? []).some((c) => c.name === input.name),
          ),
        );
      const current = await db
        .selectFrom('smsc_connection_controls')
        .select('paused')
        .where('name', '=', input.name)
        .executeTakeFirst();
      if (!known && !current)
        throw new AppError(ErrorCode.NOT_FOUND, `No SMPP connection is named "${input.name}"`);
      if ((current?.paused ?? false) === input.paused) {
        throw new AppError(
          ErrorCode.CONFLICT,
          `${input.name} is already ${input.paused ? 'paused' : 'running'}`,
        );
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('smsc_connection_controls')
          .values({
            name: input.name,
            paused: input.paused,
            reason: input.reason ?? null,
            updated_by: input.op.userId,
          })
          .onConflict((oc) =>
            oc.column('name').doUpdateSet({
              paused: input.paused,
              reason: input.reason ?? null,
              updated_by: input.op.userId,
              updated_at: new Date(),
            }),
          )
          .execute();
        await recordAudit(trx, {
          accountId: null,
          userId: null,
          actorUserId: input.op.userId,
          ip: input.op.ip,
          kind: input.paused ? 'admin.connection_paused' : 'admin.connection_resumed',
          message: `${input.paused ? 'Paused' : 'Resumed'} SMPP connection ${input.name}${input.reason ? `: ${input.reason}` : ''}`,
          resourceType: 'smsc_connection',
          resourceId: input.name,
        });
      });
      return { name: input.name, paused: input.paused };
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
