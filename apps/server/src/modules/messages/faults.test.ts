import type { RuntimeOptions } from '@wren/smsc-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { faultFamily } from '../../../test/fault-summary';
import { expectInvariants, waitForFinal } from '../../../test/messaging';

let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    {
      SIMULATOR_DELAY_MS: '20',
      SIMULATOR_MIX: 'DELIVRD=100',
      SMSC_RESPONSE_TIMEOUT_MS: '800',
      SMSC_ENQUIRE_LINK_SECONDS: '0.5',
      SMSC_RECONNECT_BASE_MS: '50',
    },
    { worker: true },
  );
});
afterAll(async () => {
  await server?.close();
});

let block = 300;
/** Sends `n` single-part messages to numbers no other case uses; returns ids and destinations. */
async function sendBatch(n: number) {
  const c = server.client();
  const { user } = await c.register();
  block += 1;
  const recipients = Array.from({ length: n }, (_, i) => `+1212${block}${String(1000 + i)}`);
  const res = await c.post('/api/sms/single', { recipients, text: `Fault case ${block}` });
  expect(res.status).toBe(202);
  return {
    c,
    user,
    ids: res.body.messages.map((m: { id: string }) => m.id) as string[],
    dests: recipients.map((r) => r.slice(1)),
  };
}

/** How many times the SMSC accepted a submit for each destination. */
function submitsPerDestination(dests: string[]) {
  const counts = new Map(dests.map((d) => [d, 0]));
  for (const m of server.worker!.simulator!.messages.values())
    if (counts.has(m.dest)) counts.set(m.dest, counts.get(m.dest)! + 1);
  return [...counts.values()];
}

const cases: [string, Partial<RuntimeOptions>, 'all-delivered' | 'all-final'][] = [
  ['throttling (ESME_RTHROTTLED)', { throttle: { rate: 0.3 } }, 'all-delivered'],
  ['queue full (ESME_RMSGQFUL)', { throttle: { queueFull: 0.3 } }, 'all-delivered'],
  ['slow responses', { slowResponseMs: 300 }, 'all-delivered'],
  ['duplicate receipts', { duplicateReceipts: 3 }, 'all-delivered'],
  ['receipts before submit_sm_resp', { receiptBeforeResp: true }, 'all-delivered'],
  [
    'out-of-order receipts with a late ENROUTE',
    { outOfOrderReceipts: { intermediateAfterFinal: 'ENROUTE' } },
    'all-delivered',
  ],
  [
    'hex ids answered, decimal ids in receipts',
    { messageIdFormat: 'hexUpper', receiptIdNotation: 'decimal' },
    'all-delivered',
  ],
  [
    'decimal ids with leading zeros, hex in receipts',
    { messageIdFormat: 'decimalPadded', receiptIdNotation: 'hex' },
    'all-delivered',
  ],
  ['dropped connections', { dropConnection: { afterSubmits: 7 } }, 'all-final'],
];

const smscFamily = faultFamily('SMSC faults (throttling, slow answers, connection reset, half-open)');
const receiptFamily = faultFamily('receipts (duplicate, early, out of order, id notations)');

describe('SMSC faults: every message ends final, nothing moves back, nothing is sent twice by our retries', () => {
  it.each(cases)('%s', (name, fault, expectation) =>
    (/receipt|ids/.test(name) ? receiptFamily : smscFamily).run(async () => {
      const sim = server.worker!.simulator!;
      sim.setOptions(fault);
      try {
        const { c, user, ids, dests } = await sendBatch(20);
        const done = await waitForFinal(c, ids, 60_000);
        if (expectation === 'all-delivered')
          expect(done.map((m) => m.status)).toEqual(ids.map(() => 'delivered'));
        for (const m of done) if (m.status !== 'delivered') expect(m.status).toBe('failed');
        const perDest = submitsPerDestination(dests);
        expect(Math.max(...perDest)).toBeLessThanOrEqual(1);
        done.forEach((m, i) => {
          if (m.status === 'delivered') expect(perDest[i]).toBe(1);
        });
        await expectInvariants(server, user.accountId);
      } finally {
        sim.setOptions(Object.fromEntries(Object.keys(fault).map((k) => [k, undefined])));
      }
    }),
  );

  it('half-open socket: unanswered submits fail without a resend, the dead bind is replaced, and sending resumes', () =>
    smscFamily.run(async () => {
      const sim = server.worker!.simulator!;
      sim.setOptions({ halfOpen: true });
      const first = await sendBatch(5);
      const failed = await waitForFinal(first.c, first.ids, 30_000);
      sim.setOptions({ halfOpen: undefined });
      sim.dropAll(); // the SMSC side resets its stale sessions too
      for (const m of failed) {
        expect(m.status).toBe('failed');
        expect(m.error).toMatch(/No answer from the SMSC/);
      }
      expect(Math.max(...submitsPerDestination(first.dests))).toBeLessThanOrEqual(1);
      const balance = (await first.c.get('/api/balance')).body.balanceMinor;
      expect(balance).toBe(500); // refunded: never confirmed as submitted
      const second = await sendBatch(5);
      const ok = await waitForFinal(second.c, second.ids, 30_000);
      expect(ok.every((m) => m.status === 'delivered')).toBe(true);
      await expectInvariants(server, first.user.accountId);
      await expectInvariants(server, second.user.accountId);
    }));
});
