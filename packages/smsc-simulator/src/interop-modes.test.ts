import smpp from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';
import { startSmsc, type SmscHandle } from './index.js';
import type { BindMode, SmscOptions } from './options.js';
import { receiptFields, sleep, TestClient, text, TIMEOUT } from './test-client.js';

// The interoperability modes of issue #18: one session per system_type, tx/rx-only binds, ACCEPTD
// receipts, receipts lost on a restart, and a restart with unanswered submits.

let smsc: SmscHandle | undefined;
const clients: TestClient[] = [];

async function setup(opts: SmscOptions = {}): Promise<SmscHandle> {
  smsc = await startSmsc({ port: 0, receiptDelayMs: 5, onError: (e) => console.error(e), ...opts });
  return smsc;
}

/** A client bound as `mode` with the given system_type. */
async function bound(mode: BindMode, systemType = ''): Promise<TestClient> {
  if (!smsc) throw new Error('no smsc');
  const c = await TestClient.connect(smsc.port);
  clients.push(c);
  const resp = await c.request(`bind_${mode}`, {
    system_id: 'wren',
    password: 'wrenpass',
    system_type: systemType,
  });
  if (resp.command_status !== 0) throw new Error(`bind failed: ${resp.command_status}`);
  return c;
}

async function connected(): Promise<TestClient> {
  if (!smsc) throw new Error('no smsc');
  const c = await TestClient.connect(smsc.port);
  clients.push(c);
  return c;
}

const states = (c: TestClient) => c.receipts().map((p) => [receiptFields(text(p)).stat, p.message_state]);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await smsc?.close();
  smsc = undefined;
});

describe('oneSessionPerSystemType', () => {
  it('closes the older session when a new one binds with the same system_id and system_type', async () => {
    const h = await setup({ oneSessionPerSystemType: true });
    const a = await bound('transceiver', 'OTP');
    const other = await bound('transceiver', 'BULK');
    expect(a.closed).toBe(false);
    const b = await bound('transceiver', 'OTP');
    await a.until(() => a.closed);
    await sleep(20);
    expect([b.closed, other.closed]).toEqual([false, false]);
    expect((await b.submit({ short_message: 'x' })).command_status).toBe(0);
    expect(h.stats()).toMatchObject({ sessionsReplaced: 1, boundSessions: 2 });
  });

  it('keeps a transmitter and a receiver of one system_type, replacing each by its own kind', async () => {
    const h = await setup({ oneSessionPerSystemType: true });
    const tx = await bound('transmitter', 'X');
    const rx = await bound('receiver', 'X');
    await sleep(20);
    expect([tx.closed, rx.closed]).toEqual([false, false]);
    const tx2 = await bound('transmitter', 'X');
    await tx.until(() => tx.closed);
    expect([rx.closed, tx2.closed]).toEqual([false, false]);
    await bound('transceiver', 'X');
    await rx.until(() => rx.closed && tx2.closed);
    expect(h.stats().sessionsReplaced).toBe(3);
  });

  it('is off by default', async () => {
    await setup();
    const a = await bound('transceiver', 'OTP');
    await bound('transceiver', 'OTP');
    await sleep(30);
    expect(a.closed).toBe(false);
  });
});

describe('dropAfterBindMs', () => {
  it('destroys each session that long after its own bind, and leaves the others', async () => {
    const h = await setup({ dropAfterBindMs: 80 });
    const a = await bound('transceiver');
    await sleep(40);
    const b = await bound('transceiver');
    await a.until(() => a.closed);
    expect(b.closed).toBe(false); // bound 40 ms after a: 40 ms to go
    await b.until(() => b.closed);
    expect(h.stats()).toMatchObject({ binds: 2, connectionsDropped: 2, unbinds: 0, sessionsReplaced: 0 });
    expect(parseCliArgs(['--drop-after-bind-ms', '8000']).dropAfterBindMs).toBe(8000);
    expect(() => parseCliArgs(['--drop-after-bind-ms', '0'])).toThrow(/drop-after-bind-ms/);
  });
});

