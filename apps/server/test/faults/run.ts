/**
 * `npm run test:faults`: Wren's guarantees under a seeded schedule of faults (issue 44 item 1).
 *
 * A cluster on this machine: one PostgreSQL (the embedded binaries, durable) behind a TCP proxy,
 * 2 API nodes and 2 worker nodes (real `wren start` processes), two SMSC simulators. A mixed load
 * runs while the schedule kills nodes (-9), restarts PostgreSQL (immediate), cuts and stalls its
 * connections, and disconnects, slows and garbles the SMSCs' receipts. Then every acknowledged
 * message must end in exactly one final status, within the at-least-once bound, with every
 * Idempotency-Key one message, the ledger exact, only 503s with Retry-After during outages, and
 * every node ready again. Prints a table; exits 1 on any failure, naming the seed.
 *
 * FAULTS_SEED (default: random), FAULTS_MINUTES (of load; default 1.5), FAULTS_CAMPAIGN
 * (recipients; default 20000), FAULTS_KINDS (a comma list: only these faults), FAULTS_KEEP=1 keeps
 * the run directory (logs of every node).
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import {
  startEmbeddedPostgres,
  embeddedPaths,
  type EmbeddedPostgres,
} from '../../src/platform/embedded-postgres';
import { openPostgres } from '../../src/platform/db';
import { migrate } from '../../src/platform/migrate';
import { check } from './checker';
import { createNode, type WrenNode } from './cluster';
import { newRecord, runLoad, sessionHeaders, type Session } from './load';
import { startPgProxy } from './pg-proxy';
import { FAULT_KINDS, planFaults, seeded, type PlannedFault } from './schedule';
import { moveWalToTmpfs, walDiskAvailable, type WalDisk } from './wal-disk';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const seed = Number(process.env.FAULTS_SEED ?? Math.floor(Math.random() * 2 ** 31));
const loadSeconds = Math.round(Number(process.env.FAULTS_MINUTES ?? 1.5) * 60);
const campaignSize = Number(process.env.FAULTS_CAMPAIGN ?? 20_000);
const rng = seeded(seed);
/** FAULTS_KINDS=a,b: only these kinds (to reproduce one kind of fault). */
const onlyKinds = process.env.FAULTS_KINDS?.split(',').map((k) => k.trim());
const runDir = mkdtempSync(path.join(tmpdir(), 'wren-faults-'));
const t0 = Date.now();
const say = (line: string) =>
  console.log(`[faults ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  say(`seed ${seed}, ${loadSeconds} s of load, campaign of ${campaignSize}, run dir ${runDir}`);
  const pgRoot = path.join(runDir, 'pg-root');
  // WAL kept small, so that it fits the WAL filesystem of the wal-disk-full fault.
  const settings = { min_wal_size: '64MB', max_wal_size: '512MB' };
  const startPg = () => startEmbeddedPostgres({ root: pgRoot, database: 'wren', settings });
  let cluster: EmbeddedPostgres = await startPg();
  let walDisk: WalDisk | null = null;
  if (walDiskAvailable()) {
    await cluster.stop();
    try {
      walDisk = moveWalToTmpfs(embeddedPaths(pgRoot).cluster, path.join(runDir, 'wal-fs'), 1024);
      const disk = walDisk;
      process.on('exit', () => disk.unmount());
    } catch (err) {
      say(
        `no tmpfs for the WAL (${(err as Error).message.split('\n')[0]}): the wal-disk-full fault is left out`,
      );
    }
    cluster = await startPg();
  } else say('not root: the wal-disk-full fault is left out (it mounts a tmpfs)');
  const proxy = await startPgProxy(cluster.port);
  const password = readFileSync(embeddedPaths(pgRoot).passwordFile, 'utf8').trim();
  const databaseUrl = `postgres://wren:${password}@127.0.0.1:${proxy.port}/wren`;
  const direct = () => `postgres://wren:${password}@127.0.0.1:${cluster.port}/wren`;
  const db = await openPostgres(direct(), 2);
  await migrate(db);
  await db.close();

  // Two SMSCs; every submit counted by destination and text (what the checker compares).
  const submits = new Map<string, number>();
  const otpCodes = new Map<string, string>();
  const sims: SmscHandle[] = [];
  for (let i = 0; i < 2; i++) {
    const sim = await startSmsc({
      port: 0,
      host: '127.0.0.1',
      receiptDelayMs: [20, 400],
      credentials: [{ systemId: 'wren', password: 'wrenpass' }],
      seed: seed + i,
    });
    sim.on('submit', (m) => {
      const key = `${m.dest.replace(/^\+/, '')}|${m.text}`;
      submits.set(key, (submits.get(key) ?? 0) + 1);
      const code = /code is (\w+)/.exec(m.text)?.[1];
      if (code) otpCodes.set(`+${m.dest.replace(/^\+/, '')}`, code);
    });
    sims.push(sim);
  }
  const BINDS = 2;
  const WINDOW = 50;
  const env = {
    DATABASE_URL: databaseUrl,
    JWT_SECRET: 'fault-run-secret-0123456789abcdef',
    LOG_LEVEL: 'warn',
    CAPTCHA: 'false',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    LEASE_SECONDS: '5',
    WEB_DIST: path.join(runDir, 'no-web'),
    SMSC_CONNECTIONS: JSON.stringify(
      sims.map((s, i) => ({
        name: `smsc-${i}`,
        host: '127.0.0.1',
        port: s.port,
        systemId: 'wren',
        password: 'wrenpass',
        binds: BINDS,
        window: WINDOW,
        tps: 0,
        // One default route; the campaign's numbers (+1 310) go to the second SMSC.
        prefixes: i === 0 ? [] : ['+1310'],
      })),
    ),
    SMSC_RECEIPT_TIMEOUT_MINUTES: '1',
    SMSC_OTP_RECEIPT_TIMEOUT_MINUTES: '1',
    SMSC_RESPONSE_TIMEOUT_MS: '3000',
    SMSC_RECONNECT_BASE_MS: '200',
  };
  const mk = (name: string, role: 'api' | 'worker') => createNode({ name, role, serverRoot, runDir, env });
  const apis = [await mk('api-1', 'api'), await mk('api-2', 'api')];
  const workers = [await mk('worker-1', 'worker'), await mk('worker-2', 'worker')];
  const nodes: WrenNode[] = [...apis, ...workers];
  await Promise.all(nodes.map((n) => n.start()));
  say(
    `cluster up: ${nodes.map((n) => `${n.name}:${n.port}`).join(', ')}; PostgreSQL via proxy :${proxy.port}`,
  );

  const session = await setUpAccount(apis[0]!.url, direct());
  const record = newRecord();
  const urls = () => apis.filter((a) => a.running).map((a) => a.url);

  // The campaign, sent through any API node (retried until acknowledged: a 503 or a dead node).
  const numbers = Array.from(
    { length: campaignSize },
    (_, i) => `+1310${String(2_000_000 + i).padStart(7, '0')}`,
  );
  const sendCampaign = async () => {
    // Uploaded as a file (pasted lists stop at 10,000), then sent from the upload.
    let uploadId: string | null = null;
    for (let tries = 0; tries < 30 && !record.campaignId; tries++) {
      const url = urls()[0];
      if (!url) {
        await sleep(500);
        continue;
      }
      let res: Response | null;
      if (!uploadId) {
        const form = new FormData();
        form.append(
          'file',
          new Blob([`phone\n${numbers.join('\n')}\n`], { type: 'text/csv' }),
          'fault-run.csv',
        );
        res = await fetch(`${url}/api/campaigns/uploads`, {
          method: 'POST',
          headers: sessionHeaders(session),
          body: form,
        }).catch(() => null);
        if (res?.status === 201) uploadId = ((await res.json()) as { uploadId: string }).uploadId;
      } else {
        res = await fetch(`${url}/api/campaigns`, {
          method: 'POST',
          headers: { ...sessionHeaders(session), 'content-type': 'application/json' },
          body: JSON.stringify({
            name: 'Fault campaign',
            uploadId,
            phoneColumn: 'phone',
            text: 'Fault campaign',
          }),
        }).catch(() => null);
        if (res?.status === 202) {
          record.campaignId = ((await res.json()) as { campaign: { id: string } }).campaign.id;
          record.campaignRecipients = campaignSize;
        }
      }
      if (!res || res.status >= 300) {
        say(`campaign send: ${res ? `${res.status} ${(await res.text()).slice(0, 200)}` : 'no answer'}`);
        await sleep(1000);
      }
    }
  };

  // The schedule.
  const planned = planFaults(
    rng,
    loadSeconds,
    FAULT_KINDS.filter((k) => (k !== 'wal-disk-full' || walDisk) && (!onlyKinds || onlyKinds.includes(k))),
  );
  const applied: (PlannedFault & { detail: string })[] = [];
  let stopping = false;
  const t1 = Date.now();
  const restartPg = async () => {
    const pid = Number(
      readFileSync(path.join(embeddedPaths(pgRoot).cluster, 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    process.kill(pid, 'SIGQUIT'); // immediate shutdown: no checkpoint, crash recovery at start
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
        await sleep(50);
      } catch {
        break;
      }
    }
    proxy.cut();
    cluster = await startPg();
    proxy.setUpstream(cluster.port);
  };
  /** Starts PostgreSQL again if it stopped (a PANIC on a full WAL disk ends the postmaster). */
  const ensurePg = async () => {
    const pidFile = path.join(embeddedPaths(pgRoot).cluster, 'postmaster.pid');
    let alive = false;
    try {
      process.kill(Number(readFileSync(pidFile, 'utf8').split('\n')[0]), 0);
      alive = true;
    } catch {
      alive = false;
    }
    if (alive) return false;
    cluster = await startPg();
    proxy.setUpstream(cluster.port);
    return true;
  };
  const apply = async (f: PlannedFault): Promise<string> => {
    const sim = sims[f.target]!;
    const later = (ms: number, fn: () => Promise<unknown> | void) =>
      void sleep(ms)
        .then(fn)
        .catch((err: unknown) => say(`undoing ${f.kind} failed: ${String(err)}`));
    switch (f.kind) {
      case 'kill-api':
      case 'kill-worker': {
        const node = (f.kind === 'kill-api' ? apis : workers)[f.target]!;
        await node.kill();
        later(f.seconds * 1000, () => node.start());
        return `${node.name} killed, restarted after ${f.seconds} s`;
      }
      case 'pg-restart':
        await restartPg();
        return `PostgreSQL restarted (-m immediate), now :${cluster.port}`;
      case 'pg-cut':
        return `cut ${proxy.cut()} PostgreSQL connections`;
      case 'pg-stall':
        proxy.stall(f.seconds * 1000);
        return `PostgreSQL connections stalled ${f.seconds} s`;
      case 'smsc-disconnect':
        sim.dropAll();
        return `smsc-${f.target} dropped every session`;
      case 'smsc-slow':
        sim.setOptions({ slowResponseMs: 4000 });
        later(f.seconds * 1000, () => sim.setOptions({ slowResponseMs: undefined }));
        return `smsc-${f.target} answers in 4 s (over the 3 s timeout) for ${f.seconds} s`;
      case 'receipts-duplicated':
        sim.setOptions({ duplicateReceipts: true });
        later(f.seconds * 1000, () => sim.setOptions({ duplicateReceipts: undefined }));
        return `smsc-${f.target} sends every receipt twice for ${f.seconds} s`;
      case 'receipts-reordered':
        sim.setOptions({ outOfOrderReceipts: true });
        later(f.seconds * 1000, () => sim.setOptions({ outOfOrderReceipts: undefined }));
        return `smsc-${f.target} shuffles receipts for ${f.seconds} s`;
      case 'receipts-early':
        sim.setOptions({ receiptBeforeResp: true });
        later(f.seconds * 1000, () => sim.setOptions({ receiptBeforeResp: undefined }));
        return `smsc-${f.target} sends receipts before submit_sm_resp for ${f.seconds} s`;
      case 'wal-disk-full': {
        const disk = walDisk!;
        const bytes = await disk.fill();
        // Writes go on into the WAL files already there; switching files makes PostgreSQL need a
        // new one, which no longer fits.
        const switched = await forceNewWalFile(direct());
        later(f.seconds * 1000, async () => {
          await disk.free();
          // PostgreSQL may have stopped (PANIC: no space for WAL): started again, as an operator would.
          if (await ensurePg())
            say(`wal-disk-full: PostgreSQL had stopped; started again on :${cluster.port}`);
        });
        return `PostgreSQL's WAL disk filled (${(bytes / 1048576).toFixed(0)} MB of filler) for ${f.seconds} s; a new WAL file: ${switched}`;
      }
      case 'receipts-lost':
        sim.setOptions({ loseReceiptsOnRestart: true });
        await sim.restart({ downMs: f.seconds * 1000 });
        sim.setOptions({ loseReceiptsOnRestart: undefined });
        return `smsc-${f.target} restarted and lost its pending receipts (down ${f.seconds} s)`;
    }
  };
  const schedule = (async () => {
    for (const f of planned) {
      const wait = t1 + f.at * 1000 - Date.now();
      if (wait > 0) await sleep(wait);
      if (stopping) return;
      const detail = await apply(f).catch((err: unknown) => `FAILED TO INJECT: ${String(err)}`);
      applied.push({ ...f, detail });
      say(`fault ${f.kind}: ${detail}`);
    }
  })();

  const load = runLoad({ record, session, urls, rng, stop: () => stopping, concurrency: 4, otpCodes });
  await sendCampaign();
  say(record.campaignId ? `campaign ${record.campaignId} acknowledged` : 'campaign never acknowledged');
  await sleep(Math.max(0, t1 + loadSeconds * 1000 - Date.now()));
  stopping = true;
  await Promise.all([load, schedule]);
  say(`load stopped: ${record.acks.size} acknowledged, ${record.unknown} unknown (connection failed)`);

  // Faults off; every node must come back on its own (restarted processes), then the backlog drains.
  for (const s of sims)
    s.setOptions({
      slowResponseMs: undefined,
      duplicateReceipts: undefined,
      outOfOrderReceipts: undefined,
      receiptBeforeResp: undefined,
    });
  await sleep(6000); // the last restarts
  if (await ensurePg()) say('PostgreSQL had stopped: started again');
  for (const n of nodes) if (!n.running) await n.start();
  const unrecovered: string[] = [];
  for (const n of nodes) {
    let ok = false;
    for (let i = 0; i < 60 && !ok; i++) ok = (await n.ready()) || (await sleep(500), false);
    if (!ok) unrecovered.push(n.name);
  }
  await cancelLeftovers(record, urls, session);
  const settled = await settle(direct(), record, 150_000);
  say(settled ? 'every acknowledged message is final' : 'settle deadline passed with messages not final');

  const verdict = await check({
    databaseUrl: direct(),
    record,
    submits,
    faults: applied,
    inFlight: BINDS * WINDOW * sims.length,
    unrecovered,
  });
  printTable(applied, verdict, record);
  writeFileSync(path.join(runDir, 'verdict.json'), JSON.stringify({ seed, applied, verdict }, null, 2));

  await Promise.all(nodes.map((n) => n.stop()));
  for (const s of sims) await s.close();
  await proxy.close();
  await cluster.stop();
  walDisk?.unmount();
  if (!verdict.ok) {
    console.log(
      `\nFAULT RUN FAILED. Reproduce with: FAULTS_SEED=${seed} FAULTS_MINUTES=${loadSeconds / 60} npm run test:faults (logs: ${runDir})`,
    );
    process.exit(1);
  }
  if (!process.env.FAULTS_KEEP) rmSync(runDir, { recursive: true, force: true });
  console.log(`\nfault run passed (seed ${seed}) in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

/** Registers the run's user, makes it an operator to credit it, and makes its API key and OTP service. */
async function setUpAccount(url: string, databaseUrl: string): Promise<Session> {
  // The double-submit token every session POST carries (the same on every node).
  const xsrfRes = await fetch(`${url}/api/auth/xsrf`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(xsrfRes.headers.getSetCookie().join('; '))?.[1] ?? '';
  const post = async (p: string, body: unknown, token?: string) => {
    const res = await fetch(url + p, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `XSRF-TOKEN=${xsrf}`,
        'x-xsrf-token': xsrf,
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const creds = { username: 'faultrun', password: 'correct horse 42' };
  const reg = await post('/api/auth/register', {
    ...creds,
    name: 'Fault Run',
    email: 'faults@example.com',
    phone: '+14155550123',
  });
  const pgc = new (await import('pg')).default.Client({ connectionString: databaseUrl });
  await pgc.connect();
  await pgc.query("UPDATE users SET role = 'admin' WHERE username = $1", [creds.username]);
  await pgc.end();
  const login = await post('/api/auth/login', creds);
  const token = login.accessToken as string;
  await post(
    `/api/admin/accounts/${reg.user.accountId}/adjustments`,
    { amountMinor: 50_000_000, reason: 'Fault run credit' },
    token,
  );
  const key = await post(
    '/api/api-keys',
    { name: 'Fault run', scopes: ['sms:send', 'sms:read', 'balance:read', 'otp'] },
    token,
  );
  const otp = await post(
    '/api/otp-services',
    { name: 'Fault', template: 'Your {{service}} code is {{code}}. Valid {{minutes}} min.' },
    token,
  );
  return { accessToken: token, apiKey: key.secret as string, otpServiceId: otp.id as string, xsrf };
}

/** Asks PostgreSQL to start new WAL files (pg_switch_wal); what it answered. */
async function forceNewWalFile(databaseUrl: string): Promise<string> {
  const pgc = new (await import('pg')).default.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: 3000,
  });
  pgc.on('error', () => undefined);
  try {
    await pgc.connect();
    for (let i = 0; i < 4; i++) {
      await pgc.query(
        "CREATE TEMP TABLE IF NOT EXISTS wal_push (v text); INSERT INTO wal_push VALUES (repeat('x', 100))",
      );
      await pgc.query('SELECT pg_switch_wal()');
    }
    return 'written (a recycled file had room)';
  } catch (err) {
    return `refused (${(err as Error).message.slice(0, 80)})`;
  } finally {
    await pgc.end().catch(() => undefined);
  }
}

/** A scheduled send whose cancel was not acknowledged is canceled again (as its client would). */
async function cancelLeftovers(record: ReturnType<typeof newRecord>, urls: () => string[], session: Session) {
  for (const a of record.acks.values()) {
    if (a.kind !== 'scheduled' || record.canceled.has(a.id)) continue;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${urls()[0]}/api/sms/log/${a.id}/cancel`, {
        method: 'POST',
        headers: sessionHeaders(session),
      }).catch(() => null);
      if (res && (res.status === 200 || res.status === 409)) break;
      await sleep(500);
    }
  }
}

