import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { waitForFinal } from '../../test/messaging';
import { connectHub, data, pushesSettled, recordPushes, until, type HubClient } from './test-client';

/**
 * Two nodes on one PostgreSQL database: A serves the hub only, B also runs the worker. Each node's
 * EventBus sees only its own events; pushes cross nodes through the Socket.IO PostgreSQL adapter.
 */
describe('hub across two nodes (PostgreSQL adapter)', () => {
  let nodeA: TestServer;
  let nodeB: TestServer;
  const sockets: HubClient[] = [];

  beforeAll(async () => {
    nodeA = await startServer();
    nodeB = await startServer(
      { SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100' },
      { worker: true, databaseUrl: nodeA.databaseUrl },
    );
    // Each adapter counts the other once their heartbeats cross: both are listening.
    const count = (s: TestServer) => s.app.hub.io.of('/').adapter.serverCount();
    await until(
      async () => (await count(nodeA)) === 2 && (await count(nodeB)) === 2,
      15_000,
      'two hub nodes',
    );
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await nodeB?.close(); // shares A's database; A drops it
    await nodeA?.close();
  });

  /** Both nodes' coalescing windows have closed: their pushes went out at least a window ago. */
  const settled = () => Promise.all([pushesSettled(nodeA.app), pushesSettled(nodeB.app)]);

  const connect = async (node: TestServer, token: string) => {
    const socket = await connectHub(node.url, token);
    sockets.push(socket);
    return socket;
  };

  it('delivers pushes caused by a send through node B to a client on node A, for that account only', async () => {
    const client = nodeB.client();
    const login = await client.register();
    const other = await nodeA.client().register();
    const onA = await connect(nodeA, login.accessToken);
    const otherOnA = await connect(nodeA, other.accessToken);
    const [rec, otherRec] = [recordPushes(onA), recordPushes(otherOnA)];
    // The accounts' own sign-up pushes (trial credit) may trail by one coalescing window: let them pass.
    await settled();
    rec.clear();
    otherRec.clear();

    const res = await client.post('/api/sms/single', { recipients: ['+14155550123'], text: 'Across nodes' });
    expect(res.status).toBe(202);
    await until(() => rec.count('UserAccountUpdated') >= 1, 10_000, 'UserAccountUpdated on node A');
    await waitForFinal(client, [res.body.messages[0].id]);
    await until(() => rec.count('UserSmsDeliveryUpdated') >= 1, 10_000, 'UserSmsDeliveryUpdated on node A');

    await settled();
    expect(await data(onA, 'GetAccountBalance')).toEqual({ balanceMinor: 499, currency: 'USD' });
    expect((await data(onA, 'GetDeliveryStatus')).periods.today.delivered).toBe(1);
    expect(otherRec.pushes).toEqual([]);
  });

  it("reaches every node's sockets of the account, and coalesces a storm at its source", async () => {
    const login = await nodeA.client().register();
    const accountId = login.user.accountId;
    const onA = await connect(nodeA, login.accessToken);
    const onB = await connect(nodeB, login.accessToken);
    const [recA, recB] = [recordPushes(onA), recordPushes(onB)];

    for (let i = 0; i < 1000; i += 1) {
      nodeB.ctx.events.publish('messages.changed', { accountId, campaignIds: ['camp-x'] });
    }
    await settled(); // the storm's windows on B have closed: every push it caused is out
    for (const rec of [recA, recB]) {
      expect(rec.count('UserSmsDeliveryUpdated')).toBeGreaterThanOrEqual(1);
      expect(rec.count('UserSmsDeliveryUpdated')).toBeLessThanOrEqual(3);
      expect(rec.count('BulkSmsUpdated')).toBeLessThanOrEqual(3);
    }

    recA.clear();
    recB.clear();
    nodeA.ctx.events.publish('template.changed', { accountId });
    await until(
      () => recA.count('SmsTemplatesUpdated') === 1 && recB.count('SmsTemplatesUpdated') === 1,
      5000,
      'both nodes',
    );
  });
});
