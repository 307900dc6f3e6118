/**
 * OTP benchmark (issue #12), on PostgreSQL with an SMSC simulator in this process:
 *
 *  1. OTP send accepted → submit_sm at the simulator, while a backlog of BENCH_BACKLOG (default
 *     200,000) queued bulk messages drains through the same dispatcher and binds. OTP sends go at
 *     BENCH_OTP_RATE per second (default 20) for BENCH_OTP_SECONDS (default 15).
 *  2. POST /v1/otp/:id/check at BENCH_CHECK_RATE requests per second (default 500, open loop; the bulk
 *     backlog withdrawn first unless BENCH_CHECK_DURING_DRAIN=1) for
 *     BENCH_CHECK_SECONDS (default 10), half right and half wrong codes, on verifications seeded in SQL.
 *
 * Prints p50/p99/max and CPU per request for Wren and PostgreSQL.
 *
 *   npm run bench:otp
 *   BENCH_DATABASE_URL=postgres://user:pass@host:5432/postgres   (default: Wren's embedded PostgreSQL)
 */
import { createHmac, randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import pg from 'pg';
import { sampleSlowStatements } from './lib/pg-stats';
import { startSmsc } from '@wren/smsc-simulator';
import type { ChildProcess } from 'node:child_process';
import {
  cpuSeconds,
  embeddedDatabase,
  freshPostgres,
  percentile,
  signUp,
  startWren,
} from './lib/wren-process';

const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 200_000);
const OTP_RATE = Number(process.env.BENCH_OTP_RATE ?? 20);
const OTP_SECONDS = Number(process.env.BENCH_OTP_SECONDS ?? 15);
const CHECK_RATE = Number(process.env.BENCH_CHECK_RATE ?? 500);
const CHECK_SECONDS = Number(process.env.BENCH_CHECK_SECONDS ?? 10);
const PORT = 4200 + Math.floor(Math.random() * 90) * 3;
const JWT_SECRET = 'bench-secret-0123456789abcdef';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (v: number) => `${v.toFixed(1)} ms`;
const summary = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return `p50 ${ms(percentile(s, 50))}, p99 ${ms(percentile(s, 99))}, max ${ms(s[s.length - 1] ?? 0)} (n=${s.length})`;
};

