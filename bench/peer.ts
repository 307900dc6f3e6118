/**
 * Peer benchmark: Kannel (bearerbox + smsbox) and Wren, one after the other, against the same SMPP
 * simulator process (sequential decimal message ids), with the same load generator (one message per
 * HTTP request), the same window and one bind. Prints submitted/s, the time until every message is
 * final, CPU per message of each product's processes, and the ratios Wren/Kannel.
 *
 *   npm run bench:peer -- [N] [concurrency]          (defaults 20,000 and 50)
 *   BENCH_DATABASE_URL=postgres://…/postgres          Wren's PostgreSQL (default: local wren_ci)
 *   BENCH_PEER_ONLY=kannel|wren|floor                 run one part only (floor: the Node.js floor below)
 *   BENCH_FINAL_TIMEOUT_S=120                         wait for final states this long after the last submit
 *   BENCH_WARMUP=10000                                messages sent first and left out of every figure, by
 *                                                     each product and the floor alike (0: none). A server
 *                                                     runs for days: its steady state is what a message costs,
 *                                                     not the JIT compiling Node.js does in its first seconds
 *   BENCH_KANNEL_STORE=file                           Kannel keeps its message store on disk
 *   BENCH_DB=embedded                                 Wren on its embedded PostgreSQL (default: fresh database on the above)
 *   BENCH_PG_STATEMENTS=1                             (with BENCH_DB=embedded) Wren's top statements per message
 *   BENCH_WREN_ID_NOTATION=dec                        SMSC_ID_NOTATION for Wren (default: Wren's default)
 *
 * Then the Node.js floor, in the same harness: the CPU per message of the least a Node.js gateway
 * does with Wren's libraries (lib/node-floor-child.ts): a Fastify route that answers the same
 * requests, and the `smpp` library submitting as many messages to the same simulator and answering
 * their receipts. With bench:pg-floor (PostgreSQL's least work for Wren's log at the same batch
 * size) it bounds what any design on this stack can reach against Kannel.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { ensureKannel, KANNEL_USER, startKannel } from './lib/kannel';
import type { Dispatcher } from 'undici';
import { freePorts, recipient, runLoad, startDlrReceiver, type LoadResult } from './lib/load';
import { pgStatementsEnabled, pgStatementsSettings, statementTimes, tableWrites } from './lib/pg-stats';
import { backendsOf, postgresAuxiliaries, procStat, SampledCpu, treeCpuSeconds } from './lib/proc-cpu';
import {
  cpuSeconds,
  embeddedDatabase,
  freshPostgres,
  percentile,
  repoRoot,
  signUp,
  startSimulator,
  startWren,
} from './lib/wren-process';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 20_000);
const CONCURRENCY = Number(process.argv[3] ?? process.env.BENCH_CONCURRENCY ?? 50);
const WINDOW = 100;
const FINAL_TIMEOUT_MS = Number(process.env.BENCH_FINAL_TIMEOUT_S ?? 120) * 1000;
const ONLY = process.env.BENCH_PEER_ONLY;
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10_000);
/** BENCH_DB=embedded: Wren on its embedded PostgreSQL instead of a fresh database on BENCH_DATABASE_URL. */
const EMBEDDED = process.env.BENCH_DB === 'embedded';
const BASE_DB = process.env.BENCH_DATABASE_URL ?? 'postgres://wren_ci:wren_ci@127.0.0.1:5432/postgres';

/** Everything started here, killed on any way out (the normal path stops each one cleanly first). */
const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

function track<T extends ChildProcess>(child: T): T {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

async function stopChild(child: ChildProcess, graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Sequential decimal ids from 1: the simulator's `seq-dec` preset if it has one, else plain decimal. */
function idFormatArgs(): { args: string[]; note: string } {
  const help = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'packages/smsc-simulator/src/cli.ts', '--help'],
    { cwd: repoRoot, encoding: 'utf8', timeout: 30_000 },
  ).stdout;
  if (help?.includes('seq-dec'))
    return { args: ['--id-format', 'seq-dec'], note: 'seq-dec (1, 2, 3, … decimal)' };
  return {
    args: ['--id-format', 'decimal'],
    note: 'decimal (this simulator CLI has no seq-dec preset: ids count up from Date.now()*1000, not from 1)',
  };
}