describe('tx/rx-only binds', () => {
  it('refuses submits on a receiver and sends receipts and MO only to the receiver', async () => {
    const h = await setup({ bindModes: ['transmitter', 'receiver'] });
    const trx = await connected();
    expect((await trx.bind('transceiver')).command_status).toBe(smpp.ESME_RINVCMDID);
    const tx = await bound('transmitter');
    const rx = await bound('receiver');
    expect((await rx.submit({ short_message: 'x', registered_delivery: 1 })).command_status).toBe(
      smpp.ESME_RINVBNDSTS,
    );
    const resp = await tx.submit({ short_message: 'y', registered_delivery: 1 });
    expect(resp.command_status).toBe(0);
    await rx.waitReceipts(1);
    expect(rx.receipts()[0]?.receipted_message_id).toBe(resp.message_id);
    expect(await h.sendMo({ from: '4915550001', to: 'WREN', text: 'hi' })).toMatchObject({ statuses: [0] });
    await sleep(20);
    expect(tx.delivered).toEqual([]);
    expect(rx.delivered).toHaveLength(2);
    expect(h.stats()).toMatchObject({ bindFailures: 1, rejected: 1, submitted: 1 });
  });
});

describe('acceptdReceipts', () => {
  it("'final': ACCEPTD with message_state 6 is the only receipt", async () => {
    await setup({ acceptdReceipts: 'final', statMix: { UNDELIV: 1 } });
    const c = await bound('transceiver');
    await c.submit({ short_message: 'a', registered_delivery: 1 });
    await c.waitReceipts(1);
    await sleep(60);
    expect(states(c)).toEqual([['ACCEPTD', 6]]);
    expect(receiptFields(text(c.receipts()[0]!)).err).toBe('000');
  });

  it("'contradictory': the only receipt is ACCEPTD with message_state 6 and dlvrd:000 err:001 (opensmppbox's expiry)", async () => {
    await setup({ acceptdReceipts: 'contradictory', statMix: { DELIVRD: 1 } });
    const c = await bound('transceiver');
    await c.submit({ short_message: 'a', registered_delivery: 1 });
    await c.waitReceipts(1);
    await sleep(60);
    expect(states(c)).toEqual([['ACCEPTD', 6]]);
    expect(receiptFields(text(c.receipts()[0]!))).toMatchObject({ dlvrd: '000', err: '001' });
  });

  it("'interim': ACCEPTD first, then the drawn final state", async () => {
    await setup({ acceptdReceipts: 'interim', statMix: { UNDELIV: 1 }, receiptDelayMs: 30 });
    const c = await bound('transceiver');
    await c.submit({ short_message: 'a', registered_delivery: 1 });
    await c.waitReceipts(1);
    expect(states(c)).toEqual([['ACCEPTD', 6]]);
    await c.waitReceipts(2);
    expect(states(c)).toEqual([
      ['ACCEPTD', 6],
      ['UNDELIV', 5],
    ]);
  });
});

describe('restart', () => {
  it('drops every session; pending receipts survive and go to the next receiver', async () => {
    const h = await setup({ receiptDelayMs: 150 });
    const c = await bound('transceiver');
    const resp = await c.submit({ short_message: 'a', registered_delivery: 1 });
    await h.restart({ downMs: 50 });
    await c.until(() => c.closed);
    await expect(TestClient.bound(h.port)).rejects.toThrow(); // refused while down
    await sleep(60);
    const again = await bound('transceiver');
    await again.waitReceipts(1);
    expect(again.receipts()[0]?.receipted_message_id).toBe(resp.message_id);
    expect(h.stats()).toMatchObject({ restarts: 1, receiptsLost: 0 });
  });

  it('loseReceiptsOnRestart: receipts not yet sent are forgotten', async () => {
    const h = await setup({ receiptDelayMs: 100, loseReceiptsOnRestart: true });
    const c = await bound('transceiver');
    await c.submit({ short_message: 'a', registered_delivery: 1 });
    await c.submit({ short_message: 'b', registered_delivery: 1 });
    await h.restart();
    const again = await bound('transceiver');
    await sleep(250);
    expect(again.receipts()).toEqual([]);
    expect(h.stats()).toMatchObject({ receiptsLost: 2, receiptsSent: 0, receiptsPending: 0 });
    // Submits after the restart get their receipts as usual.
    await again.submit({ short_message: 'c', registered_delivery: 1 });
    await again.waitReceipts(1);
  });

  it('loseReceiptsOnRestart also forgets receipts held for a missing receiver', async () => {
    const h = await setup({ loseReceiptsOnRestart: true });
    const tx = await bound('transmitter');
    await tx.submit({ short_message: 'a', registered_delivery: 1 });
    await sleep(40);
    expect(h.stats().receiptsPending).toBe(1);
    await h.restart();
    const rx = await bound('receiver');
    await sleep(50);
    expect(rx.receipts()).toEqual([]);
    expect(h.stats().receiptsLost).toBe(1);
  });
});

