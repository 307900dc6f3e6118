import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { waitForFinal } from '../../test/messaging';
import { connectHub, data, pushesSettled, recordPushes, until, type HubClient } from './test-client';

let server: TestServer;
const sockets: HubClient[] = [];

beforeAll(async () => {
  server = await startServer({ SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100' }, { worker: true });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.close();
});

describe('hub with the message pipeline', () => {
  it('pushes and replies reflect a sent SMS, for its account only', async () => {
    const a = server.client();
    const loginA = await a.register();
    const b = server.client();
    const loginB = await b.register();
    const socketA = await connectHub(server.url, loginA.accessToken);
    const socketB = await connectHub(server.url, loginB.accessToken);
    sockets.push(socketA, socketB);
    const [ra, rb] = [recordPushes(socketA), recordPushes(socketB)];

    const res = await a.post('/api/sms/single', {
      recipients: ['+14155550123', '+14155550124'],
      text: 'Hello from the hub test',
    });
    expect(res.status).toBe(202);
    await waitForFinal(
      a,
      res.body.messages.map((m: { id: string }) => m.id),
    );

    await until(
      () => ra.count('UserAccountUpdated') >= 1 && ra.count('UserSmsDeliveryUpdated') >= 1,
      5000,
      'pushes',
    );
    await pushesSettled(server.app); // trailing pushes have gone out before counting

    expect(await data(socketA, 'GetAccountBalance')).toEqual({ balanceMinor: 498, currency: 'USD' });
    const status = await data(socketA, 'GetDeliveryStatus');
    for (const period of ['today', 'week', 'month'] as const) {
      expect(status.periods[period]).toMatchObject({ delivered: 2, queued: 0, sending: 0, sent: 0 });
    }
    const perf = await data(socketA, 'GetPerformanceData');
    expect(perf.at(-1)).toMatchObject({ sent: 2, delivered: 2, failed: 0, deliveryRate: 1 });

    // A single send has no campaign: no BulkSmsUpdated. Nothing reached account B.
    expect(ra.count('BulkSmsUpdated')).toBe(0);
    expect(rb.pushes).toEqual([]);
    expect(await data(socketB, 'GetAccountBalance')).toEqual({ balanceMinor: 500, currency: 'USD' });
    expect((await data(socketB, 'GetDeliveryStatus')).periods.today.delivered).toBe(0);
  });
});
