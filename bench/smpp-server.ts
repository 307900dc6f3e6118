/**
 * SMPP server benchmark (issue 37): a client library (the `smpp` npm package) binds as a transceiver
 * with window 100 to Wren's SMPP server and submits N messages with registered_delivery=1; Wren sends
 * them to an SMSC simulator process and the receipts flow back to the client as deliver_sm. Prints
 * submits/s, submit_sm_resp p50/p99, receipts/s and CPU per message of Wren and of its PostgreSQL,
 * then a paced run (1,000 submits/s) held to the goal submit_sm_resp p99 ≤ 20 ms.
 *
 * Where OPENSMPPBOX points at an opensmppbox binary (bench/lib/build-opensmppbox.sh builds one), the
 * same client and load first run against Kannel's chain: opensmppbox + Debian's bearerbox with a
 * file store (durable, as Wren's PostgreSQL is), bearerbox's smsc on its own simulator process with
 * the same settings; then the ratios Wren / Kannel from this run. opensmppbox reads its client's
 * socket without blocking and sleeps a second whenever no whole PDU is waiting (gwthread_sleep(1) in
 * smpp_to_bearerbox, in every version found): a client with window W gets at most W submits a second
 * from it, so its rate and latency here are opensmppbox's, not bearerbox's; its CPU per message holds.
 *
 *   npm run bench:smpp-server -- [N]        N (default 20,000; or BENCH_N) submits at full speed
 *   OPENSMPPBOX=/path/to/opensmppbox        also run Kannel's chain (else Wren alone)
 *   BENCH_ONLY=wren|kannel                  one product only
 *   BENCH_WINDOW=100                        the client's window (and Wren's login's, and bearerbox's to the SMSC)
 *   BENCH_WARMUP=2000                       messages sent first on each bind and left out of every figure
 *   BENCH_PACED_RATE=1000 BENCH_PACED_N=…   the paced run (default min(N, 10,000) messages; 0: none)
 *   BENCH_IDLE_S=10                         then CPU while bound and idle, per second (0: none)
 *   BENCH_FINAL_TIMEOUT_S=120               wait for receipts this long after the last submit_sm_resp
 *   BENCH_DATABASE_URL=postgres://…/postgres  Wren on a fresh database of that server (default: its
 *                                           embedded PostgreSQL, whose every process is counted)
 */
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { stopChild, track } from './lib/child-processes';
import { ensureKannel, startKannel } from './lib/kannel';
import { freePorts } from './lib/load';
import { backendsOf, SampledCpu, treeCpuSeconds } from './lib/proc-cpu';
import { SmppClientLoad, type SubmitRun } from './lib/smpp-client-load';
import {
  embeddedDatabase,
  freshPostgres,
  percentile,
  signUp,
  startSimulator,
  startWren,
} from './lib/wren-process';

const N = Number(process.argv[2] ?? process.env.BENCH_N ?? 20_000);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 100);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 1000);
const PACED_N = Number(process.env.BENCH_PACED_N ?? Math.min(N, 10_000));
const RECEIPT_TIMEOUT_MS = Number(process.env.BENCH_FINAL_TIMEOUT_S ?? 120) * 1000;
const OPENSMPPBOX = process.env.OPENSMPPBOX;
const ONLY = process.env.BENCH_ONLY;
const P99_GOAL_MS = 20;
/** Seconds of idle (bound, no traffic) measured after the runs: the floor a slow rate pays per message. */
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 10);
/** Receipts at once, all DELIVRD, decimal ids 1, 2, 3 … (Kannel's msg-id-type 0x00 reads decimal). */
const SIM_ARGS = ['--delay-ms', '0', '--mix', 'DELIVRD=100', '--id-format', 'seq-dec'];

/** A product under test: where its SMPP server listens, and its processes' CPU seconds so far. */
interface Product {
  name: string;
  port: number;
  systemId: string;
  password: string;
  cpu(): { product: [string, number][]; simulator: number };
  notes: string[];
  stop(): Promise<void>;
}

