import { startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnWorkerProcess, startServer, type TestServer } from '../../../test/harness';
import { expectInvariants } from '../../../test/messaging';
import { campaignsOf } from './campaigns.routes';

/**
 * The child worker's SMPP window (one bind) and its dispatch batch: a worker holds at most
 * DISPATCH_BATCH claims whose outcome is not stored (unanswered, or answered and not yet flushed), so
 * at most that many can be sent again after it dies.
 */
const WINDOW = 20;
const RECIPIENTS = 400;

describe('campaign worker crash (PostgreSQL)', () => {
  let sim: SmscHandle;
  let server: TestServer;
  beforeAll(async () => {
    // Slow enough that the campaign is mid-way when the worker is killed.
    sim = await startSmsc({ port: 0, receiptDelayMs: 10, slowResponseMs: 100 });
    server = await startServer({
      SMSC_HOST: '127.0.0.1',
      SMSC_PORT: String(sim.port),
      SMSC_WINDOW: String(WINDOW),
      // In flight per worker no more than the window, so no claim outlives its 5 s lease in a queue.
      DISPATCH_BATCH: String(WINDOW),
      LEASE_SECONDS: '5',
    });
  });
  afterAll(async () => {
    await server?.close();
    await sim?.close();
  });

  it('loses no recipient and sends none twice beyond the SMPP window when its worker is killed -9', async () => {
    // Accepted submits (submit_sm answered with an id; a throttled one is not counted), keyed as E.164.
    const accepted = () => {
      const byDest = new Map<string, number>();
      for (const m of sim.messages.values()) {
        const dest = m.dest.startsWith('+') ? m.dest : `+${m.dest}`;
        byDest.set(dest, (byDest.get(dest) ?? 0) + 1);
      }
      return byDest;
    };
    const c = server.client();
    const { user } = await c.register();
    const numbers = Array.from({ length: RECIPIENTS }, (_, i) => `+1212555${String(1000 + i)}`);
    // A trial balance covers 500 US messages at 1 each.
    const res = await c.post('/api/campaigns', { numbers: numbers.join('\n'), text: 'Crash test campaign' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = res.body.campaign.id as string;
    const svc = campaignsOf(server.ctx);

    const child = spawnWorkerProcess(server, sim.port, {
      SMSC_WINDOW: String(WINDOW),
      DISPATCH_BATCH: String(WINDOW),
      LEASE_SECONDS: '5',
    });
    // Kill it once it has sent a third of the campaign.
    const deadline = Date.now() + 60_000;
    while (sim.messages.size < RECIPIENTS / 3) {
      if (Date.now() > deadline) throw new Error(`worker sent only ${sim.messages.size}`);
      await svc.tick();
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const atKill = sim.messages.size;
    expect(atKill).toBeLessThan(RECIPIENTS);

    // Another worker takes over (the dead one's leases run out first). The maintenance pass (lease
    // reclaim) is run here directly: the dead process may still hold that pg-boss job until it expires.
    await server.restartWorker();
    const finished = Date.now() + 90_000;
    for (;;) {
      await svc.tick();
      await server.worker!.dispatcher.maintenance();
      const b = (await c.get(`/api/campaigns/${id}`)).body;
      // Completed: every message left the queue (a receipt written to the dead worker's bind is lost
      // with it, so a few stay `sent` until their receipt deadline: submitted, not lost).
      if (b.status === 'completed' && b.counts.queued + b.counts.sending === 0) break;
      if (Date.now() > finished) throw new Error(`campaign not finished: ${JSON.stringify(b)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const messages = await server.ctx.db
      .selectFrom('messages')
      .select(['recipient', 'status'])
      .where('campaign_id', '=', id)
      .execute();
    // Each recipient became exactly one message, and every one reached the SMSC.
    expect(messages).toHaveLength(RECIPIENTS);
    expect(new Set(messages.map((m) => m.recipient)).size).toBe(RECIPIENTS);
    const submits = accepted();
    for (const n of numbers) expect(submits.get(n) ?? 0, n).toBeGreaterThanOrEqual(1);
    // Sent twice only if the worker held it unsettled (unanswered, or answered and not yet stored)
    // when it died: at most its DISPATCH_BATCH (= WINDOW here).
    const twice = [...submits.values()].filter((n) => n > 1).length;
    expect(twice).toBeLessThanOrEqual(WINDOW);
    console.info(
      `worker killed after ${atKill} submits; ${twice} recipient(s) sent twice (window ${WINDOW})`,
    );
    await expectInvariants(server, user.accountId);
  }, 180_000);
});