interface Cpu {
  /** µs per message by process, for the product. */
  product: [string, number][];
  simulator: number;
  loadGenerator: number;
  /** Not counted: shared by every database on the server, or machine-wide. */
  extra: string[];
}

interface RunResult {
  name: string;
  load: LoadResult;
  submitted: number;
  /** ms from the first request until the last message was submitted / was final. */
  submitMs: number;
  finalMs: number;
  final: number;
  timedOut: boolean;
  cpu: Cpu;
  notes: string[];
}

const us = (seconds: number, messages: number) => (seconds * 1e6) / Math.max(1, messages);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends WARMUP requests (built by `request(i)` from index N on, so no measured recipient repeats),
 * then waits until `finalCount()` reaches `base + accepted`. Returns the final count to count from.
 */
async function warmUp(
  origin: string,
  request: (i: number) => Dispatcher.RequestOptions,
  finalCount: () => Promise<number>,
) {
  const base = await finalCount();
  if (WARMUP <= 0) return base;
  const l = await runLoad(origin, WARMUP, CONCURRENCY, (i) => request(N + i));
  if (l.errors > 0) throw new Error(`warm-up: ${l.errors} errors: ${l.errorSamples.join('; ')}`);
  const deadline = performance.now() + FINAL_TIMEOUT_MS;
  for (;;) {
    const n = await finalCount();
    if (n >= base + l.accepted) return n;
    if (performance.now() > deadline) throw new Error(`warm-up: ${n - base} of ${l.accepted} final`);
    await sleep(100);
  }
}

/**
 * Polls `progress` until `final` reaches the accepted count, or until no message was submitted for
 * FINAL_TIMEOUT_MS after the load ended (a bounded wait: a stuck message is a finding, not a hang).
 * `measure` (CPU counters) is taken whenever messages progressed, so a timed-out run is measured up to
 * its last progress, not over the idle wait.
 */
async function waitForFinal<M>(
  load: Promise<LoadResult>,
  progress: () => Promise<{ submitted: number; final: number }>,
  intervalMs: number,
  measure: () => M,
) {
  let loadDone: LoadResult | undefined;
  let loadFailed: unknown;
  load.then(
    (l) => (loadDone = l),
    (err: unknown) => (loadFailed = err ?? new Error('load failed')),
  );
  let submitted = 0;
  let final = 0;
  let lastSubmitAt = performance.now();
  let submitAllAt = 0;
  let measured = measure();
  let measuredAt = 0;
  const hardDeadline = performance.now() + 60 * 60_000;
  for (;;) {
    const asked = performance.now();
    const p = await progress();
    const now = performance.now();
    const moved = p.submitted > submitted || p.final > final;
    if (p.submitted > submitted) {
      submitted = p.submitted;
      lastSubmitAt = asked;
    }
    final = p.final;
    if (loadFailed) throw loadFailed;
    const target = loadDone?.accepted ?? Infinity;
    if ((moved && now - measuredAt >= 200) || final >= target) {
      measured = measure();
      measuredAt = now;
    }
    if (loadDone) {
      if (!submitAllAt && submitted >= target) submitAllAt = lastSubmitAt;
      const result = { submitted, final, submitAllAt: submitAllAt || lastSubmitAt, measured };
      if (final >= target) return { ...result, timedOut: false };
      if (now - Math.max(lastSubmitAt, loadDone.ended) > FINAL_TIMEOUT_MS || now > hardDeadline) {
        return { ...result, timedOut: true };
      }
    }
    await sleep(intervalMs);
  }
}