async function main() {
  console.log(
    `OTP benchmark: ${BACKLOG.toLocaleString('en')} queued bulk messages, OTP sends at ${OTP_RATE}/s for ${OTP_SECONDS} s; ` +
      `checks at ${CHECK_RATE}/s for ${CHECK_SECONDS} s`,
  );
  const db = process.env.BENCH_DATABASE_URL
    ? await freshPostgres(process.env.BENCH_DATABASE_URL, `wren_bench_otp_${process.pid}`)
    : embeddedDatabase();

  // submit_sm arrival times at the SMSC, by destination digits (the simulator asks for a stat per submit).
  const submittedAt = new Map<string, number>();
  const watched = new Set<string>();
  const sim = await startSmsc({
    port: 0,
    receiptDelayMs: 0,
    statByDestination: (dest) => {
      const digits = dest.replace(/\D/g, '');
      if (watched.has(digits) && !submittedAt.has(digits)) submittedAt.set(digits, performance.now());
      return undefined;
    },
  });
  const children: ChildProcess[] = [];
  try {
    children.push(
      await startWren(
        {
          ...db.env,
          JWT_SECRET,
          TRIAL_BALANCE_MINOR: String(10_000_000),
          SMSC_HOST: '127.0.0.1',
          SMSC_PORT: String(sim.port),
        },
        PORT,
      ),
    );
    const wrenPid = children[0]!.pid!;
    const base = `http://127.0.0.1:${PORT}`;
    const session = await signUp(base);
    const http = new Pool(base, { connections: 64, pipelining: 1 });
    const post = async (path: string, body: unknown) => {
      const res = await http.request({
        path,
        method: 'POST',
        headers: session.headers,
        body: JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    };
    const created = await post('/api/otp-services', {
      name: 'Bench',
      template: 'Your {{service}} code is {{code}}',
      sendLimit: 100,
      resendCooldownSeconds: 0,
      velocityMaxSends: 10_000,
    });
    if (created.status !== 201) throw new Error(`create service: ${JSON.stringify(created.body)}`);
    const serviceId = String(created.body.id);

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();

    /** Sends `total` OTPs at OTP_RATE/s to fresh numbers; returns each send's timing. */
    let numberSeq = 0;
    async function sendOtps(total: number) {
      const sends: { digits: string; started: number; accepted: number; status: number }[] = [];
      const pending: Promise<void>[] = [];
      const phaseStart = performance.now();
      for (let i = 0; i < total; i++) {
        const due = phaseStart + (i * 1000) / OTP_RATE;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        const to = `+1646555${String(numberSeq++ % 10_000).padStart(4, '0')}`;
        const digits = to.slice(1);
        watched.add(digits);
        pending.push(
          (async () => {
            const started = performance.now();
            const r = await post(`/v1/otp/${serviceId}/send`, { to });
            sends.push({ digits, started, accepted: performance.now(), status: r.status });
          })(),
        );
      }
      await Promise.all(pending);
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && sends.some((s) => s.status === 201 && !submittedAt.has(s.digits)))
        await sleep(20);
      const ok = sends.filter((s) => s.status === 201 && submittedAt.has(s.digits));
      return {
        sends,
        ok,
        // The dispatcher is woken at commit, so submit_sm can reach the SMSC before the 201 reaches
        // the client: such a send counts 0 ms from accepted.
        fromAccepted: ok.map((s) => Math.max(0, submittedAt.get(s.digits)! - s.accepted)),
        fromRequest: ok.map((s) => submittedAt.get(s.digits)! - s.started),
      };
    }

    // ---- Phase 0: OTP sends alone (no backlog): latency and CPU per send ----
    {
      const n = Math.max(50, Math.round(OTP_RATE * 5));
      const w0 = cpuSeconds({ pid: wrenPid });
      const p0 = db.postgresCpu();
      const r = await sendOtps(n);
      const w = cpuSeconds({ pid: wrenPid }) - w0;
      const p = db.postgresCpu() - p0;
      console.log(`\nPhase 0: OTP send with an empty queue (${n} sends at ${OTP_RATE}/s)`);
      console.log(`  accepted ${r.ok.length} of ${r.sends.length}`);
      console.log(`  send accepted (201) → submit_sm at the SMSC: ${summary(r.fromAccepted)}`);
      console.log(`  send request start → submit_sm at the SMSC: ${summary(r.fromRequest)}`);
      console.log(
        `  CPU per OTP send (HTTP, database, dispatch, submit, receipt): Wren ${((w * 1e6) / n).toFixed(0)} µs, PostgreSQL ${((p * 1e6) / n).toFixed(0)} µs`,
      );
    }

    // ---- Phase 1: OTP send → submit_sm under a bulk backlog ----
    const t0 = performance.now();
    await client.query(
      `WITH m AS (
         INSERT INTO messages (account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                               status, priority, next_attempt_at, validity_until)
         SELECT $1, '+1212' || lpad((5550000 + (i % 10000))::text, 7, '0'), 'Wren', 'Bulk backlog ' || i,
                'GSM-7', 1, 1, 'USD', 'queued', 2, now(), now() + interval '1 day'
           FROM generate_series(1, $2::int) AS i
         RETURNING id, validity_until)
       INSERT INTO send_queue (message_id, priority, due_at, validity_until)
       SELECT id, 2, now(), validity_until FROM m`,
      [session.accountId, BACKLOG],
    );
    console.log(
      `backlog: ${BACKLOG.toLocaleString('en')} bulk messages queued in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const queuedBulk = async () =>
      Number(
        (await client.query<{ n: string }>(`SELECT count(*) AS n FROM send_queue WHERE priority = 2`))
          .rows[0]!.n,
      );
    await sleep(1000); // the dispatcher is draining it now
    const backlogBefore = await queuedBulk();

    const cpuWren0 = cpuSeconds({ pid: wrenPid });
    const cpuPg0 = db.postgresCpu();
    const { sends, ok, fromAccepted, fromRequest } = await sendOtps(OTP_RATE * OTP_SECONDS);
    const cpuWren = cpuSeconds({ pid: wrenPid }) - cpuWren0;
    const cpuPg = db.postgresCpu() - cpuPg0;
    const backlogAfter = await queuedBulk();
    const accepted = sends.filter((s) => s.status === 201).length;
    console.log(`\nPhase 1: OTP send while the bulk backlog drains`);
    console.log(
      `  bulk backlog: ${backlogBefore.toLocaleString('en')} queued at the start, ${backlogAfter.toLocaleString('en')} at the end (still draining: ${backlogAfter > 0})`,
    );
    console.log(
      `  sends: ${accepted} accepted of ${sends.length}, ${accepted - ok.length} never reached the SMSC`,
    );
    console.log(`  send accepted (201) → submit_sm at the SMSC: ${summary(fromAccepted)}`);
    console.log(`  send request start → submit_sm at the SMSC: ${summary(fromRequest)}`);
    console.log(`  HTTP send latency: ${summary(sends.map((s) => s.accepted - s.started))}`);
    console.log(
      `  CPU during the phase (bulk drain included): Wren ${cpuWren.toFixed(1)} s, PostgreSQL ${cpuPg.toFixed(1)} s`,
    );

    // ---- Phase 2: check at CHECK_RATE/s ----
    // The goal is for checks alone: the rest of the bulk backlog is withdrawn first (the way a
    // canceled campaign leaves the queue), unless BENCH_CHECK_DURING_DRAIN=1.
    if (process.env.BENCH_CHECK_DURING_DRAIN !== '1') {
      await client.query(
        `WITH gone AS (DELETE FROM send_queue WHERE priority = 2 AND leased_by IS NULL RETURNING message_id)
         UPDATE messages SET status = 'canceled', done_at = now() WHERE id IN (SELECT message_id FROM gone)`,
      );
      while ((await queuedBulk()) > 0) await sleep(200);
      await sleep(2000); // in-flight submits and their receipts settle
      // The withdrawal rewrote the backlog's rows: vacuum now rather than in the middle of the checks.
      await client.query('VACUUM (ANALYZE) messages, send_queue, message_parts');
    }
    const checks = CHECK_RATE * CHECK_SECONDS;
    const codeKey = createHmac('sha256', JWT_SECRET).update('wren otp code hmac v1').digest();
    const seeded = Array.from({ length: checks }, (_, i) => ({
      id: randomUUID(),
      to: `+1718${String(2_000_000 + i).padStart(7, '0')}`,
      code: String(100_000 + ((i * 7919) % 900_000)),
    }));
    await client.query(
      `INSERT INTO otp_verifications (id, service_id, account_id, recipient, range_prefix, code_hash,
                                      recipient_code_hash, status, max_attempts, created_at, expires_at)
       SELECT id, $1, $2, r, left(r, length(r) - 3), decode(h, 'hex'), decode(rh, 'hex'), 'pending', 5, now(),
              now() + interval '1 hour'
         FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[]) AS t(id, r, h, rh)`,
      [
        serviceId,
        session.accountId,
        seeded.map((s) => s.id),
        seeded.map((s) => s.to),
        seeded.map((s) => createHmac('sha256', codeKey).update(`${s.id}:${s.code}`).digest('hex')),
        // As the server stores them since 0017: bound to the service and number too.
        seeded.map((s) =>
          createHmac('sha256', codeKey).update(`${serviceId}:${s.to}:${s.code}`).digest('hex'),
        ),
      ],
    );
    await client.query('ANALYZE otp_verifications');
    const latencies: number[] = [];
    const statuses = new Map<string, number>();
    const xacts = async () => {
      // Backends report their counts about once a second: wait for them before reading.
      await sleep(1_500);
      const r = await client.query<{ n: string }>(
        'SELECT sum(xact_commit + xact_rollback)::text AS n FROM pg_stat_database',
      );
      return Number(r.rows[0]!.n);
    };
    const x0 = await xacts();
    const cw0 = cpuSeconds({ pid: wrenPid });
    const cp0 = db.postgresCpu();
    const c0 = performance.now();
    const inflight: Promise<void>[] = [];
    // BENCH_PG_SAMPLE: slow statements, autovacuum and checkpoints during the checks (pg-stats.ts),
    // on a connection of its own, and each check over 50 ms with when it was due.
    let checking = true;
    const sampling = process.env.BENCH_PG_SAMPLE
      ? (async () => {
          const sampler = new pg.Client({ connectionString: db.url });
          await sampler.connect();
          await sampleSlowStatements(sampler, c0, () => checking);
          await sampler.end();
        })()
      : Promise.resolve();
    for (let i = 0; i < checks; i++) {
      const due = c0 + (i * 1000) / CHECK_RATE;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const s = seeded[i]!;
      const right = i % 2 === 0;
      inflight.push(
        (async () => {
          // Open loop: latency counts from when the request was due, so a stall is not hidden.
          const r = await post(`/v1/otp/${serviceId}/check`, {
            to: s.to,
            code: right ? s.code : String((Number(s.code) + 1) % 1_000_000).padStart(6, '0'),
          });
          const took = performance.now() - due;
          latencies.push(took);
          if (process.env.BENCH_PG_SAMPLE && took > 50)
            console.log(`  [http +${((due - c0) / 1000).toFixed(2)} s] a check took ${took.toFixed(0)} ms`);
          const key = r.status === 200 ? String(r.body.status) : `HTTP ${r.status}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        })(),
      );
    }
    await Promise.all(inflight);
    const span = (performance.now() - c0) / 1000;
    checking = false;
    await sampling;
    const checkCpuWren = cpuSeconds({ pid: wrenPid }) - cw0;
    const checkCpuPg = db.postgresCpu() - cp0;
    const checkXacts = (await xacts()) - x0;
    const bulkLeft = await queuedBulk();
    console.log(`\nPhase 2: check at ${CHECK_RATE} req/s`);
    console.log(`  ${checks} checks in ${span.toFixed(1)} s = ${(checks / span).toFixed(0)} req/s achieved`);
    console.log(`  results: ${[...statuses].map(([k, n]) => `${k}=${n}`).join(' ')}`);
    console.log(`  check latency (from the scheduled time): ${summary(latencies)}`);
    console.log(
      `  database transactions per check (every backend, the bench's own reads included): ${(checkXacts / checks).toFixed(2)}`,
    );
    console.log(
      `  CPU per check: Wren ${((checkCpuWren * 1e6) / checks).toFixed(0)} µs, PostgreSQL ${((checkCpuPg * 1e6) / checks).toFixed(0)} µs` +
        (bulkLeft > 0
          ? ` (bulk backlog still draining: ${bulkLeft.toLocaleString('en')} left, its CPU included)`
          : ''),
    );
    console.log(
      `  CPU per OTP send in phase 1 (bulk drain included, so an upper bound): Wren ${((cpuWren * 1e6) / Math.max(ok.length, 1)).toFixed(0)} µs, PostgreSQL ${((cpuPg * 1e6) / Math.max(ok.length, 1)).toFixed(0)} µs`,
    );
    await client.end();
    await http.close();
  } finally {
    for (const child of children.reverse()) {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    }
    await sim.close();
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