describe('restartWithUnanswered', () => {
  it('without it, a submit unanswered at a restart was received: stored, and its receipt comes', async () => {
    const h = await setup({ slowResponseMs: 100 });
    const c = await bound('transceiver');
    const pending = c.call(
      'submit_sm',
      { destination_addr: '1', short_message: 'a', registered_delivery: 1 },
      300,
    );
    await sleep(20);
    await h.restart();
    expect(await pending).toBe(TIMEOUT);
    const again = await bound('transceiver');
    await again.waitReceipts(1);
    expect(h.messages.size).toBe(1);
  });

  it('true: submits unanswered when their session closes were never received', async () => {
    const h = await setup({ slowResponseMs: 100, receiptDelayMs: 150, restartWithUnanswered: true });
    const c = await bound('transceiver');
    const answered = await c.submit({ short_message: 'answered', registered_delivery: 1 });
    const pending = c.call(
      'submit_sm',
      { destination_addr: '1', short_message: 'b', registered_delivery: 1 },
      300,
    );
    await sleep(20);
    await h.restart();
    expect(await pending).toBe(TIMEOUT);
    const again = await bound('transceiver');
    await again.waitReceipts(1);
    await sleep(250);
    expect(again.receipts().map((p) => p.receipted_message_id)).toEqual([answered.message_id]);
    expect([...h.messages.values()].map((m) => m.text)).toEqual(['answered']);
    expect(h.stats().unansweredForgotten).toBe(1);
  });

  it('N: holds the responses until N submits wait, then restarts by itself, once', async () => {
    const h = await setup({ restartWithUnanswered: 3 });
    const c = await bound('transceiver');
    const calls = ['a', 'b', 'c'].map((t) =>
      c.call('submit_sm', { destination_addr: '1', short_message: t, registered_delivery: 1 }, 500),
    );
    expect(await Promise.all(calls)).toEqual([TIMEOUT, TIMEOUT, TIMEOUT]);
    await c.until(() => c.closed);
    expect(h.stats()).toMatchObject({ restarts: 1, unansweredForgotten: 3, submitReceived: 3 });
    expect(h.messages.size).toBe(0);
    const again = await bound('transceiver');
    const resps = await Promise.all(['a', 'b', 'c'].map((t) => again.submit({ short_message: t })));
    expect(resps.map((r) => r.command_status)).toEqual([0, 0, 0]);
    expect(h.messages.size).toBe(3);
  });
});

describe('CLI flags', () => {
  it('parses the interoperability modes', () => {
    expect(
      parseCliArgs([
        '--one-session-per-system-type',
        '--bind-modes',
        'tx,rx',
        '--acceptd-receipts',
        'interim',
        '--lose-receipts-on-restart',
        '--restart-with-unanswered',
        '50',
      ]),
    ).toMatchObject({
      oneSessionPerSystemType: true,
      bindModes: ['transmitter', 'receiver'],
      acceptdReceipts: 'interim',
      loseReceiptsOnRestart: true,
      restartWithUnanswered: 50,
    });
    expect(parseCliArgs(['--restart-with-unanswered', '0']).restartWithUnanswered).toBe(true);
    expect(() => parseCliArgs(['--bind-modes', 'tx,xx'])).toThrow(/bind-modes/);
    expect(() => parseCliArgs(['--acceptd-receipts', 'maybe'])).toThrow(/acceptd-receipts/);
  });
});
