import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { expectInvariants, waitForFinal } from '../../../test/messaging';
import { EventBus } from '../../platform/events';
import { createLogger } from '../../platform/logger';
import { until } from '../../realtime/test-client';
import { listenQueueWake, startQueueWakePublisher } from './queue-wake';

// An API-only node and a worker node share one database. The worker's idle poll is a minute here, so
// a message the API node queues reaches the SMSC within seconds only if the API node's announcement
// woke the worker's dispatcher.
describe('queue wake across nodes', () => {
  let api: TestServer;
  let worker: TestServer;
  beforeAll(async () => {
    api = await startServer({ ROLE: 'api' });
    worker = await startServer(
      { DISPATCH_IDLE_POLL_MS: '60000', SIMULATOR_DELAY_MS: '10', SIMULATOR_MIX: 'DELIVRD=100' },
      { worker: true, databaseUrl: api.databaseUrl },
    );
    // The worker's first claim pass has run and gone to sleep for its minute.
    await new Promise((r) => setTimeout(r, 500));
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('a send accepted by an API-only node wakes the dispatcher of a worker node', async () => {
    const c = api.client();
    const { user } = await c.register();
    const res = await c.post('/api/sms/single', { recipients: ['+12125550190'], text: 'Woken' });
    expect(res.status).toBe(202);
    const sim = worker.worker!.simulator!;
    await until(
      () => [...sim.messages.values()].some((m) => m.dest.endsWith('12125550190')),
      15_000,
      'the worker submits it (without the announcement it would wait for its minute-long poll)',
    );
    const ids = res.body.messages.map((m: { id: string }) => m.id) as string[];
    expect((await waitForFinal(c, ids, 30_000)).map((m) => m.status)).toEqual(['delivered']);
    await expectInvariants(api, user.accountId);
  });

  it('coalesces the announcements of one event-loop turn into one, with the most urgent priority', async () => {
    const logger = createLogger('silent');
    const woken: (number | undefined)[] = [];
    const listener = listenQueueWake({
      databaseUrl: api.databaseUrl,
      logger,
      wake: (p) => woken.push(p),
    });
    await listener.ready();
    woken.length = 0; // the wake after (re)connecting
    const events = new EventBus();
    const off = startQueueWakePublisher({ db: api.ctx.db, events, logger });
    try {
      events.publish('messages.queued', { priority: 2 });
      events.publish('messages.queued', { priority: 0 });
      events.publish('messages.queued', { priority: 1 });
      await until(() => woken.length >= 1, 10_000, 'an announcement');
      await new Promise((r) => setTimeout(r, 300));
      expect(woken).toEqual([0]);
    } finally {
      off();
      await listener.close();
    }
  });
});
