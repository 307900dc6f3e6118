import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { connectHub, pushesSettled, recordPushes, until, type HubClient } from './test-client';

/** The adapter's NOTIFY channel for the default namespace (channelPrefix '#' namespace). */
const CHANNEL = 'socket.io#/';
/** socket.io-adapter's MessageType.BROADCAST. */
const BROADCAST = 3;

/**
 * A single hub node on PostgreSQL delivers its pushes in-process: nothing goes through NOTIFY
 * (issue #17). Another connection LISTENs on the adapter's channel and sees every message the node
 * publishes; a second node joining makes broadcasts fan out through PostgreSQL again.
 */
describe('hub on a single node', () => {
  let node: TestServer;
  let second: TestServer | undefined;
  let listener: pg.Client;
  const notified: { type: number; uid: string }[] = [];
  const sockets: HubClient[] = [];

  beforeAll(async () => {
    node = await startServer();
    listener = new pg.Client({ connectionString: node.databaseUrl });
    await listener.connect();
    listener.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const doc = JSON.parse(n.payload) as { type: number; uid: string };
      notified.push({ type: doc.type, uid: doc.uid });
    });
    await listener.query(`LISTEN "${CHANNEL}"`);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await listener?.end();
    await second?.close();
    await node?.close();
  });

  const broadcasts = () => notified.filter((n) => n.type === BROADCAST);

  it('delivers pushes without publishing them through PostgreSQL', async () => {
    const login = await node.client().register();
    const socket = await connectHub(node.url, login.accessToken);
    sockets.push(socket);
    const rec = recordPushes(socket);
    await pushesSettled(node.app);
    rec.clear();
    const before = node.app.hub.broadcasts()!;

    for (let i = 0; i < 20; i += 1) {
      node.ctx.events.publish('template.changed', { accountId: login.user.accountId });
      node.ctx.events.publish('group.changed', { accountId: login.user.accountId });
    }
    await until(
      () => rec.count('SmsTemplatesUpdated') >= 1 && rec.count('GroupListUpdated') >= 1,
      10_000,
      'pushes on the single node',
    );
    await pushesSettled(node.app);
    // A round trip through the listener's own connection: any NOTIFY sent before it has arrived.
    await listener.query(`NOTIFY "${CHANNEL}", '{"type":0,"uid":"probe"}'`);
    await until(() => notified.some((n) => n.uid === 'probe'), 10_000, 'the probe notification');

    expect(broadcasts()).toEqual([]);
    const after = node.app.hub.broadcasts()!;
    expect(after.local - before.local).toBeGreaterThanOrEqual(2);
    expect(after.published).toBe(0);
  });

  it('fans out through PostgreSQL once a second hub node is known, to sockets on both nodes', async () => {
    second = await startServer({}, { databaseUrl: node.databaseUrl });
    const count = (s: TestServer) => s.app.hub.io.of('/').adapter.serverCount();
    await until(
      async () => (await count(node)) === 2 && (await count(second!)) === 2,
      15_000,
      'two hub nodes',
    );

    const login = await node.client().register();
    const onFirst = await connectHub(node.url, login.accessToken);
    const onSecond = await connectHub(second.url, login.accessToken);
    sockets.push(onFirst, onSecond);
    const [recFirst, recSecond] = [recordPushes(onFirst), recordPushes(onSecond)];
    await Promise.all([pushesSettled(node.app), pushesSettled(second.app)]);
    recFirst.clear();
    recSecond.clear();

    node.ctx.events.publish('template.changed', { accountId: login.user.accountId });
    await until(
      () => recFirst.count('SmsTemplatesUpdated') === 1 && recSecond.count('SmsTemplatesUpdated') === 1,
      10_000,
      'the push on both nodes',
    );
    expect(node.app.hub.broadcasts()!.published).toBeGreaterThanOrEqual(1);
    await until(() => broadcasts().length >= 1, 10_000, 'a BROADCAST notification');
  });
});
