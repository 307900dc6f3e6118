import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureKannel, KANNEL_USER, startKannel, type Kannel } from '../../../../../bench/lib/kannel';
import { freePorts } from '../../../../../bench/lib/load';
import { startServer, type TestServer } from '../../../test/harness';

// Issue 37: Wren's SMPP server with a client nobody here wrote. Kannel 1.4 (Debian's bearerbox and
// smsbox) binds to Wren as an ESME (transceiver), submits through its sendsms HTTP interface, and
// gets the delivery receipt back: its own DLR matching (by the message id in submit_sm_resp and in
// the receipt's text) calls our dlr-url with the final state.

let server: TestServer;
let kannel: Kannel | undefined;
let dlrServer: Server;
let sendsmsPort: number;
let owner: ReturnType<TestServer['client']>;
let smppAccountId: string;
const callbacks: URLSearchParams[] = [];

const until = async (check: () => Promise<boolean> | boolean, ms: number, what: string) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${kannel?.logTail() ?? ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

beforeAll(async () => {
  const bins = ensureKannel();
  server = await startServer(
    {
      SMPP_SERVER_PORT: '0',
      SMPP_SERVER_TLS_PORT: 'off',
      SIMULATOR_DELAY_MS: '50',
      SIMULATOR_MIX: 'DELIVRD=100',
    },
    { worker: true },
  );
  owner = server.client();
  await owner.register();
  const created = await owner.post('/api/smpp-accounts', {
    name: 'Kannel',
    systemId: 'kannel1',
    maxBinds: 2,
    windowSize: 10,
    throughputPerSecond: 50,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  smppAccountId = (created.body as { account: { id: string } }).account.id;
  dlrServer = createServer((req, res) => {
    callbacks.push(new URL(req.url ?? '/', 'http://x').searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => dlrServer.listen(0, '127.0.0.1', resolve));
  const [adminPort, smsboxPort, sendsms] = await freePorts(3);
  sendsmsPort = sendsms!;
  kannel = await startKannel(bins, {
    smscPort: server.app.smppServer!.info().port!,
    adminPort: adminPort!,
    smsboxPort: smsboxPort!,
    sendsmsPort,
    window: 10,
    systemId: 'kannel1',
    password: (created.body as { password: string }).password,
    concatenation: true,
  });
}, 120_000);

afterAll(async () => {
  await kannel?.stop();
  await new Promise((r) => dlrServer?.close(r));
  await server?.close();
});

describe('Kannel as an ESME bound to Wren', () => {
  it('binds, submits through sendsms, and gets the final receipt matched to its message', async () => {
    // Kannel's bind shows in the account's live binds: a transceiver from 127.0.0.1.
    const binds = await owner.get(`/api/smpp-accounts/${smppAccountId}/binds`);
    expect(binds.body.data).toEqual([
      expect.objectContaining({ mode: 'trx', tls: false, remoteAddress: '127.0.0.1' }),
    ]);
    const dlrUrl = `http://127.0.0.1:${(dlrServer.address() as AddressInfo).port}/dlr?s=%d&f=%F&to=%P`;
    const q = new URLSearchParams({
      username: KANNEL_USER.username,
      password: KANNEL_USER.password,
      from: 'Wren', // the platform's sender (DEFAULT_SENDER), which every account may use
      to: '+14155550123',
      text: 'Hello from Kannel',
      'dlr-mask': '3', // delivered and undelivered
      'dlr-url': dlrUrl,
    });
    const res = await fetch(`http://127.0.0.1:${sendsmsPort}/cgi-bin/sendsms?${q}`);
    const answer = await res.text();
    expect(res.status, answer).toBe(202);

    // Wren stored it under the login, from the account, and it was delivered by the simulator.
    const stored = () =>
      server.ctx.db
        .selectFrom('smpp_messages as l')
        .innerJoin('smpp_accounts as a', 'a.id', 'l.smpp_account_id')
        .innerJoin('messages as m', 'm.id', 'l.message_id')
        .select(['l.smpp_id', 'm.body', 'm.recipient', 'm.sender', 'm.status'])
        .where('a.system_id', '=', 'kannel1')
        .execute();
    await until(async () => (await stored()).some((m) => m.status === 'delivered'), 30_000, 'delivered');
    const [message] = await stored();
    expect(message).toMatchObject({
      body: 'Hello from Kannel',
      recipient: '+14155550123',
      sender: 'Wren',
      status: 'delivered',
    });

    // Kannel matched the receipt to its own message: dlr-url called with 1 (delivered) and the
    // id Wren gave in submit_sm_resp.
    await until(() => callbacks.some((c) => c.get('s') === '1'), 30_000, 'Kannel DLR callback');
    const final = callbacks.find((c) => c.get('s') === '1')!;
    expect(final.get('f')).toBe(String(message!.smpp_id));
    expect(callbacks.filter((c) => c.get('s') === '1')).toHaveLength(1);
    expect(await kannel!.sent()).toBe(1);
  }, 90_000);

  it('sends concatenated UCS-2 with emoji: one message in Wren, the parts at the SMSC, one final DLR', async () => {
    const text =
      'Grüße aus Kannel 👋🎉 — this text is longer than seventy UCS-2 code units, so Kannel splits it 🚀✅';
    const to = '+14155550124';
    const dlrUrl = `http://127.0.0.1:${(dlrServer.address() as AddressInfo).port}/dlr?s=%d&f=%F&tag=concat`;
    const q = new URLSearchParams({
      username: KANNEL_USER.username,
      password: KANNEL_USER.password,
      from: 'Wren',
      to,
      text,
      coding: '2',
      charset: 'utf-8',
      'dlr-mask': '3',
      'dlr-url': dlrUrl,
    });
    const res = await fetch(`http://127.0.0.1:${sendsmsPort}/cgi-bin/sendsms?${q}`);
    const answer = await res.text();
    expect(res.status, answer).toBe(202);

    const stored = () =>
      server.ctx.db
        .selectFrom('smpp_messages as l')
        .innerJoin('messages as m', 'm.id', 'l.message_id')
        .select(['l.smpp_id', 'm.id', 'm.body', 'm.encoding', 'm.segments', 'm.status'])
        .where('m.recipient', '=', to)
        .execute();
    await until(async () => (await stored()).some((m) => m.status === 'delivered'), 15_000, 'delivered');
    const rows = await stored();
    // Kannel submitted two parts (96 UTF-16 code units, at most 67 a part); each got its own id in
    // submit_sm_resp, and Wren joined them into ONE message of two segments.
    expect(rows, JSON.stringify(rows)).toHaveLength(2);
    expect(new Set(rows.map((r) => r.id)).size).toBe(1);
    expect(rows[0]).toMatchObject({ body: text, encoding: 'UCS-2', segments: 2, status: 'delivered' });

    // The simulator got the parts, UCS-2 (data_coding 8), which together are the text.
    const parts = [...server.worker!.simulator!.messages.values()].filter((m) =>
      m.dest.endsWith('14155550124'),
    );
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => p.dataCoding === 8)).toBe(true);
    expect(parts.map((p) => p.text).join('')).toBe(text);

    // Kannel calls its dlr-url with the final state for its message.
    await until(
      () => callbacks.some((c) => c.get('s') === '1' && c.get('tag') === 'concat'),
      15_000,
      `Kannel DLR callback for the concatenated message (callbacks: ${callbacks.map(String).join(' | ')})`,
    );
    await new Promise((r) => setTimeout(r, 1000));
    // Kannel tracks the split parts and calls its dlr-url once for the whole message, with the
    // final state, once Wren's receipts for both parts are in.
    const mine = callbacks.filter((c) => c.get('tag') === 'concat');
    expect(
      mine.map((c) => c.get('s')),
      mine.map(String).join(' | '),
    ).toEqual(['1']);
    expect(rows.map((r) => String(r.smpp_id))).toContain(mine[0]!.get('f'));
  }, 40_000);
});
