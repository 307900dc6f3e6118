import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../test/client';
import { TEST_ROOT } from '../../test/pg-admin';
import { readManifest } from './backup';
import { listDailyBackups, runDailyBackup, backupsDir } from './daily-backup';
import { embeddedPaths, startEmbeddedPostgres } from './embedded-postgres';
import { createLogger } from './logger';
import { openDatabase } from './db';
import { migrate } from './migrate';

/**
 * Issue 44 item 3: `wren backup` of a running embedded database, `wren restore` into a fresh data
 * dir, and a Wren started on the restored one that finds every message, ledger entry and key, and
 * still knows its users' sessions (the data dir's generated JWT secret travels in the backup).
 */
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const roots: string[] = [];
const children: ChildProcess[] = [];
const newRoot = () => {
  const root = mkdtempSync(path.join(TEST_ROOT, 'backup-'));
  roots.push(root);
  return root;
};
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const root of roots) {
    const pidFile = path.join(embeddedPaths(root).cluster, 'postmaster.pid');
    if (existsSync(pidFile)) {
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGQUIT');
      } catch {
        // already gone
      }
    }
    rmSync(root, { recursive: true, force: true });
  }
});

const env = (dataDir: string, extra: Record<string, string> = {}) => {
  const e: Record<string, string | undefined> = { ...process.env };
  delete e.DATABASE_URL;
  delete e.JWT_SECRET;
  return {
    ...e,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web'),
    CAPTCHA: 'false',
    ...extra,
  };
};

