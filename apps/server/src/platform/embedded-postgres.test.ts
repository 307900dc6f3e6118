import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ROOT } from '../../test/pg-admin';
import { embeddedPaths, startEmbeddedPostgres } from './embedded-postgres';
import { DURABLE_WAL } from './pg-postmaster';
import { loadConfig } from './config';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const roots: string[] = [];
const newRoot = () => {
  const root = mkdtempSync(path.join(TEST_ROOT, 'embedded-'));
  roots.push(root);
  return root;
};
afterAll(() => {
  for (const root of roots) {
    // A failed test may leave a cluster running.
    const pidFile = path.join(embeddedPaths(root).cluster, 'postmaster.pid');
    if (existsSync(pidFile)) process.kill(postmasterPid(root), 'SIGQUIT');
    rmSync(root, { recursive: true, force: true });
  }
});

const postmasterPid = (root: string) =>
  Number(readFileSync(path.join(embeddedPaths(root).cluster, 'postmaster.pid'), 'utf8').split('\n')[0]);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

async function query<T extends pg.QueryResultRow>(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

async function until(check: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** `wren start` on the embedded default (no DATABASE_URL), resolved once it logs that it runs. */
async function startWren(dataDir: string): Promise<{ child: ChildProcess; output: () => string }> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: serverRoot,
    env: {
      ...env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      JWT_SECRET: 'embedded-test-secret-0123456789',
      WEB_DIST: path.join(dataDir, 'no-web'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  await until(() => log.includes('Wren is running') || child.exitCode !== null, 60_000, 'wren start');
  if (child.exitCode !== null) throw new Error(`wren start exited ${child.exitCode}:\n${log}`);
  return { child, output: () => log };
}

describe('embedded PostgreSQL', () => {
  it('creates the cluster and database, keeps data across a restart, and stops cleanly', async () => {
    const root = newRoot();
    const paths = embeddedPaths(root);
    const first = await startEmbeddedPostgres({ root, database: 'wren' });
    expect(first.owned).toBe(true);
    expect(statSync(paths.passwordFile).mode & 0o777).toBe(0o600);
    const password = readFileSync(paths.passwordFile, 'utf8').trim();
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect(first.url('wren')).toContain(`:${password}@127.0.0.1:${first.port}/wren`);
    await query(first.url('wren'), 'CREATE TABLE kept (v text); INSERT INTO kept VALUES ($$yes$$)');
    // Native PostgreSQL 18, listening on loopback only, with Unicode-aware case mapping.
    const [info] = await query<{ version: string; listen: string; lower: string }>(
      first.url('wren'),
      `SELECT current_setting('server_version_num') AS version, current_setting('listen_addresses') AS listen, lower('ÉCOLE') AS lower`,
    );
    expect(Number(info!.version)).toBeGreaterThanOrEqual(180000);
    expect(info!.listen).toBe('127.0.0.1');
    expect(info!.lower).toBe('école');
    // Durable: WAL segments kept to recycle, and room between checkpoints (DURABLE_WAL).
    const [wal] = await query<{ min: string; max: string; fsync: string }>(
      first.url('wren'),
      `SELECT current_setting('min_wal_size') AS min, current_setting('max_wal_size') AS max, current_setting('fsync') AS fsync`,
    );
    expect(wal).toEqual({ min: DURABLE_WAL.min_wal_size, max: DURABLE_WAL.max_wal_size, fsync: 'on' });
    // Wren's own connections use the Unix socket in the cluster's directory (no server address);
    // TCP on loopback still answers, with the password.
    expect(first.url('wren')).toContain(`?host=${encodeURIComponent(paths.cluster)}`);
    const [viaSocket] = await query<{ addr: string | null }>(
      first.url('wren'),
      'SELECT inet_server_addr() AS addr',
    );
    expect(viaSocket!.addr).toBeNull();
    const tcpUrl = first.url('wren').replace(/\?host=.*$/, '');
    const [viaTcp] = await query<{ addr: string | null }>(tcpUrl, 'SELECT inet_server_addr() AS addr');
    expect(viaTcp!.addr).toBe('127.0.0.1');
    await expect(query(first.url('wren').replace(password, 'wrong'), 'SELECT 1')).rejects.toThrow();
    await expect(query(first.url('wren').replace(password, 'wrong'), 'SELECT 1')).rejects.toThrow(
      /password authentication failed/,
    );
    const pid = postmasterPid(root);
    await first.stop();
    expect(alive(pid)).toBe(false);
    expect(existsSync(path.join(paths.cluster, 'postmaster.pid'))).toBe(false);
    expect(existsSync(paths.ownerFile)).toBe(false);
    expect(await listening(first.port)).toBe(false);

    const again = await startEmbeddedPostgres({ root, database: 'wren' });
    try {
      expect(await query(again.url('wren'), 'SELECT v FROM kept')).toEqual([{ v: 'yes' }]);
      expect(readFileSync(paths.passwordFile, 'utf8').trim()).toBe(password);
    } finally {
      await again.stop();
    }
  });

  it('takes extra settings from EMBEDDED_PG_SETTINGS (name=value;…); a malformed pair is a configuration error', async () => {
    const env = { JWT_SECRET: 'test-secret-0123456789' };
    const config = loadConfig({ ...env, EMBEDDED_PG_SETTINGS: ' work_mem=7MB ; pg_stat_statements.max=500' });
    expect(config.embeddedPgSettings).toEqual({ work_mem: '7MB', 'pg_stat_statements.max': '500' });
    expect(loadConfig(env).embeddedPgSettings).toEqual({});
    expect(() => loadConfig({ ...env, EMBEDDED_PG_SETTINGS: 'work_mem' })).toThrow(
      /"work_mem" is not name=value/,
    );
    const cluster = await startEmbeddedPostgres({
      root: newRoot(),
      mode: 'test',
      settings: { work_mem: '7MB', listen_addresses: '*', port: '1' },
    });
    try {
      expect(await query(cluster.url(), `SELECT current_setting('work_mem') AS v`)).toEqual([{ v: '7MB' }]);
      // Where Wren connects is its own to set.
      expect(
        await query(
          cluster.url(),
          `SELECT current_setting('listen_addresses') AS a, current_setting('port') AS p`,
        ),
      ).toEqual([{ a: '127.0.0.1', p: String(cluster.port) }]);
    } finally {
      await cluster.stop();
    }
  });

  it('starts over a stale postmaster.pid whose pid is now another process', async () => {
    const root = newRoot();
    const cluster = await startEmbeddedPostgres({ root, mode: 'test' });
    const port = cluster.port;
    await cluster.stop();
    const other = spawn('sleep', ['30']);
    try {
      // What a kill -9 of the whole machine leaves: the pid file, its pid reused by something else.
      writeFileSync(
        path.join(embeddedPaths(root).cluster, 'postmaster.pid'),
        `${other.pid}\n${embeddedPaths(root).cluster}\n0\n${port}\n\n127.0.0.1\n0 0\nready\n`,
      );
      const again = await startEmbeddedPostgres({ root, mode: 'test' });
      try {
        expect(await query(again.url(), 'SELECT 1 AS one')).toEqual([{ one: 1 }]);
        expect(postmasterPid(root)).not.toBe(other.pid);
      } finally {
        await again.stop();
      }
      expect(alive(other.pid!)).toBe(true);
    } finally {
      other.kill();
    }
  });

  it('recovers after `wren start` is killed with kill -9, and stops with it on SIGTERM', async () => {
    const dataDir = newRoot();
    const first = await startWren(dataDir);
    const orphan = postmasterPid(dataDir);
    expect(alive(orphan)).toBe(true);

    // While it runs, another process (e.g. `wren migrate`) joins its cluster instead of starting one.
    const guest = await startEmbeddedPostgres({ root: dataDir, database: 'wren' });
    expect(guest.owned).toBe(false);
    const [row] = await query<{ n: number }>(
      guest.url('wren'),
      'SELECT count(*)::int AS n FROM schema_migrations',
    );
    expect(row!.n).toBeGreaterThan(0);
    await guest.stop();
    expect(alive(orphan)).toBe(true);

    first.child.kill('SIGKILL');
    await until(() => first.child.exitCode !== null || first.child.signalCode !== null, 10_000, 'kill');
    // The postmaster outlives its killed parent, holding the data dir and its port.
    expect(alive(orphan)).toBe(true);

    const second = await startWren(dataDir);
    try {
      expect(alive(orphan)).toBe(false);
      const fresh = postmasterPid(dataDir);
      expect(fresh).not.toBe(orphan);
      expect(second.output()).toContain('"database":"embedded"');

      const exited = new Promise<number | null>((resolve) => second.child.once('exit', resolve));
      second.child.kill('SIGTERM');
      expect(await exited, second.output()).toBe(0);
      expect(alive(fresh)).toBe(false);
      expect(existsSync(path.join(embeddedPaths(dataDir).cluster, 'postmaster.pid'))).toBe(false);
    } finally {
      second.child.kill('SIGKILL');
    }
  }, 180_000);
});
