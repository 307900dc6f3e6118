import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { FINAL_STATUSES } from '@wren/contracts';
import { until } from '../../realtime/test-client';

/**
 * The dispatcher claims when work is announced, not after every stored outcome: at one message per
 * request, each message costs one claim. Counted at the driver: every statement the in-process
 * server sends that leases from the send queue.
 */
let claims = 0;
const prototype = pg.Client.prototype as unknown as {
  query: (this: pg.Client, ...args: unknown[]) => unknown;
};
const query = prototype.query;
prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: unknown } | undefined;
  // Kysely passes the text; a statement the statement cache has named arrives as a config object.
  const text = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : '';
  // A claim leases queue rows first (outcomes.repository.ts claimBatch), found or not.
  if (/^\s*UPDATE send_queue q\s+SET leased_by\b/.test(text)) claims += 1;
  return query.apply(this, args);
};

let server: TestServer;
beforeAll(async () => {
  // A slow idle poll (5 s): almost every claim below comes from a wake. A message answered "retry
  // later" (a slow bind, a full window on a loaded machine) is still found by the poll.
  server = await startServer({ DISPATCH_IDLE_POLL_MS: '5000' }, { worker: true });
});
afterAll(async () => {
  await server?.close();
});

describe('dispatcher claims', () => {
  it('claims once per message sent one at a time', async () => {
    const c = server.client();
    await c.register();
    const status = async (id: string) =>
      (await c.get(`/api/sms/log/${id}`)).body?.message?.status as string | undefined;
    // Bound first: a send before the bind is answered "retry later" and waits for the idle poll.
    const sim = server.worker!.simulator!;
    await until(() => sim.stats().boundSessions > 0, 20_000, 'the gateway bound');
    // Warm up (the first send after start may meet the loop mid-claim).
    const first = await c.post('/api/sms/single', { recipients: ['+14155550170'], text: 'warm up' });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    await until(
      async () => (await status(first.body.messages[0].id)) === 'delivered',
      20_000,
      'warm-up delivered',
    );

    const before = claims;
    const n = 10;
    for (let i = 0; i < n; i++) {
      const res = await c.post('/api/sms/single', {
        recipients: [`+1415555018${i}`],
        text: `one at a time ${i}`,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const id = res.body.messages[0].id as string;
      let last: string | undefined;
      await until(
        async () => FINAL_STATUSES.includes((last = await status(id)) as never),
        20_000,
        `message ${i} final`,
      ).catch((err: unknown) => {
        throw new Error(`${String(err)} (status ${last}, claims ${claims - before})`);
      });
    }
    // One claim per message; spare for the 5 s idle polls and a wake that lands while a claim runs. Before: three
    // (the claim, a claim right after it that found nothing, and one after each stored outcome).
    expect(claims - before).toBeGreaterThanOrEqual(n);
    expect(claims - before).toBeLessThanOrEqual(n + 8);
  });
});
