import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../test/client';
import { startServer, type TestServer } from '../../test/harness';
import { TEST_ROOT } from '../../test/pg-admin';
import { backupCluster, unpackBackup } from './backup';
import { openPostgres } from './db';
import { embeddedPaths, startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { WROTE_COOKIE } from './http/read-after-write';
import { migrate } from './migrate';

/**
 * Issue 44 item 2 against real PostgreSQL processes: a primary (the embedded binaries) and a
 * streaming replica made from Wren's own base backup (backup.ts) with standby.signal and
 * primary_conninfo. Replay is paused on the replica to make it lag on purpose.
 */
const MAX_LAG_MS = 3000;
const roots: string[] = [];
let primary: EmbeddedPostgres;
let replica: EmbeddedPostgres;
let server: TestServer;
let owner: ApiClient;

const newRoot = () => {
  const root = mkdtempSync(path.join(TEST_ROOT, 'replica-'));
  roots.push(root);
  return root;
};

async function onReplica(text: string) {
  const client = new pg.Client({ connectionString: replica.url('wren') });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The same session, as a browser whose read-after-write cookie has expired. */
const withoutWriteCookie = (c: ApiClient) => {
  c.cookies.delete(WROTE_COOKIE);
  return c;
};

const logTexts = async (c: ApiClient) => {
  const res = await c.get('/api/sms/log?limit=100');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.items as { text: string }[]).map((m) => m.text);
};

beforeAll(async () => {
  const primaryRoot = newRoot();
  primary = await startEmbeddedPostgres({ root: primaryRoot, database: 'wren', mode: 'test' });
  const db = await openPostgres(primary.url('wren'), 2);
  await migrate(db);
  await db.close();
  // The replica: a base backup of the primary, started as a standby streaming from it.
  const file = path.join(newRoot(), 'base.tar.gz');
  await backupCluster({ root: primaryRoot, url: primary.url('wren') }, file);
  const replicaRoot = newRoot();
  await unpackBackup(file, replicaRoot);
  const cluster = embeddedPaths(replicaRoot).cluster;
  writeFileSync(path.join(cluster, 'standby.signal'), '');
  const password = readFileSync(embeddedPaths(primaryRoot).passwordFile, 'utf8').trim();
  appendFileSync(
    path.join(cluster, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=wren password=${password}'\n`,
  );
  replica = await startEmbeddedPostgres({ root: replicaRoot, mode: 'test' });
  expect((await onReplica('SELECT pg_is_in_recovery() AS r'))[0].r).toBe(true);

  server = await startServer(
    {
      DATABASE_READ_URL: replica.url('wren'),
      DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
    },
    { databaseUrl: primary.url('wren') },
  );
  owner = server.client();
  await owner.register();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await replica?.stop();
  await primary?.stop();
  for (const root of roots) {
    // A failed run may leave a cluster running.
    const pid = path.join(embeddedPaths(root).cluster, 'postmaster.pid');
    if (existsSync(pid)) process.kill(Number(readFileSync(pid, 'utf8').split('\n')[0]), 'SIGQUIT');
    rmSync(root, { recursive: true, force: true });
  }
});

describe('read replica (DATABASE_READ_URL)', () => {
  it('serves lag-tolerant reads from the replica, and a user’s reads after their own write from the primary', async () => {
    await until('the replica to be fresh', () => server.ctx.reads.status().serving);
    await owner.post('/api/sms/single', { recipients: ['+14155550100'], text: 'Replicated' });
    await until('the send to reach the replica', async () =>
      (await logTexts(withoutWriteCookie(owner))).includes('Replicated'),
    );

    const month = new Date().toISOString().slice(0, 7);
    const closing = async (c: ApiClient) =>
      (await c.get(`/api/statements/${month}`)).body.closingBalanceMinor as number;
    const sentToday = async (c: ApiClient) => {
      const d = (await c.get('/api/dashboard/summary')).body;
      return Object.values(d.deliveryStatus.periods.today as Record<string, number>).reduce(
        (a, b) => a + b,
        0,
      );
    };
    const before = { closing: await closing(owner), today: await sentToday(owner) };
    await onReplica('SELECT pg_wal_replay_pause()');
    const sent = await owner.post('/api/sms/single', { recipients: ['+14155550101'], text: 'Just sent' });
    expect(sent.status).toBe(202);
    // The write's answer carries the cookie: this browser's next reads go to the primary.
    const cookie = sent.headers.getSetCookie().find((c) => c.startsWith(`${WROTE_COOKIE}=`));
    expect(cookie).toMatch(new RegExp(`Max-Age=${Math.ceil((MAX_LAG_MS + 2000) / 1000)}`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api/);
    expect(await logTexts(owner)).toContain('Just sent');
    // The statement and the dashboard too: the primary's, with the send's debit and count.
    expect(await closing(owner)).toBeLessThan(before.closing);
    expect(await sentToday(owner)).toBe(before.today + 1);
    // Without the cookie the statement and the dashboard are the replica's, before the send.
    expect(await closing(withoutWriteCookie(owner))).toBe(before.closing);
    expect(await sentToday(owner)).toBe(before.today);
    // Without the cookie the read goes to the replica, which has not replayed the send yet.
    expect(await logTexts(withoutWriteCookie(owner))).not.toContain('Just sent');
    expect(await logTexts(owner)).toContain('Replicated');

    // Past the allowed lag the replica is not used, and the same read finds the message.
    await until(
      'the lagging replica to be dropped',
      () => !server.ctx.reads.status().serving,
      MAX_LAG_MS * 3,
    );
    expect(server.ctx.reads.status().reason).toMatch(/behind/);
    expect(await logTexts(withoutWriteCookie(owner))).toContain('Just sent');

    await onReplica('SELECT pg_wal_replay_resume()');
    await until('the replica to catch up', () => server.ctx.reads.status().serving, MAX_LAG_MS * 3);
    expect(await logTexts(withoutWriteCookie(owner))).toContain('Just sent');
  }, 60_000);

  it('a replica that goes down sends the reads to the primary at once', async () => {
    await until('the replica to be fresh', () => server.ctx.reads.status().serving, MAX_LAG_MS * 3);
    await replica.stop();
    // The first read after the stop may still pick the replica: it fails over on the connection error.
    expect(await logTexts(withoutWriteCookie(owner))).toContain('Just sent');
    const campaigns = await withoutWriteCookie(owner).get('/api/campaigns');
    expect(campaigns.status).toBe(200);
    const exported = await withoutWriteCookie(owner).get('/api/sms/log/export.csv');
    expect(exported.status).toBe(200);
    expect(String(exported.body)).toContain('Just sent');
    await until('the replica to be marked down', () => !server.ctx.reads.status().serving);
    expect(server.ctx.reads.status().reason).toMatch(/failed/);
  }, 60_000);

  it('without DATABASE_READ_URL, no replica is checked and no cookie is set', async () => {
    const plain = await startServer();
    try {
      expect(plain.ctx.reads.configured).toBe(false);
      const c = plain.client();
      await c.register();
      const sent = await c.post('/api/sms/single', { recipients: ['+14155550102'], text: 'Hi' });
      expect(sent.headers.getSetCookie().some((h) => h.startsWith(`${WROTE_COOKIE}=`))).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
