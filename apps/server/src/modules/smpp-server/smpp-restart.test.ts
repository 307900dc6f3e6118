import { startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import type smpp from 'smpp';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { bind, call, closeClient, type Client } from './smpp-test-client';

// Issue 37: 0 receipts lost across a restart of Wren while the client is unbound. One Wren (API with
// the SMPP server, and the worker bound to an SMSC simulator outside it) is stopped and started
// again on the same database while the client is away: receipts that came before the stop wait in
// PostgreSQL, receipts that fall due while Wren is down wait at the SMSC for the worker's new bind.
// The client binds again as a receiver and gets every receipt exactly once.

const until = async (check: () => Promise<boolean> | boolean, ms: number, what: string) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

let sim: SmscHandle;
/** Holds the database; no SMPP listener, no worker, no jobs. */
let holder: TestServer;
let env: Record<string, string>;
const opened: TestServer[] = [];

beforeAll(async () => {
  sim = await startSmsc({ port: 0, receiptDelayMs: 10 });
  holder = await startServer({ RUN_JOBS: 'false' });
  env = {
    SMPP_SERVER_PORT: '0',
    SMPP_SERVER_TLS_PORT: 'off',
    SMPP_SERVER_RETRY_SECONDS: '0.3',
    SMPP_SERVER_RECEIPT_TTL_MINUTES: '60',
    SMSC_HOST: '127.0.0.1',
    SMSC_PORT: String(sim.port),
  };
});
afterAll(async () => {
  for (const s of opened) await s.close();
  await holder?.close();
  await sim?.close();
});

const startWren = async () => {
  const s = await startServer(env, { worker: true, databaseUrl: holder.databaseUrl });
  opened.push(s);
  return s;
};

const count = async (query: ReturnType<typeof sql<{ n: number }>>) =>
  (await query.execute(holder.ctx.db)).rows[0]!.n;
const waitingReceipts = () =>
  count(sql<{ n: number }>`SELECT count(*)::int AS n FROM smpp_outbox WHERE kind = 'receipt'`);
const atTheSmsc = () =>
  count(sql<{ n: number }>`SELECT count(*)::int AS n FROM messages WHERE submitted_at IS NOT NULL`);

const receipts = (c: Client) => c.received.filter((p) => ((p.esm_class ?? 0) & 0x04) === 0x04);

const submitAll = async (s: smpp.Session, n: number, tag: string) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const resp = await call(s, 'submit_sm', {
      destination_addr: `1415555${String(1000 + ids.length).padStart(4, '0')}`,
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      data_coding: 0,
      registered_delivery: 1,
      short_message: Buffer.from(`${tag} ${i}`, 'latin1'),
    });
    expect(resp.command_status).toBe(0);
    ids.push(resp.message_id!);
  }
  return ids;
};

it('loses no receipt, and sends none twice, when Wren restarts while the client is unbound', async () => {
  let wren = await startWren();
  const owner = wren.client();
  await owner.register();
  const res = await owner.post('/api/smpp-accounts', {
    name: 'Restart',
    systemId: 'restart1',
    maxBinds: 2,
    windowSize: 20,
    throughputPerSecond: 500,
  });
  expect(res.status).toBe(201);
  const password = (res.body as { password: string }).password;

  const tx = (await bind(wren.app.smppServer!.info().port!, 'tx', 'restart1', password)).session;
  // Before the stop: receipts at once, stored while the client is away.
  const before = await submitAll(tx, 5, 'Before');
  await until(async () => (await waitingReceipts()) === 5, 20_000, 'receipts stored before the stop');
  // These fall due while Wren is down: the SMSC holds them until the worker binds again.
  sim.setOptions({ receiptDelayMs: 1500 });
  const during = await submitAll(tx, 5, 'During');
  await call(tx, 'unbind');
  await closeClient(tx);
  await until(async () => (await atTheSmsc()) === 10, 20_000, 'every message at the SMSC');
  await wren.close();
  expect(await waitingReceipts()).toBe(5);
  // Down for longer than the receipt delay: the SMSC has the other five due and no one to send them to.
  await new Promise((r) => setTimeout(r, 2000));
  expect(sim.stats()).toMatchObject({ boundSessions: 0, receiptsPending: 5 });

  wren = await startWren();
  const rx = (await bind(wren.app.smppServer!.info().port!, 'rx', 'restart1', password)).session;
  await until(() => receipts(rx).length >= 10, 20_000, 'every receipt after the restart');
  await until(async () => (await waitingReceipts()) === 0, 10_000, 'outbox empty');
  // A receipt sent twice would show within the retry interval (0.3 s); give it well over that.
  await new Promise((r) => setTimeout(r, 1500));
  expect(
    receipts(rx)
      .map((p) => p.receipted_message_id)
      .sort(),
  ).toEqual([...before, ...during].sort());
  await closeClient(rx);
});
