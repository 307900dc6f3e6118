import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { startPushEmitter, type PushEmitter } from '../realtime/emitter';
import type { AppContext } from './context';
import { startWorker, type Worker } from './worker';

export interface WorkerNode {
  worker: Worker;
  /** The /healthz + /readyz listener (WORKER_HEALTH_PORT), or null: then this node listens on no port. */
  health: { port: number } | null;
  /** Whether hub pushes leave this node (through the PostgreSQL emitter). */
  pushes: boolean;
  /** Stops the health listener, the worker, the jobs and the emitter (not the database). */
  close(): Promise<void>;
}

/**
 * `--role worker`: the worker and background jobs without the HTTP API or the hub. Its domain events
 * still become hub pushes, published through the Socket.IO PostgreSQL emitter to the API nodes'
 * adapters (realtime/emitter.ts). It opens no port unless WORKER_HEALTH_PORT is set (the built-in
 * SMSC simulator, used when no SMSC is configured, listens on its own port).
 */
export async function startWorkerNode(ctx: AppContext, workerId: string): Promise<WorkerNode> {
  const { config, logger } = ctx;
  let emitter: PushEmitter | null = null;
  if (config.databaseUrl) {
    emitter = startPushEmitter({ databaseUrl: config.databaseUrl, events: ctx.events, logger });
  } else {
    logger.warn('worker role without DATABASE_URL: hub pushes from this node reach no socket');
  }
  await ctx.jobs.start();
  const worker = await startWorker(ctx, workerId);
  const health = config.workerHealthPort
    ? await listenHealth(ctx, config.host, config.workerHealthPort)
    : null;
  let closing: Promise<void> | null = null;
  return {
    worker,
    health: health && { port: (health.address() as AddressInfo).port },
    pushes: emitter !== null,
    close: () =>
      (closing ??= (async () => {
        if (health) await new Promise<void>((resolve) => health.close(() => resolve()));
        health?.closeAllConnections();
        await worker.stop();
        await ctx.jobs.stop();
        await emitter?.close();
      })()),
  };
}

/** GET /healthz (the process is up) and GET /readyz (the database answers), as on API nodes. */
async function listenHealth(ctx: AppContext, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const reply = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, { status: 'method not allowed' });
    if (path === '/healthz') return reply(200, { status: 'ok', role: 'worker' });
    if (path === '/readyz') {
      sql`SELECT 1`.execute(ctx.db).then(
        () => reply(200, { status: 'ready' }),
        (err: unknown) => {
          ctx.logger.warn({ err }, 'readiness check failed');
          reply(503, { status: 'unavailable' });
        },
      );
      return;
    }
    reply(404, { status: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
