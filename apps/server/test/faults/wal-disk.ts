import { execFileSync, spawnSync } from 'node:child_process';
import {
  chownSync,
  cpSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * PostgreSQL's WAL on a small filesystem of its own (a tmpfs mounted in the run's directory), so
 * the fault run can fill it: the `wal-disk-full` fault. Only as root (mount needs it); elsewhere the
 * fault is left out of the schedule and the run says so.
 */
export interface WalDisk {
  /** Fills the filesystem to the last byte; `free()` removes the filler. */
  fill(): Promise<number>;
  free(): Promise<void>;
  unmount(): void;
}

export function walDiskAvailable(): boolean {
  return process.getuid?.() === 0 && process.platform === 'linux';
}

/**
 * Moves `clusterDir`'s pg_wal onto a new tmpfs of `sizeMb` (the cluster must be stopped) and leaves a
 * symlink in its place, as `initdb --waldir` does.
 */
export function moveWalToTmpfs(clusterDir: string, mountDir: string, sizeMb: number): WalDisk {
  mkdirSync(mountDir, { recursive: true });
  // Throws (nothing moved yet) where mounting is not allowed, e.g. in a container without CAP_SYS_ADMIN.
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', mountDir], {
    stdio: 'pipe',
  });
  const walDir = path.join(mountDir, 'pg_wal');
  const old = path.join(clusterDir, 'pg_wal');
  cpSync(old, walDir, { recursive: true });
  const owner = statSync(clusterDir);
  const chownAll = (p: string) => {
    chownSync(p, owner.uid, owner.gid);
    if (statSync(p).isDirectory()) for (const e of readdirSync(p)) chownAll(path.join(p, e));
  };
  chownSync(mountDir, owner.uid, owner.gid);
  chownAll(walDir);
  renameSync(old, `${old}.moved`);
  symlinkSync(walDir, old);
  rmSync(`${old}.moved`, { recursive: true, force: true });
  const filler = path.join(mountDir, 'filler');
  return {
    async fill() {
      const f = await open(filler, 'w');
      const chunk = Buffer.alloc(1 << 20);
      let written = 0;
      try {
        for (;;) written += (await f.write(chunk)).bytesWritten;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        // The last partial megabyte too, so not one WAL page fits.
        for (let size = 1 << 19; size >= 512; size >>= 1) {
          try {
            written += (await f.write(Buffer.alloc(size))).bytesWritten;
          } catch {
            // full at this size: try a smaller one
          }
        }
      } finally {
        await f.close();
      }
      return written;
    },
    free: () => rm(filler, { force: true }),
    unmount() {
      spawnSync('umount', ['-l', mountDir]);
    },
  };
}
