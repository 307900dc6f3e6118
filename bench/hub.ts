/**
 * Hub push-delay benchmark (issue #17): one Wren process (API + worker + built-in simulator) on
 * PostgreSQL, N hub sockets spread over A accounts, and SMS sends through the HTTP API at R per
 * second, round robin over the accounts. Every send changes the account's balance, which pushes
 * UserAccountUpdated to all of the account's sockets. The delay of one push on one socket is from
 * just before its send's HTTP request to the push's arrival on that socket (both clocks are this
 * process's). Each account sends every A/R seconds, longer than the hub's 500 ms coalescing window,
 * so every push is a leading one (sent at once), not a trailing one held by the window. The delay
 * includes the send's own work up to its balance change; the fan-out figure (arrival after the
 * first arrival of the same push on any of the account's sockets) is the hub's delivery alone.
 *
 *   npm run bench:hub -- [sockets=10000] [seconds=30] [sends/s=60] [accounts=40]
 *   BENCH_HUB_WARMUP_SECONDS=10  the same load first, not measured (a running server, not its first seconds)
 *   BENCH_DATABASE_URL=postgres://user:pass@127.0.0.1:5432/postgres  an external PostgreSQL
 *   (default: a native PostgreSQL cluster the bench starts itself, given to Wren as DATABASE_URL;
 *   the hub uses its PostgreSQL adapter only with DATABASE_URL, never on Wren's own embedded one)
 *
 * Prints the sockets reached (the process's file limit caps them), the push delay p50/p99/max, the
 * sends' HTTP latency, this client's event-loop delay (a loaded client inflates the figures), and
 * the server's and PostgreSQL's CPU.
 */
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { Pool } from 'undici';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@wren/server/src/platform/embedded-postgres';
import { cpuSeconds, freshPostgres, percentile, startWren } from './lib/wren-process';

const SOCKETS = Number(process.argv[2] ?? 10_000);
const SECONDS = Number(process.argv[3] ?? 30);
const RATE = Number(process.argv[4] ?? 60);
const ACCOUNTS = Number(process.argv[5] ?? 40);
/** Seconds of the same load before measuring (BENCH_HUB_WARMUP_SECONDS; 0: measure from the first send). */
const WARMUP = Number(process.env.BENCH_HUB_WARMUP_SECONDS ?? 10);
const PORT = 3900 + Math.floor(Math.random() * 90) * 3;
const BASE_DB = process.env.BENCH_DATABASE_URL;
/** Sockets opening at once while connecting them (each costs a token check on the server). */
const CONNECT_CONCURRENCY = 100;

interface Account {
  headers: Record<string, string>;
  token: string;
  /** performance.now() just before the latest send's request, and its sequence number. */
  sentAt: number;
  seq: number;
  /** performance.now() of the first arrival of the latest send's push on any of its sockets. */
  firstAt: number;
  firstSeq: number;
}

async function register(base: string, i: number): Promise<Account> {
  const x = await fetch(`${base}/api/auth/xsrf`);
  const cookie = x.headers.getSetCookie()[0]!.split(';')[0]!;
  const xsrf = cookie.split('=')[1]!;
  const headers = { 'content-type': 'application/json', cookie, 'x-xsrf-token': xsrf };
  const tag = `${Date.now().toString(36)}${i}`;
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      username: `hub${tag}`,
      name: 'Hub bench',
      email: `hub${tag}@example.com`,
      phone: '+14155550123',
      password: 'bench password 1',
    }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { accessToken: string };
  return {
    headers: { ...headers, authorization: `Bearer ${body.accessToken}` },
    token: body.accessToken,
    sentAt: 0,
    seq: 0,
    firstAt: 0,
    firstSeq: 0,
  };
}