/** Waits until every acknowledged message (and the campaign's) is final, or `ms` pass. */
async function settle(databaseUrl: string, record: ReturnType<typeof newRecord>, ms: number) {
  const pgc = new (await import('pg')).default.Client({ connectionString: databaseUrl });
  await pgc.connect();
  try {
    const deadline = Date.now() + ms;
    const ids = [...record.acks.keys()];
    for (;;) {
      const open = await pgc.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM messages
          WHERE (id = ANY($1::uuid[]) OR campaign_id = $2)
            AND status NOT IN ('delivered','undelivered','expired','rejected','unknown','failed','canceled')`,
        [ids, record.campaignId],
      );
      if (open.rows[0]!.n === 0) return true;
      if (Date.now() > deadline) return false;
      await sleep(2000);
    }
  } finally {
    await pgc.end();
  }
}

function printTable(
  applied: { kind: string }[],
  v: Awaited<ReturnType<typeof check>>,
  record: ReturnType<typeof newRecord>,
) {
  const byKind = new Map<string, number>();
  for (const f of applied) byKind.set(f.kind, (byKind.get(f.kind) ?? 0) + 1);
  const rows: [string, string, string][] = [
    ['faults injected', String(applied.length), [...byKind].map(([k, n]) => `${k} ${n}`).join(', ')],
    [
      'messages acknowledged',
      String(v.acknowledged + v.campaign),
      `${v.acknowledged} by single requests, ${v.campaign} by the campaign`,
    ],
    ['lost or missing', String(v.lost.length), 'goal 0'],
    ['not final', String(v.notFinal.length), 'goal 0'],
    [
      'duplicate submits',
      String(v.duplicated),
      `bound ${v.duplicateBound} (faults that can resend × ${v.duplicateBound && v.maxSubmitsBound > 1 ? v.duplicateBound / (v.maxSubmitsBound - 1) : 0} in flight)`,
    ],
    ['most submits of one message', String(v.maxSubmits), `bound ${v.maxSubmitsBound}`],
    ['receipts on unsent messages', String(v.phantom.length), 'goal 0'],
    [
      'Idempotency-Keys with ≠ 1 message',
      String(v.idempotencyBroken.length),
      `${record.idempotency.size} keys`,
    ],
    ['ledger drift (accounts)', String(v.ledgerDrift), 'goal 0'],
    ['ledger below zero (entries)', String(v.belowZero), 'goal 0'],
    ['5xx other than 503 + Retry-After', String(v.violations.length), 'goal 0'],
    ['nodes not ready at the end', String(v.unrecovered.length), v.unrecovered.join(', ') || 'goal 0'],
    ['OTP sent / checked / approved', `${record.otp.sent}/${record.otp.checked}/${record.otp.approved}`, ''],
    ['connections failed (unknown outcome)', String(record.unknown), 'allowed'],
  ];
  const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length))];
  console.log('');
  for (const [a, b, c] of rows) console.log(`${a.padEnd(w[0]!)}  ${b.padStart(w[1]!)}  ${c}`);
  for (const [name, list] of [
    ['lost', v.lost],
    ['not final', v.notFinal],
    ['phantom', v.phantom],
    ['idempotency', v.idempotencyBroken],
    ['5xx', v.violations],
  ] as const) {
    if (list.length) console.log(`\n${name} (first 10):\n  ${list.slice(0, 10).join('\n  ')}`);
  }
  const answers = [...record.answers].sort((a, b) => b[1] - a[1]).slice(0, 20);
  console.log(`\nanswers: ${answers.map(([k, n]) => `${k} ×${n}`).join('; ')}`);
}

main().catch((err: unknown) => {
  console.error(err);
  console.log(`\nFAULT RUN FAILED (seed ${seed}; logs: ${runDir})`);
  process.exit(1);
});
