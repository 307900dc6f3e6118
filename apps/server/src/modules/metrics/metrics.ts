import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import { PUBLIC } from '../../platform/http/route-auth';
import { LANES, type WorkerReport, type WorkerTotals } from '../admin/worker-report';

export const METRICS_PATH = '/metrics';

/**
 * submit_sm → submit_sm_resp round trip of accepted submits, observed by this process's workers
 * (modules/admin/worker-reporter.ts). Shown by the /metrics of a process that runs a worker
 * (role `all`); a `--role worker` node has no /metrics.
 */
const smppSubmitSeconds = new Histogram({
  name: 'wren_smpp_submit_seconds',
  help: "SMPP submit round trip (submit_sm to submit_sm_resp) of accepted submits by this process's own workers (none on an API-only node: see wren_worker_smpp_submit_seconds)",
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [],
});
export const observeSubmitSeconds = (seconds: number) => smppSubmitSeconds.observe(seconds);

/**
 * Messages (parts, for receipts) that reached a final status: final delivery receipts counted by
 * this process's workers as they are stored, and the statuses written with an event (failed,
 * rejected at submission, expired in the queue, canceled) counted from message_events at scrape.
 */
const messagesFinal = new Counter({
  name: 'wren_messages_final_total',
  help: 'Messages that reached a final status, by status (receipts per part from the workers of this process only, none on an API-only node: see wren_worker_receipts_final_total; other final statuses from their events, on every node)',
  labelNames: ['status'] as const,
  registers: [],
});
export const countFinal = (status: string) => messagesFinal.inc({ status });

/**
 * What this process's workers counted in memory (submit round trips, final receipts), as totals
 * since the process started. Each worker writes them into its heartbeat row (worker_heartbeats), so
 * every node's /metrics shows every live worker's figures as `wren_worker_*`, labelled by worker:
 * an API-only node sees them too.
 */
export async function workerTotals(): Promise<WorkerTotals> {
  const finals = await messagesFinal.get();
  const hist = await smppSubmitSeconds.get();
  const buckets: Record<string, number> = {};
  let sum = 0;
  let count = 0;
  for (const v of hist.values) {
    if (v.metricName?.endsWith('_bucket')) buckets[String(v.labels.le)] = v.value;
    else if (v.metricName?.endsWith('_sum')) sum = v.value;
    else if (v.metricName?.endsWith('_count')) count = v.value;
  }
  return {
    receiptsFinal: Object.fromEntries(finals.values.map((v) => [String(v.labels.status), v.value])),
    submitSeconds: { buckets, sum, count },
  };
}

const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** The `wren_worker_*` families from the live workers' heartbeat rows, in the exposition format. */
export function workerTotalsText(
  rows: { worker: string; role: string; ageSeconds: number; totals?: WorkerTotals }[],
) {
  const out: string[] = [];
  const w = (worker: string) => `worker="${escapeLabel(worker)}"`;
  out.push(
    '# HELP wren_worker_heartbeat_age_seconds Seconds since each live worker last wrote its heartbeat',
  );
  out.push('# TYPE wren_worker_heartbeat_age_seconds gauge');
  for (const r of rows) {
    out.push(
      `wren_worker_heartbeat_age_seconds{${w(r.worker)},role="${escapeLabel(r.role)}"} ${r.ageSeconds}`,
    );
  }
  out.push(
    '# HELP wren_worker_receipts_final_total Final delivery receipts stored by each worker since it started, by status (from its heartbeat)',
  );
  out.push('# TYPE wren_worker_receipts_final_total counter');
  for (const r of rows) {
    for (const [status, n] of Object.entries(r.totals?.receiptsFinal ?? {})) {
      out.push(`wren_worker_receipts_final_total{${w(r.worker)},status="${escapeLabel(status)}"} ${n}`);
    }
  }
  out.push(
    '# HELP wren_worker_smpp_submit_seconds SMPP submit round trip (submit_sm to submit_sm_resp) of accepted submits, by worker (from its heartbeat)',
  );
  out.push('# TYPE wren_worker_smpp_submit_seconds histogram');
  for (const r of rows) {
    const h = r.totals?.submitSeconds;
    if (!h) continue;
    for (const [le, n] of Object.entries(h.buckets)) {
      out.push(`wren_worker_smpp_submit_seconds_bucket{${w(r.worker)},le="${escapeLabel(le)}"} ${n}`);
    }
    out.push(`wren_worker_smpp_submit_seconds_sum{${w(r.worker)}} ${h.sum}`);
    out.push(`wren_worker_smpp_submit_seconds_count{${w(r.worker)}} ${h.count}`);
  }
  return `${out.join('\n')}\n`;
}

