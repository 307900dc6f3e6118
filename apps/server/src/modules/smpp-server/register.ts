import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app/context';
import { smppAccountsRoutes } from '../smpp-accounts/smpp-accounts.routes';
import { startSmppServer, type SmppServer } from './smpp-server';

declare module 'fastify' {
  interface FastifyInstance {
    /** The SMPP server this API node runs (issue 37); null until started, or when both ports are off. */
    smppServer: SmppServer | null;
  }
}

/**
 * The SMPP server on an API node (roles `all` and `api`: binds are long-lived client sessions, as
 * the hub's, and they answer from the API's send path): the SMPP accounts routes, then the
 * listeners, closed with the app.
 */
export async function registerSmppServer(app: FastifyInstance, ctx: AppContext) {
  const cfg = ctx.config.smppServer;
  app.decorate('smppServer', null);
  await app.register(
    smppAccountsRoutes(ctx, () =>
      app.smppServer
        ? app.smppServer.info()
        : { host: cfg.host, port: null, tlsPort: null, selfSignedCertificate: false },
    ),
  );
  if (cfg.port === null && cfg.tlsPort === null) return;
  const server = await startSmppServer({
    config: cfg,
    db: ctx.db,
    databaseUrl: ctx.config.databaseUrl,
    dataDir: ctx.config.dataDir,
    logger: ctx.logger,
    accounts: ctx.services.smppAccounts,
    messages: ctx.services.messages,
    defaultCountry: ctx.config.defaultCountry,
    node: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
  });
  app.smppServer = server;
  app.addHook('onClose', () => server.close());
}
