import type { RuntimeOptions } from '@wren/smsc-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { faultFamily } from '../../../test/fault-summary';
import { sql } from 'kysely';
import { expectInvariants, insertTestMessage, waitForFinal } from '../../../test/messaging';

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

  it('a message waits for a paused connection past the 25 tries an SMSC refusal may use, then goes out on resume', () =>
    smscFamily.run(async () => {
      const db = server.ctx.db;
      const name = server.worker!.gateway.status()[0]!.name;
      await sql`INSERT INTO smsc_connection_controls (name, paused, reason) VALUES (${name}, true, 'test')
                ON CONFLICT (name) DO UPDATE SET paused = true`.execute(db);
      try {
        // The worker applies the pause at its next report (every second).
        await new Promise((r) => setTimeout(r, 1500));
        const { c, ids } = await sendBatch(1);
        const id = ids[0]!;
        const waits = async () =>
          (
            await db
              .selectFrom('message_events')
              .select('id')
              .where('message_id', '=', id)
              .where('detail', 'like', '%paused by an operator%')
              .execute()
          ).length;
        await expect.poll(waits, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
        // As if it had waited through 30 tries: a try spent waiting must not count.
        await sql`UPDATE send_queue SET attempts = 30 WHERE message_id = ${id}::uuid`.execute(db);
        const seen = await waits();
        await expect.poll(waits, { timeout: 20_000 }).toBeGreaterThan(seen);
        const row = await db
          .selectFrom('messages')
          .select(['status', 'attempts'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row.status).toMatch(/^(queued|sending)$/);
        const queue = await db
          .selectFrom('send_queue')
          .select('attempts')
          .where('message_id', '=', id)
          .executeTakeFirstOrThrow();
        expect(queue.attempts).toBeLessThanOrEqual(30);
        await sql`UPDATE smsc_connection_controls SET paused = false WHERE name = ${name}`.execute(db);
        const [done] = await waitForFinal(c, ids, 30_000);
        expect(done!.status).toBe('delivered');
      } finally {
        await sql`UPDATE smsc_connection_controls SET paused = false WHERE name = ${name}`.execute(db);
      }
    }));

  it("a locked account's messages that come back from the SMSC for a retry are not sent again: failed and refunded", () =>
    smscFamily.run(async () => {
      const sim = server.worker!.simulator!;
      const db = server.ctx.db;
      sim.setOptions({ throttle: { rate: 1 } });
      try {
        const { user, ids, dests } = await sendBatch(5);
        const start = 500; // the trial balance (every send is refunded in the end)
        // Every submit is throttled: the messages go round (claimed, refused, back with a backoff).
        const retried = async () =>
          (
            await db
              .selectFrom('message_events')
              .select('message_id')
              .where('message_id', 'in', ids)
              .where('detail', 'like', 'Will retry%')
              .execute()
          ).length;
        await expect.poll(retried, { timeout: 15_000 }).toBeGreaterThan(0);
        // An operator locks the account while some of them are with the worker.
        await db
          .updateTable('accounts')
          .set({ locked_at: new Date(), locked_reason: 'test' })
          .where('id', '=', user.accountId)
          .execute();
        const final = async () =>
          db.selectFrom('messages').select(['status', 'error', 'refunded']).where('id', 'in', ids).execute();
        await expect
          .poll(async () => (await final()).filter((m) => m.status === 'failed').length, { timeout: 20_000 })
          .toBe(5);
        for (const m of await final()) {
          expect(m).toEqual({
            status: 'failed',
            error: 'Not sent: the account was locked by an operator',
            refunded: true,
          });
        }
        expect(Math.max(...submitsPerDestination(dests))).toBe(0);
        await expectInvariants(server, user.accountId);
        const { balance_minor } = await db
          .selectFrom('accounts')
          .select('balance_minor')
          .where('id', '=', user.accountId)
          .executeTakeFirstOrThrow();
        expect(Number(balance_minor)).toBe(start);
      } finally {
        sim.setOptions({ throttle: undefined });
      }
    }));

  it("a locked account's message whose worker died is canceled and refunded when its lease is reclaimed, not sent", async () => {
    const db = server.ctx.db;
    const c = server.client();
    const { user } = await c.register();
    const id = await insertTestMessage(server, {
      accountId: user.accountId,
      status: 'sending',
      recipient: '+12125559870',
    });
    // With a worker that died: its lease ran out a minute ago.
    await sql`INSERT INTO send_queue (message_id, priority, due_at, validity_until, leased_by, lease_until)
              VALUES (${id}::uuid, 1, now(), now() + interval '1 hour', 'dead-worker', now() - interval '1 minute')`.execute(
      db,
    );
    await db
      .updateTable('accounts')
      .set({ locked_at: new Date(), locked_reason: 'test' })
      .where('id', '=', user.accountId)
      .execute();
    await server.worker!.dispatcher.maintenance();
    const m = await db
      .selectFrom('messages')
      .select(['status', 'error', 'refunded'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(m).toEqual({
      status: 'canceled',
      error: 'Not sent: the account was locked by an operator',
      refunded: true,
    });
    const queued = await db
      .selectFrom('send_queue')
      .select('message_id')
      .where('message_id', '=', id)
      .execute();
    expect(queued).toEqual([]);
    const history = await db
      .selectFrom('message_events')
      .select(['status', 'detail'])
      .where('message_id', '=', id)
      .execute();
    expect(history.map((e) => e.status)).toEqual(expect.arrayContaining(['queued', 'canceled']));
    expect(Math.max(...submitsPerDestination(['12125559870']))).toBe(0);
  });
});
