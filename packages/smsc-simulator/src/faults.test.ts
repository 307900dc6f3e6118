import smpp from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import type { SmscOptions } from './options.js';
import { startSmsc, type SmscHandle } from './index.js';
import { receiptFields, sleep, TestClient, text, TIMEOUT } from './test-client.js';

let smsc: SmscHandle | undefined;
const clients: TestClient[] = [];

async function setup(opts: SmscOptions = {}): Promise<SmscHandle> {
  smsc = await startSmsc({ port: 0, receiptDelayMs: 5, seed: 42, ...opts });
  return smsc;
}

async function client(mode: 'transmitter' | 'receiver' | 'transceiver' = 'transceiver'): Promise<TestClient> {
  const c = await TestClient.bound(smsc!.port, mode);
  clients.push(c);
  return c;
}

const dlr = { registered_delivery: 1, short_message: 'fault test' };

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await smsc?.close();
  smsc = undefined;
});

describe('fault modes', () => {
  it('throttle / queueFull answer with error statuses and send no receipts', async () => {
    const h = await setup({ throttle: { rate: 1 } });
    const c = await client();
    const throttled = await c.submit(dlr);
    expect(throttled.command_status).toBe(smpp.ESME_RTHROTTLED);
    expect(throttled.message_id).toBeUndefined();
    h.setOptions({ throttle: { queueFull: 1 } });
    expect((await c.submit(dlr)).command_status).toBe(smpp.ESME_RMSGQFUL);
    h.setOptions({ throttle: { rate: 0.5 } });
    const mixed = await Promise.all(Array.from({ length: 100 }, () => c.submit(dlr)));
    const nThrottled = mixed.filter((r) => r.command_status === smpp.ESME_RTHROTTLED).length;
    expect(nThrottled).toBeGreaterThan(25);
    expect(nThrottled).toBeLessThan(75);
    h.setOptions({ throttle: undefined });
    expect((await c.submit(dlr)).command_status).toBe(0);
    const accepted = 100 - nThrottled + 1;
    await c.waitReceipts(accepted);
    await sleep(20);
    expect(c.receipts()).toHaveLength(accepted);
    expect(h.stats()).toMatchObject({ throttled: nThrottled + 1, queueFull: 1, submitted: accepted });
  });

  it('maxTps limits each bind', async () => {
    const h = await setup({ maxTps: 5 });
    const c = await client();
    const other = await client('transmitter');
    const results = await Promise.all(Array.from({ length: 12 }, () => c.submit({ short_message: 'x' })));
    const statuses = results.map((r) => r.command_status);
    expect(statuses.filter((s) => s === 0)).toHaveLength(5);
    expect(statuses.filter((s) => s === smpp.ESME_RTHROTTLED)).toHaveLength(7);
    expect((await other.submit({ short_message: 'y' })).command_status).toBe(0);
    expect(h.stats().tpsLimited).toBe(7);
  });

  it('slowResponseMs delays submit_sm_resp (receipt still after it)', async () => {
    await setup({ slowResponseMs: 150, receiptDelayMs: 0 });
    const c = await client();
    const started = Date.now();
    const resp = await c.submit(dlr);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await c.waitReceipts(1);
    expect(c.log).toEqual([`resp:${resp.message_id}`, `dlr:${resp.message_id}`]);
  });

  it('dropConnection closes the socket after N submits; receipts wait for a rebind', async () => {
    const h = await setup({ dropConnection: { afterSubmits: 3 } });
    const c = await client();
    c.ackStatus = undefined; // never ack, the socket dies anyway
    const pending = Array.from({ length: 5 }, () =>
      c.call('submit_sm', { destination_addr: '1', ...dlr }, 200),
    );
    const results = await Promise.all(pending);
    expect(results.filter((r) => r !== TIMEOUT && r.command_status === 0)).toHaveLength(3);
    expect(results.filter((r) => r === TIMEOUT)).toHaveLength(2);
    await c.until(() => c.closed);
    expect(h.stats().connectionsDropped).toBe(1);
    h.setOptions({ dropConnection: undefined });
    const again = await client();
    await again.waitReceipts(3);
  });

  it('dropAll kills every session now', async () => {
    const h = await setup();
    const a = await client();
    const b = await client('receiver');
    h.dropAll();
    await a.until(() => a.closed && b.closed);
    expect(h.stats().activeSessions).toBe(0);
  });

  it('halfOpen keeps sockets open but answers nothing until switched off', async () => {
    const h = await setup({ receiptDelayMs: 40 });
    const c = await client();
    const resp = await c.submit(dlr);
    h.setOptions({ halfOpen: true });
    expect(await c.call('enquire_link', {}, 150)).toBe(TIMEOUT);
    expect(await c.call('submit_sm', dlr, 50)).toBe(TIMEOUT);
    await expect(h.sendMo({ from: '1', to: '2', text: 'x' })).rejects.toThrow(/half-open/);
    expect(c.closed).toBe(false);
    expect(c.receipts()).toHaveLength(0);
    expect(h.stats().receiptsPending).toBe(1);
    h.setOptions({ halfOpen: false });
    await c.waitReceipts(1);
    expect(c.receipts()[0]?.receipted_message_id).toBe(resp.message_id);
    expect((await c.request('enquire_link')).command).toBe('enquire_link_resp');
    expect(h.stats().ignoredPdus).toBe(2);
  });

  it('duplicateReceipts sends every receipt twice or N times', async () => {
    const h = await setup({ duplicateReceipts: true });
    const c = await client();
    const a = await c.submit(dlr);
    await c.waitReceipts(2);
    h.setOptions({ duplicateReceipts: 3 });
    const b = await c.submit(dlr);
    await c.waitReceipts(5);
    await sleep(20);
    const ids = c.receipts().map((p) => p.receipted_message_id);
    expect(ids).toEqual([a.message_id, a.message_id, b.message_id, b.message_id, b.message_id]);
    expect(h.messages.get(b.message_id!)?.receiptsSent).toBe(3);
  });

  it('receiptBeforeResp sends the receipt ahead of submit_sm_resp', async () => {
    await setup({ receiptBeforeResp: true });
    const c = await client();
    const resp = await c.submit(dlr);
    expect(c.log).toEqual([`dlr:${resp.message_id}`, `resp:${resp.message_id}`]);
  });

  it('outOfOrderReceipts shuffles receipts and can send stale intermediates after finals', async () => {
    const h = await setup({
      receiptDelayMs: 0,
      outOfOrderReceipts: { window: 10, intermediateAfterFinal: true },
    });
    const c = await client();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await c.submit(dlr)).message_id!);
    await c.waitReceipts(20);
    const receipts = c.receipts();
    const finals = receipts.slice(0, 10).map((p) => p.receipted_message_id);
    expect([...finals].sort()).toEqual([...ids].sort());
    expect(finals).not.toEqual(ids);
    for (const p of receipts.slice(10)) {
      expect(p.message_state).toBe(1);
      expect(receiptFields(text(p)).stat).toBe('ENROUTE');
    }
    // A partial window is flushed by its timer...
    h.setOptions({ outOfOrderReceipts: { window: 100, flushMs: 30 } });
    await c.submit(dlr);
    await c.waitReceipts(21);
    // ...or immediately when the fault is switched off.
    h.setOptions({ outOfOrderReceipts: { window: 100, flushMs: 60_000 } });
    await c.submit(dlr);
    await sleep(30);
    expect(c.receipts()).toHaveLength(21);
    h.setOptions({ outOfOrderReceipts: false });
    await c.waitReceipts(22, 100);
  });

  it('survives a flood with window 50 and leaves no timers after close', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const h = await setup({ receiptDelayMs: [0, 20] });
    const c = await client();
    const total = 3000;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        next++;
        const r = await c.submit(dlr);
        expect(r.command_status).toBe(0);
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    await c.waitReceipts(total, 5000);
    await c.close();
    await h.close();
    smsc = undefined;
    await sleep(5);
    expect(h.stats().submitted).toBe(total);
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it('close() unbinds bound sessions and is idempotent', async () => {
    const h = await setup({ receiptDelayMs: 10_000 });
    const c = await client();
    await c.submit(dlr);
    const unbinds: string[] = [];
    c.session.on('unbind', () => unbinds.push('unbind'));
    await Promise.all([h.close(), h.close()]);
    await c.until(() => c.closed);
    expect(unbinds).toEqual(['unbind']);
    smsc = undefined;
  });
});