async function startWrenProduct(): Promise<Product> {
  const dbName = `wren_smpp_${process.pid}`;
  const shared = process.env.BENCH_DATABASE_URL;
  const db = shared ? await freshPostgres(shared, dbName) : embeddedDatabase();
  const [smscPort, port, smppPort] = (await freePorts(3)) as [number, number, number];
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await stopChild(child);
    await db.drop();
  };
  try {
    const sim = track(await startSimulator(['--port', String(smscPort), ...SIM_ARGS]));
    children.push(sim);
    const total = WARMUP + N + PACED_N;
    const wren = track(
      await startWren(
        {
          ...db.env,
          TRIAL_BALANCE_MINOR: String(total * 100),
          SMSC_HOST: '127.0.0.1',
          SMSC_PORT: String(smscPort),
          SMSC_BINDS: '1',
          SMSC_WINDOW: String(WINDOW),
          SMPP_SERVER_PORT: String(smppPort),
          SMPP_SERVER_TLS_PORT: 'off',
        },
        port,
      ),
    );
    children.push(wren);
    // The bench's SMPP login, made through Wren's own API as a customer would.
    const base = `http://127.0.0.1:${port}`;
    const session = await signUp(base);
    const res = await fetch(`${base}/api/smpp-accounts`, {
      method: 'POST',
      headers: session.headers,
      body: JSON.stringify({
        name: 'Bench',
        systemId: 'bench1',
        maxBinds: 2,
        windowSize: WINDOW,
        throughputPerSecond: 10_000,
      }),
    });
    if (res.status !== 201) throw new Error(`SMPP account: ${res.status} ${await res.text()}`);
    const { password } = (await res.json()) as { password: string };

    // What storage Wren runs on (read once, before the runs; this connection then closes).
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const settings = (
      await c.query<{ v: string; fsync: string; sc: string }>(
        `SELECT current_setting('server_version') AS v, current_setting('fsync') AS fsync,
                current_setting('synchronous_commit') AS sc`,
      )
    ).rows[0]!;
    await c.end();

    const backends = shared ? new SampledCpu(backendsOf(dbName)) : null;
    backends?.start();
    return {
      name: `Wren (${shared ? '' : 'embedded '}PostgreSQL ${settings.v})`,
      port: smppPort,
      systemId: 'bench1',
      password,
      cpu: () => ({
        product: [
          ['Wren', treeCpuSeconds(wren.pid!, (p) => p.command !== 'postgres')],
          ['PostgreSQL', backends ? backends.seconds() : db.postgresCpu()],
        ],
        simulator: treeCpuSeconds(sim.pid!),
      }),
      notes: [
        `storage: PostgreSQL fsync=${settings.fsync}, synchronous_commit=${settings.sc}; ` +
          (shared
            ? `counted: the backends of ${dbName} (sampled every 200 ms), not the server's shared WAL writer/checkpointer`
            : 'counted: every process of its embedded server (postmaster, backends, WAL writer …)'),
        `one \`wren start\` (role all: API with the SMPP server, and the worker with one bind to the simulator, window ${WINDOW})`,
      ],
      async stop() {
        backends?.stop();
        await stop();
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function startKannelProduct(bin: string): Promise<Product> {
  const bins = ensureKannel();
  const [smscPort, adminPort, smsboxPort, sendsmsPort, osbPort] = (await freePorts(5)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const sim = track(await startSimulator(['--port', String(smscPort), ...SIM_ARGS]));
  try {
    const login = { systemId: 'bench1', password: 'benchpw1' };
    const k = await startKannel(bins, {
      smscPort,
      adminPort,
      smsboxPort,
      sendsmsPort,
      window: WINDOW,
      store: 'file',
      opensmppbox: { bin, port: osbPort, ...login },
    });
    track(k.bearerbox);
    track(k.smsbox);
    return {
      name: `Kannel ${bins.version} (opensmppbox + bearerbox, file store)`,
      port: osbPort,
      ...login,
      cpu: () => ({
        product: [
          ['bearerbox', treeCpuSeconds(k.bearerbox.pid!)],
          ['opensmppbox', treeCpuSeconds(k.smsbox.pid!)],
        ],
        simulator: treeCpuSeconds(sim.pid!),
      }),
      notes: [
        'storage: bearerbox store-type = file (its message store on disk), dlr-storage internal; opensmppbox dlr-storage internal',
        `opensmppbox: ${bin}`,
      ],
      async stop() {
        const tail = k.logTail();
        await k.stop();
        await stopChild(sim);
        if (process.env.BENCH_SHOW_LOGS) console.log(tail);
      },
    };
  } catch (err) {
    await stopChild(sim);
    throw err;
  }
}

interface Phase {
  run: SubmitRun;
  /** µs per accepted message, by process. */
  cpu: [string, number][];
  simulatorUs: number;
  clientUs: number;
}

interface Result {
  name: string;
  full: Phase;
  paced: Phase | null;
  /** CPU while bound and idle: ms per second, by process. */
  idle: [string, number][] | null;
  notes: string[];
  unknownReceipts: number;
}

async function measure(p: Product, client: SmppClientLoad, first: number, rate?: number, n = N) {
  const before = p.cpu();
  const self0 = process.cpuUsage();
  const run = await client.submit({
    n,
    first,
    window: WINDOW,
    ratePerSecond: rate,
    receiptTimeoutMs: RECEIPT_TIMEOUT_MS,
    onComplete: () => ({ cpu: p.cpu(), self: process.cpuUsage(self0) }),
  });
  const after = run.measured as { cpu: ReturnType<Product['cpu']>; self: NodeJS.CpuUsage };
  const us = (s: number) => (s * 1e6) / Math.max(1, run.accepted);
  return {
    run,
    cpu: after.cpu.product.map(([name, s], i) => [name, us(s - before.product[i]![1])] as [string, number]),
    simulatorUs: us(after.cpu.simulator - before.simulator),
    clientUs: us((after.self.user + after.self.system) / 1e6),
  } satisfies Phase;
}

async function runProduct(start: () => Promise<Product>): Promise<Result> {
  const p = await start();
  try {
    const client = await SmppClientLoad.connect(p.port, p.systemId, p.password);
    try {
      if (WARMUP > 0) {
        const w = await client.submit({
          n: WARMUP,
          first: 0,
          window: WINDOW,
          receiptTimeoutMs: RECEIPT_TIMEOUT_MS,
        });
        if (!w.complete || w.accepted < WARMUP)
          throw new Error(`warm-up: ${w.accepted} of ${WARMUP} accepted, ${w.receipts} receipts`);
      }
      const full = await measure(p, client, WARMUP);
      const paced = PACED_N > 0 ? await measure(p, client, WARMUP + N, PACED_RATE, PACED_N) : null;
      // Late duplicates (a receipt sent twice) have a second to show.
      await new Promise((r) => setTimeout(r, 1000));
      let idle: Result['idle'] = null;
      if (IDLE_S > 0) {
        const before = p.cpu().product;
        await new Promise((r) => setTimeout(r, IDLE_S * 1000));
        idle = p
          .cpu()
          .product.map(([name, s], i) => [name, ((s - before[i]![1]) * 1000) / IDLE_S] as [string, number]);
      }
      return { name: p.name, full, paced, idle, notes: p.notes, unknownReceipts: client.unknownReceipts };
    } finally {
      await client.close();
    }
  } finally {
    await p.stop();
  }
}

const total = (ph: Phase) => ph.cpu.reduce((s, [, v]) => s + v, 0);
const submitsPerSecond = (r: SubmitRun) => (r.accepted * 1000) / (r.answeredAt - r.started);
const receiptsPerSecond = (r: SubmitRun) => (r.receipts * 1000) / (r.lastReceiptAt - r.started);
const p = (r: SubmitRun, q: number) =>
  percentile(
    [...r.latencies].sort((a, b) => a - b),
    q,
  );

function printPhase(title: string, ph: Phase) {
  const r = ph.run;
  const errors = [...r.errors].map(([s, n]) => `0x${s.toString(16)}×${n}`).join(', ');
  console.log(
    `${title}: ${r.accepted} of ${r.sent} accepted${errors ? ` (errors ${errors})` : ''} in ` +
      `${((r.answeredAt - r.started) / 1000).toFixed(2)} s = ${submitsPerSecond(r).toFixed(0)} submits/s; ` +
      `submit_sm_resp p50 ${p(r, 50).toFixed(1)} ms, p99 ${p(r, 99).toFixed(1)} ms, max ${Math.max(...r.latencies).toFixed(1)} ms`,
  );
  console.log(
    `  receipts: ${r.receipts} of ${r.accepted}${r.complete ? '' : ' (NOT ALL: timed out)'}, ${r.duplicates} duplicates, ` +
      `last after ${((r.lastReceiptAt - r.started) / 1000).toFixed(2)} s = ${receiptsPerSecond(r).toFixed(0)} receipts/s end to end`,
  );
  console.log(
    `  CPU per message: ${total(ph).toFixed(0)} µs (${ph.cpu.map(([n, v]) => `${n} ${v.toFixed(0)}`).join(' + ')}); ` +
      `not counted: SMSC simulator ${ph.simulatorUs.toFixed(0)} µs, this client ${ph.clientUs.toFixed(0)} µs`,
  );
}

function printResult(r: Result) {
  console.log(`\n== ${r.name}`);
  printPhase(`full speed (window ${WINDOW})`, r.full);
  if (r.paced) {
    printPhase(`paced at ${PACED_RATE}/s`, r.paced);
    const p99 = p(r.paced.run, 99);
    console.log(
      `  goal submit_sm_resp p99 ≤ ${P99_GOAL_MS} ms at ${PACED_RATE}/s: ${p99 <= P99_GOAL_MS ? 'met' : 'MISSED'} (${p99.toFixed(1)} ms)`,
    );
  }
  if (r.idle)
    console.log(
      `idle, bound, ${IDLE_S} s: ${r.idle.map(([n, v]) => `${n} ${v.toFixed(1)}`).join(' + ')} ms CPU per second`,
    );
  if (r.unknownReceipts) console.log(`  receipts without a message id: ${r.unknownReceipts}`);
  for (const n of r.notes) console.log(`  ${n}`);
}

function printRatios(w: Result, k: Result) {
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log('\n== Wren / Kannel (same run)');
  console.log(`submits/s: ${ratio(submitsPerSecond(w.full.run), submitsPerSecond(k.full.run))}`);
  console.log(
    `submit_sm_resp p50: ${ratio(p(w.full.run, 50), p(k.full.run, 50))}, p99: ${ratio(p(w.full.run, 99), p(k.full.run, 99))} (full speed)` +
      (w.paced && k.paced
        ? `; paced p50: ${ratio(p(w.paced.run, 50), p(k.paced.run, 50))}, p99: ${ratio(p(w.paced.run, 99), p(k.paced.run, 99))}`
        : ''),
  );
  console.log(`receipts/s: ${ratio(receiptsPerSecond(w.full.run), receiptsPerSecond(k.full.run))}`);
  const [wc, kc] = [total(w.full), total(k.full)];
  console.log(
    `CPU per message (full speed): ${ratio(wc, kc)} (${wc.toFixed(0)} µs vs ${kc.toFixed(0)} µs); ` +
      `goal Wren + PostgreSQL ≤ opensmppbox + bearerbox: ${wc <= kc ? 'met' : 'MISSED'}`,
  );
  if (w.paced && k.paced)
    console.log(
      `CPU per message (paced ${PACED_RATE}/s): ${ratio(total(w.paced), total(k.paced))} (${total(w.paced).toFixed(0)} µs vs ${total(k.paced).toFixed(0)} µs)`,
    );
}

async function main() {
  console.log(
    `SMPP server benchmark: ${N} submits at full speed, then ${PACED_N} at ${PACED_RATE}/s; one transceiver bind, ` +
      `window ${WINDOW}, registered_delivery=1, warm-up ${WARMUP}; SMSC simulator process, receipts at once, all DELIVRD`,
  );
  const results: Result[] = [];
  if (ONLY !== 'wren') {
    if (!OPENSMPPBOX)
      console.log(
        '\n(Kannel not run: set OPENSMPPBOX to an opensmppbox binary, see bench/lib/build-opensmppbox.sh)',
      );
    else {
      try {
        const r = await runProduct(() => startKannelProduct(OPENSMPPBOX));
        printResult(r);
        results.push(r);
      } catch (err) {
        console.error('\n== Kannel failed:', err);
        process.exitCode = 1;
      }
    }
  }
  if (ONLY !== 'kannel') {
    try {
      const r = await runProduct(startWrenProduct);
      printResult(r);
      results.push(r);
    } catch (err) {
      console.error('\n== Wren failed:', err);
      process.exitCode = 1;
    }
  }
  const [k, w] = [
    results.find((r) => r.name.startsWith('Kannel')),
    results.find((r) => r.name.startsWith('Wren')),
  ];
  if (k && w) printRatios(w, k);
  if (results.some((r) => !r.full.run.complete || (r.paced && !r.paced.run.complete))) process.exitCode = 1;
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