/** `npm run wren -- <args>` as a user runs it (exit code and output). */
function wren(dataDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: serverRoot,
    env: env(dataDir),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

async function startWren(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
    cwd: serverRoot,
    env: env(dataDir, { PORT: String(port), SIMULATOR_DELAY_MS: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 90_000;
  while (!log.includes('Wren is running')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`wren start failed:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url: `http://127.0.0.1:${port}` };
}

const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

async function sql<T extends pg.QueryResultRow>(root: string, text: string): Promise<T[]> {
  const cluster = await startEmbeddedPostgres({ root, database: 'wren' });
  const client = new pg.Client({ connectionString: cluster.url('wren') });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
    await cluster.stop();
  }
}

describe('backup and restore of the embedded database', () => {
  it('backs up while Wren runs and sends, restores into a fresh data dir, and Wren finds everything', async () => {
    const a = newRoot();
    const wrenA = await startWren(a);
    const c = new ApiClient(wrenA.url);
    const user = await c.register();
    const key = await c.post('/api/api-keys', {
      name: 'Backend',
      scopes: ['sms:send', 'sms:read', 'balance:read'],
    });
    expect(key.status).toBe(201);
    const before: string[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = await c.post('/api/sms/single', {
        recipients: [`+1415555${String(100 + i).padStart(4, '0')}`],
        text: `Before ${i}`,
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      before.push(sent.body.messages[0].id as string);
    }

    // Sends go on while the backup runs (an online backup): the restore must be consistent anyway.
    let sending = true;
    const during = (async () => {
      let n = 0;
      while (sending) {
        await c.post('/api/sms/single', { recipients: ['+14155550999'], text: `During ${n++}` });
      }
      return n;
    })();
    const file = path.join(newRoot(), 'wren.tar.gz');
    const backup = wren(a, 'backup', file);
    sending = false;
    const sentDuring = await during;
    expect(backup.out).toMatch(/Backed up .* to .*wren\.tar\.gz: \d+ files/);
    expect(backup.code).toBe(0);
    expect(sentDuring).toBeGreaterThan(0);
    await stop(wrenA.child);

    const manifest = await readManifest(file);
    expect(manifest.counts.messages).toBeGreaterThanOrEqual(5);
    expect(manifest.counts.api_keys).toBe(1);
    expect(manifest.counts.ledger_entries).toBeGreaterThan(0);
    // The archive is as secret as the data dir.
    expect((await import('node:fs')).statSync(file).mode & 0o777).toBe(0o600);

    // Restore refuses a data dir that holds a database, and a file that is not a backup.
    const refused = wren(a, 'restore', file);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/already holds a database/);
    const junk = path.join(newRoot(), 'junk.tar.gz');
    writeFileSync(junk, 'not a backup');
    const b0 = newRoot();
    const bad = wren(b0, 'restore', junk);
    expect(bad.code).not.toBe(0);
    expect(existsSync(embeddedPaths(b0).cluster)).toBe(false);

    const b = newRoot();
    const restored = wren(b, 'restore', file);
    expect(restored.out).toMatch(/Restored the backup of .* \(as in the backup\)/);
    expect(restored.code).toBe(0);
    // Every account's balance is its ledger's sum in the restored database.
    const drift = await sql<{ n: number }>(
      b,
      `SELECT count(*)::int AS n FROM accounts a
        WHERE a.balance_minor <> (SELECT coalesce(sum(amount_minor), 0) FROM ledger_entries l WHERE l.account_id = a.id)`,
    );
    expect(drift[0]!.n).toBe(0);

    const wrenB = await startWren(b);
    try {
      // The session made on A is valid on B (the JWT secret came with the backup).
      const again = new ApiClient(wrenB.url);
      again.useSession({ accessToken: user.accessToken, refreshToken: user.refreshToken });
      const log = await again.get('/api/sms/log?limit=100');
      expect(log.status).toBe(200);
      const ids = (log.body.items as { id: string }[]).map((m) => m.id);
      for (const id of before) expect(ids).toContain(id);
      expect(ids.length).toBe(manifest.counts.messages);
      // The password signs in, and the API key still authenticates.
      const signIn = new ApiClient(wrenB.url);
      const login = await signIn.post('/api/auth/login', {
        username: user.user.username,
        password: user.password,
      });
      expect(login.status).toBe(200);
      const balance = await fetch(`${wrenB.url}/v1/balance`, {
        headers: { authorization: `Bearer ${key.body.secret}` },
      });
      expect(balance.status).toBe(200);
    } finally {
      await stop(wrenB.child);
    }
  }, 300_000);

  it('refuses an external database with a pointer to its own tools', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'backup', '/tmp/x.tar.gz'], {
      cwd: serverRoot,
      env: { ...env(newRoot()), DATABASE_URL: 'postgres://u:p@127.0.0.1:1/x' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/DATABASE_URL is set: back up an external PostgreSQL with its own tools/);
  }, 60_000);

  it('daily backups: one a day, the newest BACKUP_DAILY_KEEP kept', async () => {
    const root = newRoot();
    const database = await openDatabase({ dataDir: root });
    try {
      await migrate(database);
      const target = database.embedded!;
      expect(target.root).toBe(root);
      const logger = createLogger('silent');
      // Days well after today (a copy counts as today's when younger than 23 h by the file's time).
      const base = Date.now();
      const day = (n: number) => new Date(base + n * 86_400_000);
      expect(await runDailyBackup({ cluster: target, keep: 2, now: day(0), logger })).not.toBeNull();
      // The same day again: nothing new.
      expect(await runDailyBackup({ cluster: target, keep: 2, now: new Date(), logger })).toBeNull();
      expect(await runDailyBackup({ cluster: target, keep: 2, now: day(2), logger })).not.toBeNull();
      expect(await runDailyBackup({ cluster: target, keep: 2, now: day(3), logger })).not.toBeNull();
      const kept = await listDailyBackups(backupsDir(root));
      const stamp = (d: Date) =>
        d
          .toISOString()
          .replace(/[-:]/g, '')
          .replace(/\.\d+Z$/, 'Z');
      expect(kept).toEqual([`wren-${stamp(day(3))}.tar.gz`, `wren-${stamp(day(2))}.tar.gz`]);
      expect(readdirSync(backupsDir(root)).some((n) => n.endsWith('.partial'))).toBe(false);
    } finally {
      await database.close();
    }
  }, 120_000);
});
