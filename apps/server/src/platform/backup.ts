import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, mkdirSync, type Dirent } from 'node:fs';
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import pg from 'pg';
import tar from 'tar-stream';
import { EMBEDDED_DATABASE } from './db';
import { embeddedPaths, startEmbeddedPostgres } from './embedded-postgres';

/**
 * Backup and restore of the embedded database (issue 44 item 3): an online physical backup made
 * with the server's own backup API (pg_backup_start / pg_backup_stop), written as one gzipped tar.
 *
 * Why not pg_dump: the `embedded-postgres` package ships only initdb, pg_ctl and postgres, and
 * Debian's pg_dump (15) refuses a newer server. A physical backup needs nothing but the server: the
 * cluster's files are copied while it runs, a temporary replication slot keeps the WAL written
 * meanwhile, and that WAL goes in the archive, so a restored cluster replays to the moment the
 * backup ended (PostgreSQL's "low-level base backup", docs §26.3.3).
 *
 * The archive also holds the data dir's own secrets: the cluster's superuser password (the restored
 * cluster has it) and the generated JWT secret (two-factor secrets are encrypted under it). So it
 * is written 0600 and is as secret as the data dir.
 *
 * Layout: `wren-backup.json` (the manifest), `pg/…` (the cluster), `data/<file>` (secrets).
 */
export const MANIFEST = 'wren-backup.json';
export const BACKUP_FORMAT = 'wren-backup-1';

/** What a backup holds, and the counts its restore is checked against. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  postgresVersion: string;
  migrations: string[];
  /** Rows of the tables a restore must bring back, at the moment the backup ended. */
  counts: Record<string, number>;
  startLsn: string;
  stopLsn: string;
  files: number;
  bytes: number;
}

/** Tables whose row counts the manifest records (and `restore` compares). */
export const COUNTED_TABLES = ['accounts', 'users', 'messages', 'ledger_entries', 'api_keys', 'contacts'];

/** Data-dir files a restore needs beside the cluster (when they exist). */
const DATA_FILES = ['pg-password', 'jwt-secret'];

/**
 * Cluster contents a base backup leaves out (PostgreSQL's own list, "Backing Up the Data
 * Directory"): runtime state, temporary files, WAL (added after pg_backup_stop) and slots. The
 * directories themselves are kept, empty, as the server needs them.
 */
const EMPTY_DIRS = new Set([
  'pg_wal',
  'pg_replslot',
  'pg_dynshmem',
  'pg_notify',
  'pg_serial',
  'pg_snapshots',
  'pg_stat_tmp',
  'pg_subtrans',
]);
const SKIP_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map']);
const skipFile = (name: string) => SKIP_FILES.has(name) || name.startsWith('pgsql_tmp');

export class BackupError extends Error {}

/**
 * Backs up the embedded cluster under `dataDir` to `file` while it runs (or starts it for the
 * backup, and stops it after). Returns the manifest.
 */
export async function backupEmbedded(opts: {
  dataDir: string;
  file: string;
  log?: (line: string) => void;
}): Promise<BackupManifest> {
  const root = path.resolve(opts.dataDir);
  if (!existsSync(path.join(embeddedPaths(root).cluster, 'PG_VERSION'))) {
    throw new BackupError(`There is no embedded database under ${root} to back up.`);
  }
  // Joins the cluster when a live Wren process runs it (an online backup), else starts it.
  const cluster = await startEmbeddedPostgres({ root, database: EMBEDDED_DATABASE, log: opts.log });
  try {
    return await backupCluster({ root, url: cluster.url(EMBEDDED_DATABASE) }, path.resolve(opts.file));
  } finally {
    await cluster.stop();
  }
}

/**
 * Backs up a running embedded cluster (`Database.embedded`: its data dir and superuser URL) to
 * `file`, written first as `file.partial` and renamed once whole.
 */
