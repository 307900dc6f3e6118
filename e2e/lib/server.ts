import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { REPO_ROOT, TMP_DIR, WEB_DIST } from './paths';
import { ensureWebBuild } from './web-build';

/** The servers' JWT key, so a spec can make an expired copy of a token instead of waiting (lib/tokens). */
export const E2E_JWT_SECRET = 'e2e-secret-0123456789abcdef';

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  /** Everything the server printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForReady(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Server not ready after 60 s:\n${output()}`);
}

/**
 * A server killed with SIGKILL leaves its embedded PostgreSQL running (a restart would recover it);
 * stop it before its data directory is removed.
 */
function stopOrphanedPostgres(dataDir: string) {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    if (pid > 0) process.kill(pid, 'SIGQUIT');
  } catch {
    // no cluster, or it has stopped
  }
}

/**
 * E2E_DATA_TEMPLATE (set by run.mjs): a data directory on which `wren migrate` ran once for the run
 * (an initdb'd, migrated, stopped embedded cluster and its password file). A server's fresh data
 * directory starts as a copy of it (cp -a: a fraction of a second) instead of each server running
 * initdb and every migration itself (seconds of the 2 cores each); `wren start` then finds its
 * cluster and schema as after a `wren migrate`. Without it (a spec run on its own), a fresh one.
 */
function seedDataDir(dataDir: string, env: Record<string, string>) {
  const template = process.env.E2E_DATA_TEMPLATE;
  if (!template || env.DATABASE_URL || process.env.DATABASE_URL) return;
  if (!existsSync(path.join(template, 'pg', 'PG_VERSION'))) throw new Error(`${template}: no cluster`);
  for (const name of ['pg', 'pg-password'])
    execFileSync('cp', ['-a', path.join(template, name), path.join(dataDir, name)]);
}

/**
 * Starts the real server (API + built web app) on a free port with a fresh data directory, on the
 * embedded PostgreSQL (Wren's default) unless `env` sets DATABASE_URL.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  ensureWebBuild();
  mkdirSync(TMP_DIR, { recursive: true });
  const dataDir = mkdtempSync(path.join(TMP_DIR, 'data-'));
  seedDataDir(dataDir, env);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let log = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'start'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JWT_SECRET: E2E_JWT_SECRET,
      WEB_DIST,
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      CAPTCHA: 'false', // they register through the API; captcha.spec turns it on
      // No SMPP listener unless a spec asks for one (smpp-accounts.spec): servers of specs running at
      // once took the default ports in turn, so a page showed the endpoints or "not listening" by chance.
      SMPP_SERVER_PORT: 'off',
      SMPP_SERVER_TLS_PORT: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const output = () => log;
  try {
    await waitForReady(baseUrl, child, output);
  } catch (error) {
    child.kill('SIGKILL');
    stopOrphanedPostgres(dataDir);
    throw error;
  }
  return {
    baseUrl,
    dataDir,
    output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          stopOrphanedPostgres(dataDir);
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
