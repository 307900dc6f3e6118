import type { FastifyInstance } from 'fastify';
import type { Logger } from '../src/platform/logger';
import type { TestServer } from './harness';
import { buildApp } from '../src/app/http-app';

/**
 * Test helper: the real app (buildApp) on a test server's context, with extra routes added before
 * it starts, listening on its own port. Background jobs stay with the test server. Close it last in
 * a file: closing an app stops the context's running contact imports.
 */
export async function startAppWith(
  server: TestServer,
  addRoutes: (app: FastifyInstance) => void,
  opts: { logger?: Logger } = {},
): Promise<{ app: FastifyInstance; url: string; close: () => Promise<void> }> {
  const jobs = { ...server.ctx.jobs, start: async () => {}, stop: async () => {} };
  const app = await buildApp({ ...server.ctx, jobs, ...(opts.logger ? { logger: opts.logger } : {}) });
  addRoutes(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { app, url, close: () => app.close() };
}