async function runKannel(idArgs: string[]): Promise<RunResult> {
  const bins = ensureKannel();
  const [smscPort, adminPort, smsboxPort, sendsmsPort] = await freePorts(4);
  const sim = track(
    await startSimulator(['--port', String(smscPort), '--delay-ms', '0', '--mix', 'DELIVRD=100', ...idArgs]),
  );
  const dlr = await startDlrReceiver((type) => type === 1 || type === 2 || type === 16);
  let kannel: Awaited<ReturnType<typeof startKannel>> | undefined;
  try {
    kannel = await startKannel(bins, {
      smscPort,
      adminPort,
      smsboxPort,
      sendsmsPort,
      window: WINDOW,
      store: process.env.BENCH_KANNEL_STORE === 'file' ? 'file' : undefined,
    });
    const k = kannel;
    track(k.bearerbox);
    track(k.smsbox);
    const cpu = () => ({
      bearerbox: treeCpuSeconds(k.bearerbox.pid!),
      smsbox: treeCpuSeconds(k.smsbox.pid!),
      simulator: treeCpuSeconds(sim.pid!),
      self: process.cpuUsage(),
    });
    const kannelRequest = (i: number): Dispatcher.RequestOptions => {
      const q = new URLSearchParams({
        username: KANNEL_USER.username,
        password: KANNEL_USER.password,
        from: 'Wren',
        to: recipient(i),
        text: `Bench message ${i}`,
        'dlr-mask': '3',
        'dlr-url': `${dlr.url}?n=${i}&t=%d`,
      });
      return { path: `/cgi-bin/sendsms?${q}`, method: 'GET' };
    };
    const finalBase = await warmUp(`http://127.0.0.1:${sendsmsPort}`, kannelRequest, async () =>
      Promise.resolve(dlr.finals()),
    );
    const sentBase = await k.sent();
    const before = cpu();
    const t0 = performance.now();
    const load = runLoad(`http://127.0.0.1:${sendsmsPort}`, N, CONCURRENCY, kannelRequest);
    const w = await waitForFinal(
      load,
      async () => ({ submitted: (await k.sent()) - sentBase, final: dlr.finals() - finalBase }),
      25,
      cpu,
    );
    const after = w.measured;
    const l = await load;
    const self = { user: after.self.user - before.self.user, system: after.self.system - before.self.system };
    const done = w.final;
    return {
      name: `Kannel ${bins.version}`,
      load: l,
      submitted: w.submitted,
      submitMs: w.submitAllAt - t0,
      finalMs: (w.timedOut ? performance.now() : dlr.lastFinalAt()) - t0,
      final: done,
      timedOut: w.timedOut,
      cpu: {
        product: [
          ['bearerbox', us(after.bearerbox - before.bearerbox, l.accepted)],
          ['smsbox', us(after.smsbox - before.smsbox, l.accepted)],
        ],
        simulator: us(after.simulator - before.simulator, l.accepted),
        loadGenerator: us((self.user + self.system) / 1e6, l.accepted),
        extra: [],
      },
      notes: [
        `submitted: Kannel's admin status polled every 25 ms; delivery callbacks: ${dlr.callbacks()} (${dlr
          .byType()
          .map(([t, n]) => `type ${t}: ${n}`)
          .join(', ')}); the load generator's CPU includes receiving them`,
        `store: ${process.env.BENCH_KANNEL_STORE === 'file' ? 'file (on disk)' : 'none (in memory; BENCH_KANNEL_STORE=file for a disk store)'}, dlr-storage internal`,
      ],
    };
  } catch (err) {
    if (kannel) console.error(kannel.logTail());
    throw err;
  } finally {
    await kannel?.stop();
    await stopChild(sim);
    await dlr.close();
  }
}

