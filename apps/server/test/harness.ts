import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app/http-app';
import type { Clock } from '../src/platform/clock';
import { loadConfig } from '../src/platform/config';
import { createContext, type AppContext } from '../src/app/context';
import { openDatabase, openPostgres } from '../src/platform/db';
import { createLogger } from '../src/platform/logger';
import { migrate } from '../src/platform/migrate';
import { startWorker, type Worker } from '../src/app/worker';
import { ApiClient } from './client';
import { adminUrl, TEST_ROOT } from './pg-admin';

export interface TestServer {
  url: string;
  ctx: AppContext;
  app: FastifyInstance;
  dataDir: string;
  /** The PostgreSQL URL of this server's database. */
  databaseUrl: string;
  /** Present when started with `{ worker: true }`: gateway, built-in simulator and dispatcher. */
  worker: Worker | null;
  /** Stops the worker (gateway, simulator, dispatcher) and starts a fresh one on the same database. */
  restartWorker(): Promise<Worker>;
  client(): ApiClient;
  close(): Promise<void>;
}

export const TEST_JWT_SECRET = 'test-secret-for-wren-tests-0123456789';

/**
 * The PostgreSQL server the tests run on (TEST_DATABASE_URL, or the run's embedded cluster), as a
 * URL for `database` on it.
 */
export const testDatabaseUrl = (database = 'postgres') => adminUrl(inject('pgUrl'), database);

/** Starts the real HTTP server on a fresh clone of the migrated template database. */
export async function startServer(
  env: Record<string, string> = {},
  /**
   * `databaseUrl`: join another test server's PostgreSQL database (a second node); it is not dropped on close.
   * `clock`: the server's "now" (see platform/clock), e.g. a test clock the test advances.
   */
  opts: { worker?: boolean; databaseUrl?: string; clock?: Clock } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(TEST_ROOT, 'run-'));
  let databaseUrl: string;
  let dbName: string | undefined;
  if (opts.databaseUrl) {
    databaseUrl = opts.databaseUrl;
  } else {
    dbName = `wren_t_${randomBytes(6).toString('hex')}`;
    const admin = await openPostgres(testDatabaseUrl(), 1);
    await admin.execScript(`CREATE DATABASE ${dbName} TEMPLATE ${inject('pgTemplate')}`);
    await admin.close();
    databaseUrl = testDatabaseUrl(dbName);
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    WEB_DIST: path.join(dataDir, 'no-web'),
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    CAPTCHA: 'false', // captcha.test.ts turns it on
    // No SMPP listener (issue 37) unless a test asks for one (smpp-server tests: port 0).
    SMPP_SERVER_PORT: 'off',
    SMPP_SERVER_TLS_PORT: 'off',
    ...env,
  });
  const database = await openDatabase(config);
  await migrate(database);
  const ctx = createContext(config, database, createLogger(config.logLevel), opts.clock);
  const app = await buildApp(ctx);
  let worker = opts.worker ? await startWorker(ctx, `test-${process.pid}`) : null;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  const server: TestServer = {
    url,
    ctx,
    app,
    dataDir,
    databaseUrl,
    worker,
    restartWorker: async () => {
      await worker?.stop();
      worker = await startWorker(ctx, `test-${process.pid}-${Date.now()}`);
      server.worker = worker;
      return worker;
    },
    client: () => new ApiClient(url),
    close: async () => {
      await app.close();
      await worker?.stop();
      await database.close();
      if (dbName) {
        const admin = await openPostgres(testDatabaseUrl(), 1);
        await admin.execScript(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * Starts `wren start --role worker` as a separate process on a test server's database (for tests
 * that kill a worker -9), talking to the SMSC at `smscPort`; `env` adds or overrides settings.
 */
export function spawnWorkerProcess(server: TestServer, smscPort: number, env: Record<string, string> = {}) {
  const serverRoot = path.resolve(import.meta.dirname, '..');
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start', '--role', 'worker'], {
    cwd: serverRoot,
    env: {
      ...process.env,
      DATABASE_URL: server.databaseUrl,
      SMSC_HOST: '127.0.0.1',
      SMSC_PORT: String(smscPort),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET: TEST_JWT_SECRET,
      DATA_DIR: path.join(server.dataDir, 'child'),
      ...env,
    },
    stdio: 'ignore',
  });
}
