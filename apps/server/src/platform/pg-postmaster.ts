import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { cEnv, type RunAs } from './pg-cluster';

/** The embedded cluster's server process: started, found running, stopped, and a free port for it. */

/** A primary logs "… ready to accept connections"; a hot standby (a read replica) "… read-only connections". */
const READY = /database system is ready to accept (read-only )?connections/;

/**
 * The cluster also listens on a Unix socket in its own directory when the socket's path fits a
 * socket address (107 bytes): a statement's round trip over it costs Wren about a quarter less CPU
 * than over TCP on loopback (53-62 against 73-88 µs for a one-row SELECT here), and every message
 * makes several. A longer DATA_DIR keeps TCP only.
 */
export function socketDirOf(clusterDir: string) {
  const dir = path.resolve(clusterDir);
  // A plain path only: PostgreSQL reads the setting as a comma-separated list.
  const fits = /^[\w/.-]+$/.test(dir) && Buffer.byteLength(dir) + '/.s.PGSQL.65535'.length <= 100;
  return fits ? dir : '';
}

/**
 * WAL for a durable embedded cluster. A commit that needs a new 16 MB WAL segment while none is left
 * to recycle waits for PostgreSQL to zero-fill it, and every other commit waits behind it: the OTP
 * checks' 40–150 ms stalls (`IO:WalInitWrite`, then `LWLock:WALWrite`) after a large burst of
 * writes. Keeping 1 GB of segments to recycle means a burst reuses allocated files; 4 GB between
 * checkpoints means a campaign's drain is not one checkpoint after another (each one writes every
 * page it touched again, whole, on its next change).
 */
export const DURABLE_WAL = { min_wal_size: '1GB', max_wal_size: '4GB' } as const;

export function spawnPostmaster(
  postgres: string,
  dir: string,
  port: number,
  user: RunAs | undefined,
  test: boolean,
  log: (line: string) => void,
  extra: Record<string, string> = {},
): Promise<ChildProcess> {
  const settings: Record<string, string> = {
    ...(test
      ? { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' }
      : DURABLE_WAL),
    ...extra,
    // Where Wren connects: not overridden by extra settings.
    listen_addresses: '127.0.0.1',
    unix_socket_directories: socketDirOf(dir),
    lc_messages: 'C',
  };
  delete settings.port; // given as -p
  const args = ['-D', dir, '-p', String(port)];
  for (const [k, v] of Object.entries(settings)) args.push('-c', `${k}=${v}`);
  return new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(postgres, args, {
      ...user,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: cEnv(),
    });
    let tail = '';
    let ready = false;
    let pending = '';
    child.stderr.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        log(line);
        if (!ready) tail = `${tail}${line}\n`.slice(-4000);
        if (!ready && READY.test(line)) {
          ready = true;
          resolve(child);
        }
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (!ready) reject(new Error(`PostgreSQL exited (${code ?? signal}) before it was ready:\n${tail}`));
    });
  }).then((child) => {
    // Wren's exit must not wait for the postmaster; stop() and the exit hook end it.
    child.unref();
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    return child;
  });
}

/** postmaster.pid: line 1 the pid, line 4 the port. */
export function livePostmaster(dir: string): { pid: number; port: number } | null {
  const file = path.join(dir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !servesDir(pid, dir)) return null;
  return { pid, port };
}

/** Whether `pid` is a PostgreSQL serving `dir` (its working directory is the data dir). */
function servesDir(pid: number, dir: string): boolean {
  try {
    return readlinkSync(`/proc/${pid}/cwd`) === realpathSync(dir);
  } catch {
    // No /proc (not Linux): trust the pid file.
    return !existsSync('/proc/self');
  }
}

/** A pid file whose process is gone (or is some other process now) would stop PostgreSQL starting. */
export function removeStalePidFile(dir: string) {
  if (!livePostmaster(dir)) rmSync(path.join(dir, 'postmaster.pid'), { force: true });
}

export async function stopPid(pid: number) {
  const waitGone = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return !isAlive(pid);
  };
  process.kill(pid, 'SIGINT');
  if (await waitGone(30_000)) return;
  process.kill(pid, 'SIGQUIT');
  if (!(await waitGone(10_000))) throw new Error(`PostgreSQL ${pid} did not stop`);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie (exited, not yet reaped) is not alive.
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

export function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

export function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function freePort(): Promise<number> {
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
