/**
 * Pipeline benchmark: Wren on PostgreSQL with its built-in SMSC simulator. Sends N messages through the
 * HTTP send API with concurrency, then waits for every delivery receipt. For comparison it measures a
 * bare SMPP client against a simulator on the same machine.
 *
 *   npm run bench:pipeline -- [N] [concurrency] [recipients per request]
 *   BENCH_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres (default: local wren/wren)
 *   BENCH_DB=embedded      Wren's default embedded PostgreSQL instead (BENCH_DATABASE_URL unused)
 *   BENCH_TOPOLOGY=split   API, worker and SMSC simulator as separate processes
 *   BENCH_TOPOLOGY=node    one Wren process (API and worker) and the SMSC simulator as a process of
 *                          its own: Wren's CPU without the built-in simulator's share, as it runs
 *                          against a real SMSC
 *   BENCH_ROLE=api         the HTTP send path alone (no worker)
 *   BENCH_XACT_SAMPLE=1    how long write transactions stay open, by their last statement (pg_stat_activity)
 *   BENCH_RECEIPT_DELAY_MS=2000  receipts that long after each submit (default 0), as a real SMSC
 *                          sends them: a message's status updates are then not all within a few ms
 */
import { Pool } from 'undici';
import smpp from 'smpp';
import { startSmsc } from '@wren/smsc-simulator';
import pg from 'pg';
import type { ChildProcess } from 'node:child_process';
import {
  cpuSeconds,
  embeddedDatabase,
  freshPostgres,
  percentile,
  signUp,
  startSimulator,
  startWren,
} from './lib/wren-process';
import {
  pgStatementsEnabled,
  pgStatementsSettings,
  statementTimes,
  tableWrites,
  transactionAges,
  xactSampleEnabled,
} from './lib/pg-stats';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 100_000);
const CONCURRENCY = Number(process.argv[3] ?? process.env.BENCH_CONCURRENCY ?? 64);
const PER_REQUEST = Number(process.argv[4] ?? process.env.BENCH_PER_REQUEST ?? 1);
/** How long after its submit the simulator sends each delivery receipt. */
const RECEIPT_DELAY_MS = process.env.BENCH_RECEIPT_DELAY_MS ?? '0';
const PORT = 3900 + Math.floor(Math.random() * 90) * 3;
/** BENCH_TOPOLOGY=split runs API, worker and SMSC simulator as three processes. */
const SPLIT = process.env.BENCH_TOPOLOGY === 'split';
/** BENCH_TOPOLOGY=node: one Wren process (API and worker) against the simulator as a process. */
const NODE = process.env.BENCH_TOPOLOGY === 'node';
const baseDb = process.env.BENCH_DATABASE_URL ?? 'postgres://wren:wren@127.0.0.1:5432/postgres';
/** BENCH_DB=embedded: Wren's own embedded PostgreSQL (the `npm start` default) in a fresh DATA_DIR. */
const EMBEDDED = process.env.BENCH_DB === 'embedded';

/** 100,000 distinct valid numbers (ten area codes × 555-0000…9999), so no cache sees a repeat. */
const AREA_CODES = [212, 646, 718, 917, 347, 415, 310, 312, 617, 202];
const recipient = (i: number) =>
  `+1${AREA_CODES[Math.floor(i / 10_000) % AREA_CODES.length]}555${String(i % 10_000).padStart(4, '0')}`;

async function rawSmpp(n: number) {
  const sim = await startSmsc({ port: 0, receiptDelayMs: 0 });
  const session = smpp.connect({ host: '127.0.0.1', port: sim.port });
  session.socket.setNoDelay(true);
  let receipts = 0;
  session.on('deliver_sm', (pdu: smpp.PDU) => {
    receipts += 1;
    session.send(pdu.response());
  });
  await new Promise<void>((resolve, reject) =>
    session.bind_transceiver({ system_id: 'wren', password: 'wrenpass' }, (pdu) =>
      pdu.command_status === 0 ? resolve() : reject(new Error('bind')),
    ),
  );
  const window = 50;
  let sent = 0;
  let acked = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve) => {
    const pump = () => {
      while (sent < n && sent - acked < window) {
        sent += 1;
        session.submit_sm(
          {
            source_addr: 'Wren',
            destination_addr: `1212555${String(sent % 10000).padStart(4, '0')}`,
            short_message: 'bench',
            data_coding: 0,
            registered_delivery: 1,
          },
          () => {
            acked += 1;
            if (acked === n) resolve();
            else pump();
          },
        );
      }
    };
    pump();
  });
  while (receipts < n) await new Promise((r) => setTimeout(r, 5));
  const secs = (performance.now() - t0) / 1000;
  session.close();
  await sim.close();
  return n / secs;
}

