import { mkdirSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { backupCluster, type BackupManifest } from './backup';
import type { Logger } from './logger';

/** The daily backups' pg-boss chain: it looks hourly and backs up when the newest copy is a day old. */
export const DAILY_BACKUP_JOB = 'backup.daily';
export const DAILY_BACKUP_CHECK_SECONDS = 3600;
/** A copy younger than this counts as today's (an hour of slack for the hourly look). */
const DAY_MS = 23 * 3600_000;
const NAME = /^wren-(\d{8}T\d{6}Z)\.tar\.gz$/;

export const backupsDir = (dataDir: string) => path.join(dataDir, 'backups');
const nameAt = (now: Date) =>
  `wren-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;

/** The daily copies in `dir`, newest first (other files there are left alone). */
export async function listDailyBackups(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => NAME.test(n)).sort((a, b) => b.localeCompare(a));
}

/**
 * One look of the daily backup (BACKUP_DAILY_KEEP > 0, embedded database only): when the newest copy
 * in `$DATA_DIR/backups` is older than a day, a new one is made, and copies beyond `keep` are removed
 * (the oldest first; only once the new one is whole). Returns the new copy's manifest, or null.
 */
export async function runDailyBackup(opts: {
  cluster: { root: string; url: string };
  keep: number;
  now: Date;
  logger: Logger;
}): Promise<BackupManifest | null> {
  const dir = backupsDir(opts.cluster.root);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const [newest] = await listDailyBackups(dir);
  if (newest && opts.now.getTime() - (await stat(path.join(dir, newest))).mtimeMs < DAY_MS) return null;
  const file = path.join(dir, nameAt(opts.now));
  const started = Date.now();
  const manifest = await backupCluster(opts.cluster, file);
  const removed = (await listDailyBackups(dir)).slice(opts.keep);
  for (const old of removed) await rm(path.join(dir, old), { force: true });
  opts.logger.info(
    { file, bytes: manifest.bytes, ms: Date.now() - started, removed },
    'daily backup of the embedded database written',
  );
  return manifest;
}
