import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { onEveryStatement } from '../../../test/statement-spy';
import { FINAL_STATUSES } from '@wren/contracts';
import { until } from '../../realtime/test-client';

/**
 * The dispatcher claims when work is announced, not after every stored outcome: at one message per
 * request, each message costs one claim. Counted at the driver: every statement the in-process
 * server sends that leases from the send queue.
 */
let claims = 0;
let probes = 0;
onEveryStatement((text) => {
  // A claim is one call of wren_claim (outcomes.repository.ts claimBatch), found or not.
  if (/\bwren_claim\(/.test(text)) claims += 1;
  // An idle look asks first whether anything is due (outcomes.repository.ts anyDue).
  if (/^\s*SELECT EXISTS \(SELECT 1 FROM send_queue\b/.test(text)) probes += 1;
});

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
    // Any final status: the built-in simulator's default mix ends 8% of messages other than DELIVRD.
    await until(
      async () => FINAL_STATUSES.includes((await status(first.body.messages[0].id)) as never),
      20_000,
      'warm-up final',
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

  it('an idle dispatcher backs off to a look per second (DISPATCH_IDLE_POLL_MAX_MS), and a send wakes it at once', async () => {
    // Default polls: 200 ms, doubling after each look that finds nothing, up to 1 s.
    const idle = await startServer({}, { worker: true });
    try {
      const c = idle.client();
      await c.register();
      const sim = idle.worker!.simulator!;
      await until(() => sim.stats().boundSessions > 0, 20_000, 'the gateway bound');
      await new Promise((r) => setTimeout(r, 3000)); // past the backoff's ramp (0.2 + 0.4 + 0.8 s)
      const before = { claims, probes };
      await new Promise((r) => setTimeout(r, 5000));
      // About 5 looks (one a second), and at most 1 from the other server's 5 s poll. Before: 25.
      const looks = claims - before.claims + (probes - before.probes);
      expect(looks).toBeGreaterThanOrEqual(3);
      expect(looks).toBeLessThanOrEqual(8);
      // Each a one-statement probe, not a claim's transaction (at most the other server's poll).
      expect(claims - before.claims).toBeLessThanOrEqual(1);

      // Backed off, a send is still claimed at once: its announcement wakes the loop.
      const t0 = Date.now();
      const res = await c.post('/api/sms/single', { recipients: ['+14155550190'], text: 'after idle' });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const id = res.body.messages[0].id as string;
      await until(
        async () => (await c.get(`/api/sms/log/${id}`)).body?.message?.status !== 'queued',
        5000,
        'claimed',
      );
      expect(Date.now() - t0).toBeLessThan(900);
    } finally {
      await idle.close();
    }
  });
});