/**
 * BENCH_ROUTED=1: one route for every number ('+', priority, 10,000 other routes beside it), so each
 * message is routed (issue 38): its CPU per message against a run without, for the routing cost.
 */
const ROUTED = process.env.BENCH_ROUTED === '1';
/** The routes beside the one that matches (BENCH_ROUTES, default 10,000: the issue's scale). */
const OTHER_ROUTES = Number(process.env.BENCH_ROUTES ?? 10_000);

async function routeEverything(url: string, connection: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `
      WITH r AS (
        INSERT INTO smsc_routes (name, prefix, strategy)
        SELECT 'bench ' || g, '+' || (1000000 + g)::text, 'priority' FROM generate_series(1, $2::int) g
        UNION ALL SELECT 'everything', '+', 'priority'
        RETURNING id)
      INSERT INTO smsc_route_entries (route_id, connection, cost_micros, priority, weight)
      SELECT id, $1, 4200, 1, 1 FROM r`,
      [connection, OTHER_ROUTES],
    );
    await client.query('UPDATE smsc_routes_version SET version = version + 1');
  } finally {
    await client.end();
  }
  // Each node reads the routes' version every 2 s.
  await new Promise((r) => setTimeout(r, 6000));
  console.log(
    `routed: ${OTHER_ROUTES + 1} routes, every message by route "everything" through ${connection}`,
  );
}