function connect(base: string, token: string): Promise<Socket> {
  const socket = io(base, {
    path: '/hub',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { token },
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** A native PostgreSQL cluster for this run (Wren's embedded binaries), removed afterwards. */
async function ownCluster() {
  const root = mkdtempSync(path.join(tmpdir(), 'wren-bench-hub-'));
  const cluster = await startEmbeddedPostgres({ root, database: 'wren' });
  const url = cluster.url('wren');
  return {
    url,
    env: { DATABASE_URL: url },
    /** This cluster alone: its postmaster (with exited backends) and live children. */
    postgresCpu: () => {
      const postmaster = Number(readFileSync(path.join(root, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
      return cpuSeconds({ pid: postmaster }) + cpuSeconds({ parent: postmaster });
    },
    drop: async () => {
      await cluster.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function main() {
  console.log(
    `hub benchmark: ${SOCKETS} sockets over ${ACCOUNTS} accounts, ${RATE} sends/s for ${SECONDS} s, ` +
      `${BASE_DB ? 'external PostgreSQL' : 'a PostgreSQL cluster of its own'} as DATABASE_URL, one Wren process`,
  );
  const db = BASE_DB ? await freshPostgres(BASE_DB, `wren_bench_hub_${process.pid}`) : await ownCluster();
  const children: ChildProcess[] = [];
  const sockets: Socket[] = [];
  try {
    children.push(
      await startWren(
        {
          ...db.env,
          TRIAL_BALANCE_MINOR: '10000000',
          SIMULATOR_DELAY_MS: '0',
          SIMULATOR_MIX: 'DELIVRD=100',
          AUTH_RATE_LIMIT_PER_MINUTE: '100000',
        },
        PORT,
      ),
    );
    const base = `http://127.0.0.1:${PORT}`;
    const accounts: Account[] = [];
    for (let i = 0; i < ACCOUNTS; i += 1) accounts.push(await register(base, i));

    // Connect, round robin over the accounts; stop at the first refusal (file limit, memory).
    const owner: number[] = [];
    const c0 = performance.now();
    let refused: string | null = null;
    for (let next = 0; next < SOCKETS && !refused;) {
      const batch = Math.min(CONNECT_CONCURRENCY, SOCKETS - next);
      const results = await Promise.allSettled(
        Array.from({ length: batch }, (_, k) => connect(base, accounts[(next + k) % ACCOUNTS]!.token)),
      );
      for (const [k, r] of results.entries()) {
        if (r.status === 'fulfilled') {
          sockets.push(r.value);
          owner.push((next + k) % ACCOUNTS);
        } else refused ??= String(r.reason);
      }
      next += batch;
    }
    console.log(
      `connected ${sockets.length} sockets in ${((performance.now() - c0) / 1000).toFixed(1)} s` +
        (refused ? ` (stopped at a refusal: ${refused})` : ''),
    );

    const delays: number[] = [];
    /** The delays by the 5-second slice of the run their send fell in (where a tail comes from). */
    const slices: number[][] = Array.from({ length: Math.ceil(SECONDS / 5) }, () => []);
    let t0 = 0;
    const spreads: number[] = [];
    let late = 0;
    const seen = new Int32Array(sockets.length);
    /** Every push frame the sockets received while sending, by push name. */
    const frames = new Map<string, number>();
    let counting = false;
    sockets.forEach((socket, i) => {
      const account = accounts[owner[i]!]!;
      socket.onAny((event: string) => {
        if (counting) frames.set(event, (frames.get(event) ?? 0) + 1);
      });
      socket.on('UserAccountUpdated', () => {
        const now = performance.now();
        // Only the first push per send counts; a trailing push (a later balance change) is not a delay.
        if (account.seq === 0 || seen[i] === account.seq) return;
        seen[i] = account.seq;
        const delay = now - account.sentAt;
        // Longer than the gap between this account's sends: it may belong to the previous send.
        if (delay > (ACCOUNTS / RATE) * 1000) late += 1;
        delays.push(delay);
        slices[Math.floor((account.sentAt - t0) / 5000)]?.push(delay);
        if (account.firstSeq !== account.seq) {
          account.firstSeq = account.seq;
          account.firstAt = now;
        }
        spreads.push(now - account.firstAt);
      });
    });
    const pool = new Pool(base, { connections: 16, pipelining: 1 });
    /** One send of the load, for an account (its pushes are measured once the account's seq is set). */
    const send = (account: Account, n: number) =>
      pool.request({
        path: '/api/sms/single',
        method: 'POST',
        headers: account.headers,
        body: JSON.stringify({ recipients: ['+14155550123'], text: `Hub bench ${n}` }),
      });

    // Warm-up: the same load, not measured, so the figures are a running server's (compiled code,
    // the pool's connections open), not its first seconds. Its pushes are ignored (seq 0).
    if (WARMUP > 0) {
      const w0 = performance.now();
      const warm: Promise<unknown>[] = [];
      for (let n = 0; n < Math.round(WARMUP * RATE); n += 1) {
        const wait = w0 + (n * 1000) / RATE - performance.now();
        if (wait > 0) await sleep(wait);
        warm.push(send(accounts[n % ACCOUNTS]!, n).then((res) => res.body.dump()));
      }
      await Promise.all(warm);
      console.log(`warmed up with ${warm.length} sends over ${WARMUP} s (not measured)`);
    }
    // The sign-up (and warm-up) pushes have gone out: start from quiet windows.
    await sleep(1500);

    const http: number[] = [];
    let errors = 0;
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const server0 = cpuSeconds({ pid: children[0]!.pid! });
    const postgres0 = db.postgresCpu();
    const client0 = process.cpuUsage();
    counting = true;
    t0 = performance.now();
    const total = Math.round(SECONDS * RATE);
    const inflight: Promise<void>[] = [];
    let answered = 0;
    const progress = setInterval(
      () =>
        console.log(
          `  ${((performance.now() - t0) / 1000).toFixed(0)} s: ${inflight.length} sent, ${answered} answered, ${delays.length} pushes`,
        ),
      5000,
    );
    for (let n = 0; n < total; n += 1) {
      const due = t0 + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const account = accounts[n % ACCOUNTS]!;
      account.sentAt = performance.now();
      account.seq += 1;
      const started = account.sentAt;
      inflight.push(
        (async () => {
          const res = await send(account, n);
          await res.body.dump();
          if (res.statusCode !== 202) errors += 1;
          answered += 1;
          http.push(performance.now() - started);
        })(),
      );
    }
    await Promise.all(inflight);
    await sleep(2000); // the last pushes arrive
    clearInterval(progress);
    counting = false;
    const secs = (performance.now() - t0) / 1000;
    const clientUsage = process.cpuUsage(client0);
    lag.disable();
    const serverCpu = cpuSeconds({ pid: children[0]!.pid! }) - server0;
    const postgresCpu = db.postgresCpu() - postgres0;
    await pool.close();

    const expected = sockets.length * (total / ACCOUNTS);
    delays.sort((a, b) => a - b);
    http.sort((a, b) => a - b);
    spreads.sort((a, b) => a - b);
    console.log(
      `${total} sends (${errors} refused), ${delays.length} pushes measured of ~${Math.round(expected)} expected` +
        (late ? `, ${late} later than an account's send interval` : ''),
    );
    console.log(
      `push delay: p50 ${ms(percentile(delays, 50))}, p99 ${ms(percentile(delays, 99))}, max ${ms(delays.at(-1) ?? 0)}`,
    );
    console.log(
      `push delay p99 by 5 s of the run: ${slices
        .map((d) =>
          ms(
            percentile(
              d.sort((a, b) => a - b),
              99,
            ),
          ),
        )
        .join(', ')}`,
    );
    console.log(
      `fan-out (a push's arrival after its first arrival on any of the account's sockets): ` +
        `p50 ${ms(percentile(spreads, 50))}, p99 ${ms(percentile(spreads, 99))}, max ${ms(spreads.at(-1) ?? 0)}`,
    );
    console.log(
      `send HTTP latency: p50 ${ms(percentile(http, 50))}, p99 ${ms(percentile(http, 99))}; ` +
        `client event-loop delay p99 ${ms(lag.percentile(99) / 1e6)}, max ${ms(lag.max / 1e6)}`,
    );
    console.log(
      `CPU over ${secs.toFixed(1)} s: Wren ${((serverCpu / secs) * 100).toFixed(0)}% of a core, ` +
        `PostgreSQL ${((postgresCpu / secs) * 100).toFixed(0)}%, this client ` +
        `${(((clientUsage.user + clientUsage.system) / 1e6 / secs) * 100).toFixed(0)}%; machine load average ${loadavg()[0]!.toFixed(1)}`,
    );
    const frameTotal = [...frames.values()].reduce((a, b) => a + b, 0);
    console.log(
      `push frames: ${Math.round(frameTotal / secs).toLocaleString()}/s over all sockets ` +
        `(${[...frames].map(([name, n]) => `${name} ${(n / sockets.length / secs).toFixed(2)}`).join(', ')} per socket per second); ` +
        `Wren CPU per frame ${((serverCpu * 1e6) / Math.max(1, frameTotal)).toFixed(1)} µs, per send ${((serverCpu * 1e3) / total).toFixed(1)} ms`,
    );
  } finally {
    for (const s of sockets) s.close();
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(
      children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
    );
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