async function runWren(idArgs: string[]): Promise<RunResult> {
  const dbName = `wren_peer_${process.pid}`;
  const db = EMBEDDED ? embeddedDatabase() : await freshPostgres(BASE_DB, dbName);
  const [smscPort, port] = await freePorts(2);
  const children: ChildProcess[] = [];
  try {
    const sim = track(
      await startSimulator([
        '--port',
        String(smscPort),
        '--delay-ms',
        '0',
        '--mix',
        'DELIVRD=100',
        ...idArgs,
      ]),
    );
    children.push(sim);
    const wren = track(
      await startWren(
        {
          ...(EMBEDDED ? db.env : { DATABASE_URL: db.url }),
          ...(EMBEDDED && pgStatementsEnabled ? pgStatementsSettings : {}),
          TRIAL_BALANCE_MINOR: String(N * 10),
          SMSC_HOST: '127.0.0.1',
          SMSC_PORT: String(smscPort),
          SMSC_BINDS: '1',
          SMSC_WINDOW: String(WINDOW),
          ...(process.env.BENCH_WREN_ID_NOTATION
            ? { SMSC_ID_NOTATION: process.env.BENCH_WREN_ID_NOTATION }
            : {}),
        },
        port,
      ),
    );
    children.push(wren);
    const session = await signUp(`http://127.0.0.1:${port}`);

    // This bench's own connection polls the database; its backend is not Wren's cost.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const pollPid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const serverVersion = (await client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`))
      .rows[0]!.v;
    const postmaster = procStat(pollPid)?.ppid ?? 0;
    // A shared server: count the backends of this database (sampled). Wren's embedded server is all
    // Wren's: count the whole server (postmaster, backends, WAL writer …), less this bench's backend.
    const backends = new SampledCpu(EMBEDDED ? () => [] : backendsOf(dbName, () => [pollPid]));
    const auxiliaries = new SampledCpu(EMBEDDED ? () => [] : postgresAuxiliaries(postmaster));
    const embeddedCpu = () => (EMBEDDED ? treeCpuSeconds(postmaster, (p) => p.pid !== pollPid) : 0);
    const final = ['delivered', 'undelivered', 'expired', 'rejected', 'failed', 'canceled', 'unknown'];
    const counts = async () => {
      const r = await client.query<{ submitted: string; final: string }>(
        `SELECT count(*) FILTER (WHERE submitted_at IS NOT NULL) AS submitted,
                count(*) FILTER (WHERE status = ANY($1)) AS final FROM messages`,
        [final],
      );
      return { submitted: Number(r.rows[0]!.submitted), final: Number(r.rows[0]!.final) };
    };
    const wrenRequest = (i: number): Dispatcher.RequestOptions => ({
      path: '/api/sms/single',
      method: 'POST',
      headers: session.headers,
      body: JSON.stringify({ recipients: [recipient(i)], text: `Bench message ${i}` }),
    });
    const finalBase = await warmUp(
      `http://127.0.0.1:${port}`,
      wrenRequest,
      async () => (await counts()).final,
    );
    const submittedBase = (await counts()).submitted;
    const writes = await tableWrites(db.url);
    const statements = EMBEDDED && pgStatementsEnabled ? await statementTimes(db.url) : null;
    const cpu = () => ({
      wren: treeCpuSeconds(wren.pid!, (p) => p.command !== 'postgres'),
      pgEmbedded: embeddedCpu(),
      simulator: treeCpuSeconds(sim.pid!),
      allPostgres: cpuSeconds({ command: 'postgres' }),
      pgBackends: backends.seconds(),
      pgAux: auxiliaries.seconds(),
      self: process.cpuUsage(),
    });
    backends.start();
    auxiliaries.start();
    const before = cpu();
    const t0 = performance.now();
    const t0Epoch = Date.now();
    const load = runLoad(`http://127.0.0.1:${port}`, N, CONCURRENCY, wrenRequest);
    const w = await waitForFinal(
      load,
      async () => {
        const c = await counts();
        return { submitted: c.submitted - submittedBase, final: c.final - finalBase };
      },
      500,
      cpu,
    );
    const after = w.measured;
    backends.stop();
    auxiliaries.stop();
    const l = await load;
    const self = { user: after.self.user - before.self.user, system: after.self.system - before.self.system };
    const times = await client.query<{ submit_ms: number | null; final_ms: number | null }>(
      `SELECT extract(epoch FROM max(submitted_at)) * 1000 - $1 AS submit_ms,
              extract(epoch FROM max(done_at) FILTER (WHERE status = ANY($2))) * 1000 - $1 AS final_ms
         FROM messages`,
      [t0Epoch, final],
    );
    const byStatus = await client.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM messages GROUP BY status ORDER BY status`,
    );
    await client.end();
    const tables = await writes.report(l.accepted);
    if (statements) tables.push(...(await statements.report(l.accepted, 25)));
    const statuses = byStatus.rows.map((r) => `${r.status}=${r.n}`).join(' ');
    return {
      name: `Wren (${EMBEDDED ? 'embedded ' : ''}PostgreSQL ${serverVersion})`,
      load: l,
      submitted: w.submitted,
      submitMs: Number(times.rows[0]!.submit_ms ?? w.submitAllAt - t0),
      finalMs: w.timedOut ? performance.now() - t0 : Number(times.rows[0]!.final_ms ?? 0),
      final: w.final,
      timedOut: w.timedOut,
      cpu: {
        product: [
          ['Wren', us(after.wren - before.wren, l.accepted)],
          [
            'PostgreSQL',
            us(after.pgBackends - before.pgBackends + after.pgEmbedded - before.pgEmbedded, l.accepted),
          ],
        ],
        simulator: us(after.simulator - before.simulator, l.accepted),
        loadGenerator: us((self.user + self.system) / 1e6, l.accepted),
        extra: EMBEDDED
          ? [
              `PostgreSQL counted: Wren's embedded server ${serverVersion}, every process (postmaster, backends, WAL writer …) but this bench's polling connection`,
            ]
          : [
              `PostgreSQL counted: ${backends.count()} backends of ${dbName} (sampled every 200 ms), not this bench's polling connection`,
              `not counted: PostgreSQL WAL writer, checkpointer, bgwriter (shared by the whole server) ${us(after.pgAux - before.pgAux, l.accepted).toFixed(0)} µs/msg; ` +
                `every postgres process on the machine (pipeline.ts's figure, includes other users) ${us(after.allPostgres - before.allPostgres, l.accepted).toFixed(0)} µs/msg`,
            ],
      },
      notes: [
        `statuses: ${statuses}${WARMUP > 0 ? ` (with the ${WARMUP} warm-up messages)` : ''}`,
        `id notation: ${process.env.BENCH_WREN_ID_NOTATION ?? "Wren's default"}`,
        'pg_stat_user_tables for the run:',
        ...tables,
      ],
    };
  } finally {
    for (const child of children.reverse()) await stopChild(child);
    await db.drop();
  }
}