async function main() {
  console.log(
    `pipeline benchmark: ${N} messages, ${PER_REQUEST} per request, concurrency ${CONCURRENCY}, ${EMBEDDED ? 'embedded PostgreSQL' : 'PostgreSQL'}, ` +
      (SPLIT
        ? 'API + worker + SMSC simulator processes'
        : NODE
          ? 'one Wren process (API and worker) + SMSC simulator process'
          : 'one Wren process with its simulator'),
  );
  const db = EMBEDDED ? embeddedDatabase() : await freshPostgres(baseDb, `wren_bench_${process.pid}`);
  const common = {
    ...db.env,
    ...(EMBEDDED && pgStatementsEnabled ? pgStatementsSettings : {}),
    TRIAL_BALANCE_MINOR: String(N * 10),
  };
  const children: ChildProcess[] = [];
  let simulatorPid: number | undefined;
  if (SPLIT || NODE) {
    // The production shapes: Wren against an SMSC of its own process, with API and worker as two
    // processes (split) or as one (node).
    const smsc = await startSimulator([
      '--port',
      String(PORT + 1),
      '--delay-ms',
      RECEIPT_DELAY_MS,
      '--mix',
      'DELIVRD=100',
    ]);
    simulatorPid = smsc.pid;
    children.push(smsc);
    const smscEnv = { SMSC_HOST: '127.0.0.1', SMSC_PORT: String(PORT + 1) };
    if (NODE) {
      children.push(await startWren({ ...common, ...smscEnv, ROLE: process.env.BENCH_ROLE ?? 'all' }, PORT));
    } else {
      children.push(await startWren({ ...common, ROLE: 'api' }, PORT));
      if (process.env.BENCH_ROLE !== 'api') {
        children.push(await startWren({ ...common, ...smscEnv, ROLE: 'worker' }, PORT + 2));
      }
    }
  } else {
    // `wren start` as a new user runs it: one process with the built-in simulator.
    children.push(
      await startWren(
        {
          ...common,
          SIMULATOR_DELAY_MS: RECEIPT_DELAY_MS,
          SIMULATOR_MIX: 'DELIVRD=100',
          // BENCH_ROLE=api measures the HTTP send path alone (no worker, nothing is delivered).
          ROLE: process.env.BENCH_ROLE ?? 'all',
        },
        PORT,
      ),
    );
  }
  const wrenPids = children.filter((c) => c.pid !== simulatorPid).map((c) => c.pid!);
  const wrenCpu = () => wrenPids.reduce((sum, pid) => sum + cpuSeconds({ pid }), 0);
  const simulatorCpu = () => (simulatorPid ? cpuSeconds({ pid: simulatorPid }) : 0);
  const base = `http://127.0.0.1:${PORT}`;
  try {
    if (ROUTED) await routeEverything(db.url, SPLIT || NODE ? 'default' : 'simulator');
    const session = await signUp(base);
    const writes = await tableWrites(db.url);
    const statements = EMBEDDED && pgStatementsEnabled ? await statementTimes(db.url) : null;
    const xacts = xactSampleEnabled ? await transactionAges(db.url) : null;
    const pool = new Pool(base, { connections: CONCURRENCY, pipelining: 1 });
    const latencies: number[] = [];
    let next = 0;
    let errors = 0;
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const server0 = wrenCpu();
    const simulator0 = simulatorCpu();
    const postgres0 = db.postgresCpu();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < N) {
          const i = next;
          const count = Math.min(PER_REQUEST, N - i);
          next += count;
          const started = performance.now();
          const res = await pool.request({
            path: '/api/sms/single',
            method: 'POST',
            headers: session.headers,
            body: JSON.stringify({
              recipients: Array.from({ length: count }, (_, k) => recipient(i + k)),
              text: `Bench message ${i}`,
            }),
          });
          await res.body.dump();
          if (res.statusCode !== 202) errors += count;
          latencies.push(performance.now() - started);
        }
      }),
    );
    const apiSecs = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const perMessage = (seconds: number) => `${((seconds * 1e6) / N).toFixed(0)} µs`;
    /** `benchBackends`: this bench's own connections (polling, sampling), whose backends are not Wren's cost. */
    const cpuLine = (label: string, ...benchBackends: number[]) =>
      `CPU per message, ${label}: Wren ${perMessage(wrenCpu() - server0)}, ` +
      (simulatorPid ? `SMSC simulator ${perMessage(simulatorCpu() - simulator0)}, ` : '') +
      `PostgreSQL ${perMessage(db.postgresCpu() - postgres0 - benchBackends.reduce((sum, pid) => sum + cpuSeconds({ pid }), 0))}`;
    console.log(
      `${cpuLine('API phase', ...(xacts ? [xacts.pid] : []))}, load generator ${perMessage((cpu.user + cpu.system) / 1e6)}`,
    );
    await pool.close();
    latencies.sort((a, b) => a - b);
    const latency = `API latency: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`;

    if (process.env.BENCH_ROLE === 'api') {
      console.log(
        `\nAPI only: ${N - errors} accepted in ${apiSecs.toFixed(1)} s = ${((N - errors) / apiSecs).toFixed(0)} accepted/s`,
      );
      console.log(latency);
      console.log(['pg_stat_user_tables for the run:', ...(await writes.report(N - errors))].join('\n'));
      if (statements) console.log((await statements.report(N - errors)).join('\n'));
      if (xacts) console.log((await xacts.report()).join('\n'));
      return;
    }
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const pollPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const final = ['delivered', 'undelivered', 'expired', 'rejected', 'failed', 'canceled'];
    const deadline = Date.now() + 30 * 60_000;
    let done = 0;
    while (Date.now() < deadline) {
      const r = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM messages WHERE status = ANY($1)`,
        [final],
      );
      done = Number(r.rows[0]!.n);
      if (done >= N - errors) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    // Taken while the poll's backend is alive, so its CPU can be left out.
    const acceptToFinalCpu = cpuLine('accept to final', pollPid, ...(xacts ? [xacts.pid] : []));
    const span = await client.query<{ secs: number }>(
      `SELECT extract(epoch FROM max(done_at) - min(created_at))::float AS secs FROM messages`,
    );
    const byStatus = await client.query(
      `SELECT status, count(*)::int AS n FROM messages GROUP BY status ORDER BY status`,
    );
    const ledger = await client.query<{ ok: boolean }>(
      `SELECT a.balance_minor = (SELECT sum(amount_minor) FROM ledger_entries e WHERE e.account_id = a.id) AS ok FROM accounts a`,
    );
    await client.end();
    const e2e = done / span.rows[0]!.secs;

    console.log(
      `\nAPI: ${N - errors} accepted in ${apiSecs.toFixed(1)} s = ${((N - errors) / apiSecs).toFixed(0)} accepted/s (${errors} errors)`,
    );
    console.log(latency);
    console.log(
      `end to end: ${done} final in ${span.rows[0]!.secs.toFixed(1)} s = ${e2e.toFixed(0)} msg/s (first accept → last receipt stored)`,
    );
    console.log(`statuses: ${byStatus.rows.map((r) => `${r.status}=${r.n}`).join(' ')}`);
    console.log(`ledger balanced: ${ledger.rows.every((r) => r.ok)}`);
    console.log(acceptToFinalCpu);
    console.log(['pg_stat_user_tables for the run:', ...(await writes.report(done))].join('\n'));
    if (statements) console.log((await statements.report(done)).join('\n'));
    if (xacts) console.log((await xacts.report()).join('\n'));
    const raw = await rawSmpp(Math.min(N, 50_000));
    console.log(`raw SMPP loopback (bare client, window 50, receipts on): ${raw.toFixed(0)} submit/s`);
    console.log(`ratio end-to-end / raw SMPP: ${(e2e / raw).toFixed(2)}`);
  } finally {
    for (const child of children.reverse()) {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    }
    await db.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
