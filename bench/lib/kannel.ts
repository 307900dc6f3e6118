import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Kannel's boxes from Debian's `kannel` package; installed with apt-get if missing. */
export function ensureKannel(): { bearerbox: string; smsbox: string; version: string } {
  const bearerbox = '/usr/sbin/bearerbox';
  const smsbox = '/usr/sbin/smsbox';
  if (!existsSync(bearerbox) || !existsSync(smsbox)) {
    console.log('Kannel is missing: apt-get install -y kannel (Debian package)');
    execFileSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq kannel'], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 600_000,
    });
  }
  let version = 'unknown';
  try {
    version = execFileSync('dpkg-query', ['-W', '-f=${Version}', 'kannel'], { encoding: 'utf8' });
  } catch {
    /* not a Debian install */
  }
  return { bearerbox, smsbox, version };
}

export interface KannelOptions {
  smscPort: number;
  adminPort: number;
  smsboxPort: number;
  sendsmsPort: number;
  /** max-pending-submits: outstanding submit_sm on the bind. */
  window: number;
  /** BENCH_KANNEL_STORE=file keeps Kannel's message store on disk, as Wren's messages are. */
  store?: 'file';
  /** The bind's system_id and password (default wren / wrenpass, the simulator's). */
  systemId?: string;
  password?: string;
  /** Let sendsms split long texts into concatenated parts (UDH), up to 10 (default: one part, no UDH). */
  concatenation?: boolean;
  /**
   * Run Kannel's opensmppbox (an SMPP server for clients; bench/lib/build-opensmppbox.sh builds it)
   * instead of smsbox: it listens on `port`, takes the one login given, and routes to the smsc.
   */
  opensmppbox?: { bin: string; port: number; systemId: string; password: string };
}

export const KANNEL_USER = { username: 'bench', password: 'benchpass' };
const ADMIN_PASSWORD = 'benchadmin';

function config(o: KannelOptions, dir: string) {
  return `group = core
admin-port = ${o.adminPort}
admin-password = ${ADMIN_PASSWORD}
admin-interface = 127.0.0.1
admin-allow-ip = 127.0.0.1
smsbox-port = ${o.smsboxPort}
smsbox-interface = 127.0.0.1
box-allow-ip = 127.0.0.1
log-file = "${dir}/bearerbox.log"
log-level = 2
dlr-storage = internal
${o.store === 'file' ? `store-type = file\nstore-location = "${dir}/kannel.store"\n` : ''}
group = smsc
smsc = smpp
smsc-id = sim
host = 127.0.0.1
port = ${o.smscPort}
receive-port = 0
transceiver-mode = true
smsc-username = ${o.systemId ?? 'wren'}
smsc-password = ${o.password ?? 'wrenpass'}
system-type = ""
# ids are decimal numbers in submit_sm_resp and in receipts (bit 1: response hex, bit 2: receipt hex)
msg-id-type = 0x00
max-pending-submits = ${o.window}
reconnect-delay = 1
enquire-link-interval = 30

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${o.smsboxPort}
sendsms-port = ${o.sendsmsPort}
sendsms-interface = 127.0.0.1
log-file = "${dir}/smsbox.log"
log-level = 2

group = sendsms-user
username = ${KANNEL_USER.username}
password = ${KANNEL_USER.password}
max-messages = ${o.concatenation ? 10 : 1}
concatenation = ${o.concatenation ? 'true' : 'false'}
`;
}

/**
 * opensmppbox's own config file: it reads the core group too (dlr-storage, store-type), so it gets
 * its own, without bearerbox's store. One login, its system_id also the box id bearerbox routes by.
 */
function opensmppboxConfig(o: NonNullable<KannelOptions['opensmppbox']>, smsboxPort: number, dir: string) {
  writeFileSync(path.join(dir, 'smpplogins.txt'), `${o.systemId} ${o.password} bench 127.0.0.1\n`);
  return `group = core
dlr-storage = internal

group = opensmppbox
opensmppbox-id = osb
opensmppbox-port = ${o.port}
bearerbox-host = 127.0.0.1
bearerbox-port = ${smsboxPort}
log-file = "${dir}/opensmppbox.log"
log-level = 2
our-system-id = kannel
route-to-smsc = sim
use-systemid-as-smsboxid = true
smpp-logins = "${dir}/smpplogins.txt"
`;
}