/** The Node.js floor: see the header. Its parts are printed; the load generator is the same. */
async function runFloor(idArgs: string[]) {
  const [httpPort, smscPort] = await freePorts(2);
  const child = (args: string[]) =>
    track(
      spawn(process.execPath, ['--import', 'tsx', 'bench/lib/node-floor-child.ts', ...args], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
  const http = child(['http', String(httpPort)]);
  let httpUs: number;
  try {
    await waitForPort(httpPort);
    const floorRequest = (i: number): Dispatcher.RequestOptions => ({
      path: '/api/sms/single',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ recipients: [recipient(i)], text: `Bench message ${i}` }),
    });
    let answered = 0;
    await warmUp(
      `http://127.0.0.1:${httpPort}`,
      (i) => {
        answered += 1;
        return floorRequest(i);
      },
      async () => Promise.resolve(answered),
    );
    const before = treeCpuSeconds(http.pid!);
    const load = await runLoad(`http://127.0.0.1:${httpPort}`, N, CONCURRENCY, floorRequest);
    if (load.errors > 0)
      throw new Error(`HTTP floor: ${load.errors} errors: ${load.errorSamples.join('; ')}`);
    httpUs = us(treeCpuSeconds(http.pid!) - before, load.accepted);
  } finally {
    await stopChild(http);
  }
  const sim = track(
    await startSimulator(['--port', String(smscPort), '--delay-ms', '0', '--mix', 'DELIVRD=100', ...idArgs]),
  );
  let smppUs: number;
  try {
    const client = child(['smpp', String(smscPort), String(N), String(WINDOW), String(WARMUP)]);
    let out = '';
    client.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => client.once('exit', resolve));
    if (code !== 0) throw new Error(`SMPP floor: the client exited with ${code}`);
    smppUs = (JSON.parse(out) as { usPerMessage: number }).usPerMessage;
  } finally {
    await stopChild(sim);
  }
  console.log('\n== Node.js floor (Fastify + the smpp library, nothing stored, nothing checked)');
  console.log(
    `HTTP: a Fastify JSON route answering the same ${N} requests: ${httpUs.toFixed(0)} µs per request`,
  );
  console.log(
    `SMPP: the smpp library submitting ${N} messages (window ${WINDOW}) and answering their receipts: ${smppUs.toFixed(0)} µs per message`,
  );
  console.log(
    `together: ${(httpUs + smppUs).toFixed(0)} µs per message, before any storage; add bench:pg-floor at the ` +
      `same batch size for PostgreSQL's least share`,
  );
  return httpUs + smppUs;
}

async function waitForPort(port: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
    if (res) return;
    if (Date.now() > deadline) throw new Error(`nothing listened on ${port}`);
    await sleep(100);
  }
}

