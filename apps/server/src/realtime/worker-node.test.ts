import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server as NetServer } from 'node:net';
import path from 'node:path';
import { parseMix, startSmsc, type SmscHandle } from '@wren/smsc-simulator';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, TEST_JWT_SECRET, type TestServer } from '../../test/harness';
import { waitForFinal } from '../../test/messaging';
import { TEST_ROOT } from '../../test/pg-admin';
import { loadConfig } from '../platform/config';
import { createContext } from '../app/context';
import { openDatabase, type Database } from '../platform/db';
import { createLogger } from '../platform/logger';
import { startWorkerNode, type WorkerNode } from '../app/worker-node';
import { connectHub, recordPushes, until, type HubClient } from './test-client';

/** A `--role worker` node as main.ts starts it: no Fastify app, no hub. */
async function startWorkerRole(databaseUrl: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(TEST_ROOT, 'worker-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    ROLE: 'worker',
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    ...env,
  });
  const database = await openDatabase(config);
  const ctx = createContext(config, database, createLogger(config.logLevel));
  return { ctx, database, dataDir };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('worker role without an HTTP listener (pushes through the PostgreSQL emitter)', () => {
  let api: TestServer;
  let smsc: SmscHandle;
  const workers: { node: WorkerNode; database: Database; dataDir: string }[] = [];
  const sockets: HubClient[] = [];

  beforeAll(async () => {
    api = await startServer({ ROLE: 'api' });
    smsc = await startSmsc({
      port: 0,
      host: '127.0.0.1',
      receiptDelayMs: 20,
      statMix: parseMix('DELIVRD=100'),
      credentials: [{ systemId: 'wren', password: 'wrenpass' }],
    });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const w of workers) {
      await w.node.close();
      await w.database.close();
      rmSync(w.dataDir, { recursive: true, force: true });
    }
    await smsc?.close();
    await api?.close();
  });

  it('delivers a message sent through the API node; its socket gets UserSmsDeliveryUpdated; no port opened', async () => {
    const { ctx, database, dataDir } = await startWorkerRole(api.databaseUrl, {
      SMSC_HOST: '127.0.0.1',
      SMSC_PORT: String(smsc.port),
    });
    const listen = vi.spyOn(NetServer.prototype, 'listen');
    const servers = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    const before = servers();
    let node: WorkerNode;
    try {
      node = await startWorkerNode(ctx, 'test-worker-role');
      workers.push({ node, database, dataDir });
      expect(listen).not.toHaveBeenCalled();
    } finally {
      listen.mockRestore();
    }
    expect(node.health).toBeNull();
    expect(node.pushes).toBe(true);
    expect(servers()).toBe(before);

    const client = api.client();
    const login = await client.register();
    const socket = await connectHub(api.url, login.accessToken);
    sockets.push(socket);
    const rec = recordPushes(socket);
    // What the API node itself publishes; its own pushes can be at most this many.
    let apiChanges = 0;
    api.ctx.events.subscribe('messages.changed', () => (apiChanges += 1));
    let workerChanges = 0;
    ctx.events.subscribe('messages.changed', () => (workerChanges += 1));

    const res = await client.post('/api/sms/single', {
      recipients: ['+14155550123'],
      text: 'From the worker',
    });
    expect(res.status).toBe(202);
    const id = res.body.messages[0].id as string;
    const [message] = await waitForFinal(client, [id]);
    expect(message).toMatchObject({ status: 'delivered' });
    expect(workerChanges).toBeGreaterThan(0);
    // The worker's pushes reach the API node's socket: more than the API node alone could send.
    await until(
      () => rec.count('UserSmsDeliveryUpdated') > apiChanges,
      10_000,
      'UserSmsDeliveryUpdated from the worker',
    );

    // A push mapped on the worker only (the API node never sees this event).
    ctx.events.publish('template.changed', { accountId: login.user.accountId });
    await until(() => rec.count('SmsTemplatesUpdated') === 1, 10_000, 'SmsTemplatesUpdated from the worker');
  });

  it('serves /healthz and /readyz on WORKER_HEALTH_PORT when set, and nothing else', async () => {
    const port = await freePort();
    const { ctx, database, dataDir } = await startWorkerRole(api.databaseUrl, {
      SMSC_HOST: '127.0.0.1',
      SMSC_PORT: String(smsc.port),
      WORKER_HEALTH_PORT: String(port),
    });
    const node = await startWorkerNode(ctx, 'test-worker-health');
    workers.push({ node, database, dataDir });
    expect(node.health).toEqual({ port });
    const base = `http://127.0.0.1:${port}`;
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready' });
    expect((await fetch(`${base}/api/auth/me`)).status).toBe(404);
  });
});