export async function backupCluster(cluster: { root: string; url: string }, file: string) {
  const root = cluster.root;
  const clusterDir = embeddedPaths(root).cluster;
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  const partial = `${file}.partial`;
  try {
    const one = async <T>(text: string): Promise<T> => (await client.query(text)).rows[0] as T;
    // The slot keeps every WAL segment from here on until this session ends (temporary).
    const slot = `wren_backup_${process.pid}`;
    await client.query('SELECT pg_create_physical_replication_slot($1, true, true)', [slot]);
    const { lsn: startLsn } = await one<{ lsn: string }>("SELECT pg_backup_start('wren', true) AS lsn");

    mkdirSync(path.dirname(file), { recursive: true });
    const out = createWriteStream(partial, { mode: 0o600 });
    const pack = tar.pack();
    const written = pipeline(pack, createGzip(), out);
    const totals = { files: 0, bytes: 0 };
    await packTree(pack, clusterDir, 'pg', totals, true);

    // The end of the backup: the label the restored cluster starts its recovery from, and the
    // counts and migrations of the moment it covers (read after the copy, in one snapshot).
    const stop = await one<{ lsn: string; labelfile: string; spcmapfile: string }>(
      'SELECT lsn::text, labelfile, spcmapfile FROM pg_backup_stop(false)',
    );
    await addEntry(pack, 'pg/backup_label', Buffer.from(stop.labelfile));
    if (stop.spcmapfile) await addEntry(pack, 'pg/tablespace_map', Buffer.from(stop.spcmapfile));
    // Force the segment holding the stop position out of the WAL buffers, then copy the WAL.
    await client.query('SELECT pg_switch_wal()');
    await packTree(pack, path.join(clusterDir, 'pg_wal'), 'pg/pg_wal', totals, false);

    for (const name of DATA_FILES) {
      const p = path.join(root, name);
      if (existsSync(p)) await addEntry(pack, `data/${name}`, await readFile(p), 0o600);
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      postgresVersion: (await one<{ v: string }>('SHOW server_version')).v ?? '',
      migrations: await migrationsOf(client),
      counts: await countsOf(client),
      startLsn: String(startLsn),
      stopLsn: stop.lsn,
      ...totals,
    };
    await addEntry(pack, MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    pack.finalize();
    await written;
    await rename(partial, file);
    return manifest;
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Adds the files under `dir` as `prefix/…`; `top`: leave out runtime state (see EMPTY_DIRS). */
async function packTree(
  pack: tar.Pack,
  dir: string,
  prefix: string,
  totals: { files: number; bytes: number },
  top: boolean,
): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // removed while we walked
    throw err;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, e.name);
    const name = `${prefix}/${e.name}`;
    if (e.isDirectory()) {
      await addDir(pack, name);
      if (!(top && EMPTY_DIRS.has(e.name))) await packTree(pack, full, name, totals, false);
    } else if (e.isFile() && !skipFile(e.name)) {
      const copied = await addFile(pack, full, name);
      if (copied >= 0) {
        totals.files += 1;
        totals.bytes += copied;
      }
    }
  }
}

const addDir = (pack: tar.Pack, name: string) =>
  new Promise<void>((resolve, reject) =>
    pack.entry({ name, type: 'directory', mode: 0o700 }, (err) => (err ? reject(err) : resolve())),
  );

const addEntry = (pack: tar.Pack, name: string, body: Buffer, mode = 0o600) =>
  new Promise<void>((resolve, reject) =>
    pack.entry({ name, mode, size: body.length }, body, (err) => (err ? reject(err) : resolve())),
  );

/**
 * A file as it is now. The server may extend or truncate it while we read (the WAL replayed at
 * restore repairs either): the entry is the size seen at the start, padded with zeros if the file
 * shrank, as pg_basebackup does. Returns the bytes copied, or -1 if the file is gone.
 */
async function addFile(pack: tar.Pack, full: string, name: string): Promise<number> {
  let handle;
  try {
    handle = await open(full, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return -1;
    throw err;
  }
  try {
    const { size } = await handle.stat();
    const entry = pack.entry({ name, mode: 0o600, size });
    const chunk = Buffer.alloc(1 << 20);
    let done = 0;
    while (done < size) {
      const want = Math.min(chunk.length, size - done);
      const { bytesRead } = await handle.read(chunk, 0, want, done);
      const piece = bytesRead > 0 ? Buffer.from(chunk.subarray(0, bytesRead)) : Buffer.alloc(want);
      done += piece.length;
      if (!entry.write(piece)) await once(entry, 'drain');
    }
    entry.end();
    await once(entry, 'finish');
    return size;
  } finally {
    await handle.close();
  }
}

async function migrationsOf(client: pg.Client): Promise<string[]> {
  const rows = (await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name'))
    .rows;
  return rows.map((r) => r.name);
}

/** The counted tables' rows (a table missing from an older schema counts 0). */
export async function countsOf(client: pg.Client): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const exists = (await client.query('SELECT to_regclass($1) AS t', [`public.${table}`])).rows[0]?.t;
    counts[table] = exists
      ? Number((await client.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]?.n ?? 0)
      : 0;
  }
  return counts;
}