function print(r: RunResult) {
  const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const total = r.cpu.product.reduce((s, [, v]) => s + v, 0);
  const lat = [...r.load.latencies].sort((a, b) => a - b);
  console.log(`\n== ${r.name}`);
  console.log(
    `HTTP: ${r.load.accepted} accepted, ${r.load.errors} errors in ${secs(r.load.ended - r.load.started)} = ` +
      `${((r.load.accepted * 1000) / (r.load.ended - r.load.started)).toFixed(0)} accepted/s; ` +
      `p50 ${percentile(lat, 50).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms`,
  );
  for (const e of r.load.errorSamples) console.log(`  error: ${e}`);
  console.log(
    `submitted to the SMSC: ${r.submitted} by ${secs(r.submitMs)} = ${((r.submitted * 1000) / r.submitMs).toFixed(0)} submitted/s`,
  );
  if (r.timedOut) {
    console.log(
      `NOT ALL FINAL: ${r.final} of ${r.load.accepted} final, ${r.load.accepted - r.final} stayed non-final ` +
        `${FINAL_TIMEOUT_MS / 1000} s after the last submit`,
    );
  } else {
    console.log(
      `all ${r.final} final after ${secs(r.finalMs)} (` +
        (r.finalMs >= r.submitMs
          ? `${secs(r.finalMs - r.submitMs)} after the last submit`
          : 'with the last submit, within the polling interval') +
        `) = ` +
        `${((r.final * 1000) / r.finalMs).toFixed(0)} msg/s end to end`,
    );
  }
  console.log(
    `CPU per message: ${total.toFixed(0)} µs (${r.cpu.product.map(([n, v]) => `${n} ${v.toFixed(0)}`).join(' + ')}); ` +
      `not counted: SMSC simulator ${r.cpu.simulator.toFixed(0)} µs, load generator ${r.cpu.loadGenerator.toFixed(0)} µs`,
  );
  for (const line of [...r.cpu.extra, ...r.notes]) console.log(line);
}

async function main() {
  const id = idFormatArgs();
  console.log(
    `peer benchmark: ${N} messages, one per HTTP request, concurrency ${CONCURRENCY}, window ${WINDOW}, one bind; ` +
      `SMSC simulator process, receipts at once, all DELIVRD, ids ${id.note}`,
  );
  const results: RunResult[] = [];
  for (const [name, run] of [
    ['kannel', runKannel],
    ['wren', runWren],
  ] as const) {
    if (ONLY && ONLY !== name) continue;
    try {
      const r = await run(id.args);
      print(r);
      results.push(r);
    } catch (err) {
      console.error(`\n== ${name} failed:`, err);
    }
  }
  const [k, w] = [
    results.find((r) => r.name.startsWith('Kannel')),
    results.find((r) => r.name.startsWith('Wren')),
  ];
  let floorUs: number | undefined;
  if (!ONLY || ONLY === 'floor') {
    try {
      floorUs = await runFloor(id.args);
    } catch (err) {
      console.error('\n== the Node.js floor failed:', err);
      process.exitCode = 1;
    }
  }
  if (k && floorUs !== undefined) {
    const cpu = k.cpu.product.reduce((s, [, v]) => s + v, 0);
    console.log(
      `Node.js floor / Kannel: ${(floorUs / cpu).toFixed(2)} (${floorUs.toFixed(0)} µs vs ${cpu.toFixed(0)} µs)`,
    );
  }
  if (k && w) {
    const cpu = (r: RunResult) => r.cpu.product.reduce((s, [, v]) => s + v, 0);
    const rate = (r: RunResult) => (r.submitted * 1000) / r.submitMs;
    console.log('\n== Wren / Kannel');
    console.log(`submitted/s: ${(rate(w) / rate(k)).toFixed(2)}`);
    console.log(
      w.timedOut || k.timedOut
        ? `time until every message is final: n/a (${w.timedOut ? 'Wren' : 'Kannel'} left messages non-final)`
        : `time until every message is final: ${(w.finalMs / k.finalMs).toFixed(2)}`,
    );
    console.log(
      `CPU per message: ${(cpu(w) / cpu(k)).toFixed(2)} (${cpu(w).toFixed(0)} µs vs ${cpu(k).toFixed(0)} µs)`,
    );
  }
  if (results.some((r) => r.timedOut) || results.length < (ONLY === 'floor' ? 0 : ONLY ? 1 : 2))
    process.exitCode = 1;
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