export interface Kannel {
  bearerbox: ChildProcess;
  /** The box: smsbox, or opensmppbox when started with `opensmppbox`. */
  smsbox: ChildProcess;
  dir: string;
  /** Messages Kannel has submitted to the SMSC so far (submit_sm_resp OK), from the admin status. */
  sent(): Promise<number>;
  logTail(): string;
  stop(): Promise<void>;
}

async function adminStatus(port: number) {
  const res = await fetch(`http://127.0.0.1:${port}/status.txt?password=${ADMIN_PASSWORD}`, {
    signal: AbortSignal.timeout(2000),
  });
  return res.text();
}

/** Starts bearerbox and smsbox on a generated config; resolves once the SMPP bind and smsbox are up. */
export async function startKannel(
  bins: { bearerbox: string; smsbox: string },
  o: KannelOptions,
): Promise<Kannel> {
  const dir = mkdtempSync(path.join(tmpdir(), 'kannel-bench-'));
  const conf = path.join(dir, 'kannel.conf');
  writeFileSync(conf, config(o, dir));
  // -v 2: warnings and worse on stderr, as Wren runs with LOG_LEVEL=warn.
  const start = (bin: string, file = conf) => {
    const stderr = openSync(path.join(dir, `${path.basename(bin)}.stderr`), 'a');
    const child = spawn(bin, ['-v', '2', file], { cwd: dir, stdio: ['ignore', 'ignore', stderr] });
    closeSync(stderr);
    return child;
  };
  const bearerbox = start(bins.bearerbox);
  const children: ChildProcess[] = [bearerbox];
  const logTail = () =>
    [
      'bearerbox.log',
      'bearerbox.stderr',
      'smsbox.log',
      'smsbox.stderr',
      'opensmppbox.log',
      'opensmppbox.stderr',
    ]
      .map((f) => {
        try {
          return `--- ${f}\n${readFileSync(path.join(dir, f), 'utf8').split('\n').slice(-15).join('\n')}`;
        } catch {
          return '';
        }
      })
      .join('\n');
  const stop = async () => {
    // smsbox first, then bearerbox; each gets 10 s to shut down cleanly before SIGKILL.
    for (const child of [...children].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (!process.env.BENCH_KEEP_LOGS) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('bearerbox admin port', bearerbox, async () => (await adminStatus(o.adminPort)).length > 0);
    const osb = o.opensmppbox;
    let smsbox: ChildProcess;
    if (osb) {
      // opensmppbox connects to bearerbox per client bind: ready once the smsc is bound and it listens.
      await waitFor('SMPP bind', bearerbox, async () =>
        /sim\[sim\].*\(online \d/.test(await adminStatus(o.adminPort)),
      );
      const osbConf = path.join(dir, 'opensmppbox.conf');
      writeFileSync(osbConf, opensmppboxConfig(osb, o.smsboxPort, dir));
      smsbox = start(osb.bin, osbConf);
      children.push(smsbox);
      await waitFor('opensmppbox port', smsbox, () => portOpen(osb.port));
    } else {
      smsbox = start(bins.smsbox);
      children.push(smsbox);
      await waitFor('SMPP bind and smsbox', smsbox, async () => {
        const s = await adminStatus(o.adminPort);
        return /sim\[sim\].*\(online \d/.test(s) && /smsbox:.*on-line/.test(s);
      });
    }
    return {
      bearerbox,
      smsbox,
      dir,
      logTail,
      stop,
      async sent() {
        const s = await adminStatus(o.adminPort);
        const m = /SMS: received \d+ \(\d+ queued\), sent (\d+)/.exec(s);
        return m ? Number(m[1]) : 0;
      },
    };
  } catch (err) {
    console.error(logTail());
    await stop();
    throw err;
  }
}

function portOpen(port: number) {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function waitFor(what: string, child: ChildProcess, ready: () => Promise<boolean>) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if (await ready()) return;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`Kannel exited (${child.exitCode}) waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`Kannel: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