/** Reads a backup's manifest without unpacking the cluster. */
export async function readManifest(file: string): Promise<BackupManifest> {
  let manifest: BackupManifest | undefined;
  await walkArchive(file, async (header, body) => {
    if (header.name === MANIFEST) manifest = JSON.parse((await bodyOf(body)).toString('utf8'));
    else body.resume();
  });
  if (!manifest || manifest.format !== BACKUP_FORMAT) {
    throw new BackupError(`${file} is not a Wren backup (no ${MANIFEST} of format ${BACKUP_FORMAT}).`);
  }
  return manifest;
}

/**
 * Restores `file` into `dataDir`, which must hold no database yet, then starts the cluster (it
 * replays the archived WAL to the backup's end), checks the counts against the manifest and stops
 * it. A failed restore leaves no half-made cluster behind. The archive's data-dir secrets replace
 * the target's (a new DATA_DIR's generated JWT secret protects nothing yet; the backed-up one is
 * what the two-factor secrets were encrypted under).
 */
export async function restoreEmbedded(opts: {
  dataDir: string;
  file: string;
  log?: (line: string) => void;
}): Promise<{ manifest: BackupManifest; counts: Record<string, number> }> {
  const root = path.resolve(opts.dataDir);
  const file = path.resolve(opts.file);
  if (!existsSync(file)) throw new BackupError(`There is no backup at ${file}.`);
  const clusterDir = embeddedPaths(root).cluster;
  if (existsSync(clusterDir)) {
    throw new BackupError(
      `${root} already holds a database (${clusterDir}). Restore into a new DATA_DIR, or move that directory away first.`,
    );
  }
  const manifest = await readManifest(file);
  mkdirSync(root, { recursive: true });
  try {
    await unpackBackup(file, root);
    const cluster = await startEmbeddedPostgres({ root, database: EMBEDDED_DATABASE, log: opts.log }).catch(
      (err: unknown) => {
        throw new BackupError(
          `The restored database did not start, so nothing was restored: ${(err as Error).message}`,
        );
      },
    );
    try {
      const client = new pg.Client({ connectionString: cluster.url(EMBEDDED_DATABASE) });
      await client.connect();
      try {
        const counts = await countsOf(client);
        const short = COUNTED_TABLES.filter((t) => counts[t] !== manifest.counts[t]);
        if (short.length) {
          throw new BackupError(
            `The restored database does not match its backup: ${short.map((t) => `${t} ${counts[t]} of ${manifest.counts[t]}`).join(', ')}.`,
          );
        }
        // Balances are the ledger's sums (the cached balance is written under the ledger's lock).
        const drift = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM accounts a WHERE a.balance_minor <>
             (SELECT coalesce(sum(l.amount_minor), 0) FROM ledger_entries l WHERE l.account_id = a.id)`,
        );
        if (drift.rows[0]?.n) {
          throw new BackupError(
            `The restored database has ${drift.rows[0].n} balances that differ from their ledger.`,
          );
        }
        return { manifest, counts };
      } finally {
        await client.end();
      }
    } finally {
      await cluster.stop();
    }
  } catch (err) {
    await rm(clusterDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Writes a backup's cluster and data-dir secrets under `root` (no manifest check, no start). Also
 * how a read replica is made from a base backup (with `standby.signal` and `primary_conninfo`).
 */
export async function unpackBackup(file: string, root: string): Promise<void> {
  mkdirSync(root, { recursive: true });
  await walkArchive(file, async (header, body) => {
    const target = safeTarget(root, header.name);
    if (target && header.type === 'directory') mkdirSync(target, { recursive: true, mode: 0o700 });
    if (!target || header.type !== 'file') {
      body.resume();
      return;
    }
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    await pipeline(body, createWriteStream(target, { mode: 0o600 }));
  });
}

/** Where an archive entry goes under `root`: `pg/…` and `data/<secret>`; nothing else, no `..`. */
function safeTarget(root: string, name: string): string | null {
  const normal = path.posix.normalize(name);
  if (normal.startsWith('..') || path.posix.isAbsolute(normal)) return null;
  if (normal === 'pg' || normal.startsWith('pg/')) return path.join(root, normal);
  const [dir, base, ...rest] = normal.split('/');
  if (dir === 'data' && base && !rest.length && DATA_FILES.includes(base)) return path.join(root, base);
  return null;
}

type EntryBody = NodeJS.ReadableStream & { resume(): void };

async function walkArchive(
  file: string,
  onEntry: (header: tar.Headers, body: EntryBody) => Promise<void> | void,
): Promise<void> {
  const extract = tar.extract();
  const done = pipeline(createReadStream(file), createGunzip(), extract);
  for await (const entry of extract) {
    await onEntry(entry.header, entry);
  }
  await done;
}

async function bodyOf(body: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of body) parts.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(parts);
}
