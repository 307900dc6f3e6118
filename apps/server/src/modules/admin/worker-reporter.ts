import { createRouter } from '../../gateway/smpp-gateway';
import type { RoutedOutcome, SmsGateway } from '../../gateway/sms-gateway';
import type { Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import { countFinal, observeSubmitSeconds, workerTotals } from '../metrics/metrics';
import { REPORT_INTERVAL_MS, type WorkerReport } from './worker-report';

/** Final receipt stats and the message status each ends in. */
const FINAL_STATS: Record<string, string> = {
  DELIVRD: 'delivered',
  UNDELIV: 'undelivered',
  EXPIRED: 'expired',
  REJECTD: 'rejected',
  DELETED: 'undelivered',
  UNKNOWN: 'unknown',
};

/** A per-minute counter over the last 30 minutes (ISO minute → count). */
function minuteCounter() {
  const counts = new Map<string, number>();
  return {
    add() {
      const minute = minuteOf(Date.now());
      counts.set(minute, (counts.get(minute) ?? 0) + 1);
    },
    snapshot() {
      const oldest = minuteOf(Date.now() - 29 * 60_000);
      for (const k of counts.keys()) if (k < oldest) counts.delete(k);
      return Object.fromEntries(counts);
    },
  };
}

const minuteOf = (ms: number) => new Date(Math.floor(ms / 60_000) * 60_000).toISOString();

interface ConnectionInfo {
  name: string;
  prefixes: string[];
  window: number;
  binds: number;
}

/**
 * Wraps the worker's gateway: submits routed to a connection an operator paused answer `retry`
 * (the message stays queued), the paused connection's sessions are unbound once the submits in
 * flight on it are answered and bound again on resume (`sync`; the SMSC holds receipts and MO for
 * a receiver that is not bound, as SMSCs do), and accepted submits are counted per connection for
 * the TPS figure.
 */
export function pausableGateway(inner: SmsGateway, initial: ConnectionInfo[]) {
  let connections = initial;
  let route = createRouter(connections.map((c) => ({ cfg: c })));
  const paused = new Set<string>();
  /** Connections an operator drains: no new submits, binds kept (receipts and MO still arrive). */
  const draining = new Set<string>();
  /** Why a connection takes no new submits now, or null. */
  const heldBack = (name: string) =>
    paused.has(name)
      ? `connection ${name} is paused by an operator`
      : draining.has(name)
        ? `connection ${name} is draining`
        : null;
  /** Connections this wrapper has unbound (pauseConnection done). */
  const unbound = new Set<string>();
  const accepted = new Map<string, number>();
  const submitted = minuteCounter();
  const delivered = minuteCounter();
  const failed = minuteCounter();
  const gateway: SmsGateway = {
    // Connections paused before the start (`paused`, filled by the caller) are never bound.
    start: async () => {
      for (const name of paused) unbound.add(name);
      await inner.start({ paused });
    },
    stop: () => inner.stop(),
    // Counted once stored (the handler resolved): the SMSC's final word on each part.
    onReceipt: (h) =>
      inner.onReceipt(async (r) => {
        await h(r);
        const status = FINAL_STATS[r.stat.toUpperCase()];
        if (!status) return;
        countFinal(status);
        (status === 'delivered' ? delivered : failed).add();
      }),
    onMo: (h) => inner.onMo(h),
    status: () => inner.status(),
    boundOf: (name) => inner.boundOf?.(name) ?? 0,
    throttledOf: (name) => inner.throttledOf?.(name) ?? false,
    async submit(sms): Promise<RoutedOutcome> {
      // A route's candidates (gateway/routing) went by each connection's pause already; one
      // paused since is passed over here, and the message waits when none is left.
      if (sms.via) {
        const via = sms.via.filter((name) => !heldBack(name));
        if (via.length === 0) {
          return {
            kind: 'retry',
            reason: `every connection of the route is paused or draining (${sms.via.join(', ')})`,
            retryAfterMs: 5000,
            waiting: true,
          };
        }
        sms = { ...sms, via };
      }
      const conn = sms.via ? undefined : route(sms.to.trim());
      const held = conn ? heldBack(conn.cfg.name) : null;
      if (held) {
        return {
          kind: 'retry',
          reason: held,
          retryAfterMs: 5000,
          waiting: true,
        };
      }
      const started = performance.now();
      const outcome = await inner.submit(sms);
      if (outcome.kind === 'accepted') {
        observeSubmitSeconds((performance.now() - started) / 1000);
        accepted.set(outcome.connection, (accepted.get(outcome.connection) ?? 0) + 1);
        submitted.add();
      }
      return outcome;
    },
  };
  return {
    gateway,
    paused,
    draining,
    /** The connections now (an operator changed them): pauses and the fallback prefixes follow. */
    setConnections(next: ConnectionInfo[]) {
      route = createRouter(next.map((c) => ({ cfg: c })));
      connections = next;
      for (const name of unbound) if (!next.some((c) => c.name === name)) unbound.delete(name);
    },
    /** Unbinds newly paused connections and binds resumed ones, one at a time. */
    async sync() {
      for (const c of connections) {
        if (paused.has(c.name) && !unbound.has(c.name) && inner.pauseConnection) {
          unbound.add(c.name);
          await inner.pauseConnection(c.name);
        } else if (!paused.has(c.name) && unbound.has(c.name) && inner.resumeConnection) {
          unbound.delete(c.name);
          await inner.resumeConnection(c.name);
        }
      }
    },
    /** Accepted submits per connection since the last call. */
    takeCounts() {
      const out = new Map(accepted);
      accepted.clear();
      return out;
    },
    windowOf: (name: string) => connections.find((c) => c.name === name)?.window ?? 0,
    /** Accepted submits and final receipts per minute over the last 30 minutes. */
    perMinute: () => ({
      submittedPerMinute: submitted.snapshot(),
      deliveredPerMinute: delivered.snapshot(),
      failedPerMinute: failed.snapshot(),
    }),
  };
}

/**
 * Writes this worker's heartbeat and gateway status to `worker_heartbeats` every second and applies
 * the operator pauses in `smsc_connection_controls`. The admin system status reads them, so API
 * nodes show every worker's binds.
 */
/** Reads the operator's pauses into the wrapper (before its gateway starts, and at each report). */
export async function loadPauses(db: Db, pausable: ReturnType<typeof pausableGateway>) {
  const [controls, drains] = await Promise.all([
    db.selectFrom('smsc_connection_controls').select(['name', 'paused']).execute(),
    db.selectFrom('smsc_connections').select('name').where('draining', '=', true).execute(),
  ]);
  pausable.paused.clear();
  for (const c of controls) if (c.paused) pausable.paused.add(c.name);
  pausable.draining.clear();
  for (const c of drains) pausable.draining.add(c.name);
}

type Figures = { deliveredRatio?: number; finalReceipts: number; receiptP50Ms?: number };
const figuresOf = (f: Figures) => ({
  deliveredRatio: f.deliveredRatio ?? null,
  finalReceipts: f.finalReceipts,
  receiptP50Ms: f.receiptP50Ms === undefined ? null : Math.round(f.receiptP50Ms),
});

export function startWorkerReporter(opts: {
  db: Db;
  logger: Logger;
  workerId: string;
  role: string;
  pausable: ReturnType<typeof pausableGateway>;
  /** Routing's figures for a connection (its delivered ratio), for the console. */
  figures?: (connection: string) => Figures;
  /** Applies operators' other changes first (the connections: modules/routing/connection-refresh.ts). */
  controls?: () => Promise<void>;
  intervalMs?: number;
}) {
  const { db, pausable } = opts;
  const interval = opts.intervalMs ?? REPORT_INTERVAL_MS;
  const startedAt = new Date();
  let last = Date.now();
  let stopped = false;
  let running: Promise<void> | null = null;

  async function tick() {
    await opts.controls?.().catch((err: unknown) => opts.logger.warn({ err }, 'SMPP connections not read'));
    await loadPauses(db, pausable);
    await pausable.sync();
    const now = Date.now();
    const seconds = Math.max(0.001, (now - last) / 1000);
    last = now;
    const counts = pausable.takeCounts();
    const report: WorkerReport = {
      connections: pausable.gateway.status().map((c) => ({
        ...c,
        window: pausable.windowOf(c.name) * c.binds,
        tps: Math.round(((counts.get(c.name) ?? 0) / seconds) * 10) / 10,
        paused: pausable.paused.has(c.name),
        draining: pausable.draining.has(c.name),
        throttled: pausable.gateway.throttledOf?.(c.name) ?? false,
        ...(opts.figures ? figuresOf(opts.figures(c.name)) : {}),
      })),
      ...pausable.perMinute(),
      totals: await workerTotals(),
    };
    await db
      .insertInto('worker_heartbeats')
      .values({
        worker_id: opts.workerId,
        role: opts.role,
        started_at: startedAt,
        heartbeat_at: new Date(),
        status: JSON.stringify(report),
      })
      .onConflict((oc) =>
        oc.column('worker_id').doUpdateSet((eb) => ({
          heartbeat_at: eb.ref('excluded.heartbeat_at'),
          status: eb.ref('excluded.status'),
          role: eb.ref('excluded.role'),
        })),
      )
      .execute();
  }

  const run = () => {
    if (stopped || running) return;
    running = tick()
      .catch((err: unknown) => {
        if (!stopped) opts.logger.warn({ err }, 'worker status report failed');
      })
      .finally(() => {
        running = null;
      });
  };
  run();
  const timer = setInterval(run, interval);
  timer.unref();
  return {
    /** Reports now (after a pause or resume). */
    refresh: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await db
        .deleteFrom('worker_heartbeats')
        .where('worker_id', '=', opts.workerId)
        .execute()
        .catch(() => undefined);
    },
  };
}