/** Final statuses written with an event row (receipts write status 'receipt'; the happy path none). */
const FINAL = ['undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown'];

/**
 * Prometheus metrics (prom-client), one registry per server. Request durations are observed as
 * requests end; everything read from the database (messages, queue, binds, receipts, webhooks) is
 * read when Prometheus scrapes, so an idle node does no extra work. Message counters count events
 * appended since this node's first scrape (a counter may start at any value; rate() is what counts).
 */
export function createMetrics(deps: { db: Db; logger: Logger; hubSockets: () => number }) {
  const { db } = deps;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'wren_' });

  const httpDuration = new Histogram({
    name: 'wren_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  registry.registerMetric(messagesFinal);
  const submitLatency = new Histogram({
    name: 'wren_submit_latency_seconds',
    help: 'Time from a message being accepted by the API to its submission event (submits written with an event)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  registry.registerMetric(smppSubmitSeconds);
  const webhookAttempts = new Counter({
    name: 'wren_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (ok: a 2xx answer)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  // Watermarks: the last event / attempt id already counted (null until the first scrape).
  let eventMark: number | null = null;
  let attemptMark: number | null = null;

  async function countNew() {
    if (eventMark === null) {
      const r = await sql<{ id: string | null }>`SELECT max(id)::text AS id FROM message_events`.execute(db);
      eventMark = Number(r.rows[0]?.id ?? 0);
    } else {
      const rows = await sql<{ status: string; n: number; top: string }>`
        SELECT status, count(*)::int AS n, max(id)::text AS top FROM message_events
         WHERE id > ${eventMark} GROUP BY status`.execute(db);
      let top = eventMark;
      for (const r of rows.rows) {
        if (FINAL.includes(r.status)) messagesFinal.inc({ status: r.status }, Number(r.n));
        top = Math.max(top, Number(r.top));
      }
      const lat = await sql<{ s: number }>`
        SELECT extract(epoch FROM e.created_at - m.created_at)::float8 AS s
          FROM message_events e JOIN messages m ON m.id = e.message_id
         WHERE e.id > ${eventMark} AND e.id <= ${top} AND e.status = 'sent' LIMIT 100000`.execute(db);
      for (const r of lat.rows) submitLatency.observe(Math.max(0, Number(r.s)));
      eventMark = top;
    }
    const hasAttempts = await sql<{
      t: string | null;
    }>`SELECT to_regclass('webhook_attempts')::text AS t`.execute(db);
    if (!hasAttempts.rows[0]?.t) return;
    if (attemptMark === null) {
      const r = await sql<{ id: string | null }>`SELECT max(id)::text AS id FROM webhook_attempts`.execute(
        db,
      );
      attemptMark = Number(r.rows[0]?.id ?? 0);
    } else {
      const rows = await sql<{ ok: boolean; n: number; top: string }>`
        SELECT coalesce(status_code BETWEEN 200 AND 299, false) AS ok, count(*)::int AS n, max(id)::text AS top
          FROM webhook_attempts WHERE id > ${attemptMark} GROUP BY 1`.execute(db);
      for (const r of rows.rows) {
        webhookAttempts.inc({ outcome: r.ok ? 'ok' : 'failed' }, Number(r.n));
        attemptMark = Math.max(attemptMark, Number(r.top));
      }
    }
  }

  new Gauge({
    name: 'wren_queue_depth',
    help: 'Messages waiting in the send queue, by lane',
    labelNames: ['lane'] as const,
    registers: [registry],
    async collect() {
      const rows = await queue();
      for (const l of rows) this.set({ lane: l.lane }, l.depth);
    },
  });
  new Gauge({
    name: 'wren_queue_oldest_age_seconds',
    help: 'Age of the oldest message waiting in each lane (0 when empty)',
    labelNames: ['lane'] as const,
    registers: [registry],
    async collect() {
      const rows = await queue();
      for (const l of rows) this.set({ lane: l.lane }, l.age);
    },
  });
  new Gauge({
    name: 'wren_smpp_binds_up',
    help: 'Bound SMPP sessions that can submit, by worker and connection',
    labelNames: ['worker', 'connection'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const c of await binds()) this.set({ worker: c.worker, connection: c.name }, c.bound);
    },
  });
  new Gauge({
    name: 'wren_smpp_window_in_use',
    help: 'Submits awaiting their response (window in use), by worker and connection',
    labelNames: ['worker', 'connection'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const c of await binds()) this.set({ worker: c.worker, connection: c.name }, c.inFlight);
    },
  });
  new Gauge({
    name: 'wren_receipts_parked',
    help: 'Delivery receipts waiting for their message (parked, not matched yet)',
    registers: [registry],
    async collect() {
      const r = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM parked_receipts WHERE matched_at IS NULL`.execute(db);
      this.set(Number(r.rows[0]?.n ?? 0));
    },
  });
  new Gauge({
    name: 'wren_hub_sockets',
    help: "Sockets connected to this node's real-time hub",
    registers: [registry],
    collect() {
      this.set(deps.hubSockets());
    },
  });

  // One query per scrape for the gauges that share it.
  let queueRead: Promise<{ lane: string; depth: number; age: number }[]> | null = null;
  function queue() {
    queueRead ??= sql<{ priority: number; depth: number; age: number }>`
      SELECT priority, count(*)::int AS depth,
             coalesce(extract(epoch FROM now() - min(due_at)), 0)::float8 AS age
        FROM send_queue WHERE NOT scheduled AND leased_by IS NULL AND due_at <= now() GROUP BY priority`
      .execute(db)
      .then((r) =>
        [0, 1, 2].map((p) => {
          const row = r.rows.find((x) => Number(x.priority) === p);
          return { lane: LANES[p], depth: Number(row?.depth ?? 0), age: Math.max(0, Number(row?.age ?? 0)) };
        }),
      );
    return queueRead;
  }
  /** Every live worker's heartbeat (age and the totals it reported), for the wren_worker_* families. */
  async function workers() {
    const r = await sql<{ worker_id: string; role: string; age: number; status: WorkerReport | null }>`
      SELECT worker_id, role, extract(epoch FROM now() - heartbeat_at)::float8 AS age, status
        FROM worker_heartbeats WHERE heartbeat_at > now() - interval '10 seconds' ORDER BY worker_id`.execute(
      db,
    );
    return r.rows.map((row) => ({
      worker: row.worker_id,
      role: row.role,
      ageSeconds: Math.max(0, Math.round(Number(row.age) * 1000) / 1000),
      totals: row.status?.totals,
    }));
  }

  let bindsRead: Promise<{ worker: string; name: string; bound: number; inFlight: number }[]> | null = null;
  function binds() {
    bindsRead ??= db
      .selectFrom('worker_heartbeats')
      .select(['worker_id', 'status'])
      .where('heartbeat_at', '>', new Date(Date.now() - 10_000))
      .execute()
      .then((rows) =>
        rows.flatMap((r) =>
          ((r.status as WorkerReport | null)?.connections ?? []).map((c) => ({
            worker: r.worker_id,
            name: c.name,
            bound: c.bound,
            inFlight: c.inFlight,
          })),
        ),
      );
    return bindsRead;
  }

  return {
    registry,
    observe(req: FastifyRequest, status: number, seconds: number) {
      const route = req.routeOptions.url ?? (req.is404 ? 'not_found' : 'unknown');
      httpDuration.observe({ method: req.method, route, status: String(status) }, seconds);
    },
    async scrape() {
      queueRead = null;
      bindsRead = null;
      await countNew().catch((err: unknown) =>
        deps.logger.warn({ err }, 'metrics: counting new events failed'),
      );
      const fromWorkers = await workers()
        .then(workerTotalsText)
        .catch((err: unknown) => {
          deps.logger.warn({ err }, 'metrics: reading worker heartbeats failed');
          return '';
        });
      return { contentType: registry.contentType, body: (await registry.metrics()) + fromWorkers };
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const bearer = (req: FastifyRequest) => /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';

function sameToken(given: string, expected: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /metrics` for Prometheus. Off (404) unless METRICS_TOKEN is set; then it needs
 * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise). Request durations of every route are
 * recorded from the start either way.
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | null) {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.observe(req, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  if (!token) return;
  app.get(METRICS_PATH, { config: PUBLIC, schema: { hide: true } }, async (req, reply) => {
    if (!sameToken(bearer(req), token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ code: 'UNAUTHORIZED', message: 'Send the metrics token as a bearer token' });
    }
    const { contentType, body } = await metrics.scrape();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}
