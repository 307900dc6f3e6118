import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Creates a fresh PostgreSQL database for a benchmark run and returns its URL and a drop function. */
export async function freshPostgres(baseUrl: string, name: string) {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    /** What `startWren` needs to use this database. */
    env: { DATABASE_URL: u.toString() },
    /** CPU seconds of every process named postgres (this server, and any other on the machine). */
    postgresCpu: () => cpuSeconds({ command: 'postgres' }),
    postgresProcesses: () => cpuByTitle({ command: 'postgres' }),
    drop: async () => {
      const a = new pg.Client({ connectionString: baseUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/**
 * Wren's default database: the embedded PostgreSQL it starts itself in a fresh DATA_DIR. Its URL
 * (password and port from the data dir) can be read once a `wren start` with `env` is ready.
 */
export function embeddedDatabase() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wren-bench-'));
  const postmasterPid = () =>
    Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    env: { DATABASE_URL: '', DATA_DIR: dataDir },
    get url() {
      const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
      const port = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3];
      return `postgres://wren:${password}@127.0.0.1:${port}/wren`;
    },
    /** CPU seconds of this cluster alone: its postmaster (with exited backends) and live children. */
    postgresCpu: () => {
      const postmaster = postmasterPid();
      return cpuSeconds({ pid: postmaster }) + cpuSeconds({ parent: postmaster });
    },
    /** Its postmaster and live children, by title (cpuByTitle). */
    postgresProcesses: () => {
      const postmaster = postmasterPid();
      return new Map([...cpuByTitle({ pid: postmaster }), ...cpuByTitle({ parent: postmaster })]);
    },
    /** Call after Wren has stopped (it stops its PostgreSQL on SIGTERM). */
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** Starts `wren start` as a child process and waits for /readyz. */
export async function startWren(env: Record<string, string>, port: number): Promise<ChildProcess> {
  // BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the server.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts', 'start'],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        // A worker node has no HTTP API; its health port answers /readyz instead.
        ...(env.ROLE === 'worker' ? { WORKER_HEALTH_PORT: String(port) } : {}),
        HOST: '127.0.0.1',
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'wren-bench-')),
        JWT_SECRET: 'bench-secret-0123456789abcdef',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        CAPTCHA: 'false', // the bench registers through the API
        ...env,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) return child;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error('Wren did not start');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Starts the SMSC simulator CLI as a child process (args: see `npm run smsc -- --help`) and waits for its port. */
export async function startSimulator(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/smsc-simulator/src/cli.ts', ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const port = Number(args[args.indexOf('--port') + 1]);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return child;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGKILL');
      throw new Error('SMSC simulator did not start');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A signed-in API session: XSRF cookie, bearer token. */
export async function signUp(base: string) {
  const x = await fetch(`${base}/api/auth/xsrf`);
  const cookie = x.headers.getSetCookie()[0]!.split(';')[0]!;
  const xsrf = cookie.split('=')[1]!;
  const headers = { 'content-type': 'application/json', cookie, 'x-xsrf-token': xsrf };
  const tag = Date.now().toString(36);
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      username: `bench${tag}`,
      name: 'Bench',
      email: `bench${tag}@example.com`,
      phone: '+14155550123',
      password: 'bench password 1',
    }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { accessToken: string; user: { accountId: string } };
  return {
    headers: { ...headers, authorization: `Bearer ${body.accessToken}` },
    accountId: body.user.accountId,
  };
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * CPU seconds (user + system) used so far by processes, from /proc: one pid, every process with
 * the given command name (e.g. all PostgreSQL backends), or every child of a pid. Linux only; 0 elsewhere.
 */
export function cpuSeconds(which: { pid: number } | { command: string } | { parent: number }): number {
  let ticks = 0;
  for (const p of processTicks(which)) ticks += p.ticks;
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/**
 * CPU seconds of each process that cpuSeconds would add up, by its title (a PostgreSQL process
 * names its role: "walwriter", "autovacuum worker", "wren wren 127.0.0.1(53412) idle"…; client
 * ports are dropped so one pool's backends group). Take two and diff them with cpuDiff.
 */
export function cpuByTitle(
  which: { pid: number } | { command: string } | { parent: number },
): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of processTicks(which)) {
    let title: string;
    try {
      title = readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue;
    }
    title = title.replace(/\(\d+\)/, '').replace(/\s+/g, ' ');
    out.set(`${p.pid} ${title}`, p.ticks / CLOCK_TICKS_PER_SECOND);
  }
  return out;
}

/** The processes whose CPU grew between two cpuByTitle snapshots, most first, pids dropped. */
export function cpuDiff(before: Map<string, number>, after: Map<string, number>): [string, number][] {
  const byTitle = new Map<string, number>();
  for (const [key, seconds] of after) {
    const grew = seconds - (before.get(key) ?? 0);
    if (grew <= 0) continue;
    const title = key.slice(key.indexOf(' ') + 1);
    byTitle.set(title, (byTitle.get(title) ?? 0) + grew);
  }
  return [...byTitle].sort((a, b) => b[1] - a[1]);
}

function processTicks(which: { pid: number } | { command: string } | { parent: number }) {
  const pids = 'pid' in which ? [String(which.pid)] : readdirSafe('/proc').filter((p) => /^\d+$/.test(p));
  const out: { pid: string; ticks: number }[] = [];
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if ('command' in which && command !== which.command) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if ('parent' in which && Number(fields[1]) !== which.parent) continue;
    // utime, stime, and cutime, cstime: the PostgreSQL postmaster's children that have exited (a
    // closed pool connection) still count through it.
    out.push({
      pid,
      ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
    });
  }
  return out;
}

const CLOCK_TICKS_PER_SECOND = 100;

function readdirSafe(dir: string) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
