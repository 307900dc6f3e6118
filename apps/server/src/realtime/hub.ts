import { HUB_KEEP_ALIVE_MS, HUB_PATH, HUB_TIMEOUT_MS } from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import { Server, type ServerOptions } from 'socket.io';
import type { AppContext } from '../app/context';
import { directoryOf } from './directory';
import { deliverInTurns } from './fanout';
import { hubAuth, hubOriginAllowed } from './hub-auth';
import { bindHubMethods, hubHandlers } from './hub-methods';
import { roomsOf, type HubServer, type HubSocket } from './hub-types';
import { closeEndedSessions } from './hub-sessions';
import { createPgAdapter, type BroadcastCounts } from './pg-adapter';
import { mapEventsToPushes } from './pushes';

export interface Hub {
  io: HubServer;
  /**
   * Coalescing windows still open on this node (0: every push, trailing ones included, has been
   * emitted at least one window ago). Tests wait for 0 instead of sleeping past the window.
   */
  pushWindowsOpen(): number;
  /**
   * How this node's room broadcasts went out on PostgreSQL: kept local (no other hub node known) or
   * published through NOTIFY. Null without the PostgreSQL adapter.
   */
  broadcasts(): BroadcastCounts | null;
  /** Stops the pushes, disconnects this node's sockets and closes the adapter. */
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    hub: Hub;
  }
}

/**
 * The real-time hub (SPEC.md §7): Socket.IO on the API's HTTP server at HUB_PATH ('/hub'),
 * authenticated with the access token, one room per account and per permission of the role. Requests and commands are in
 * hub-methods.ts, the domain-event → push mapping in pushes.ts. On PostgreSQL the Socket.IO
 * PostgreSQL adapter carries pushes between nodes (only while another hub node is known: alone, a
 * node delivers its broadcasts in-process). Call once, after the routes; it is closed
 * with the app.
 */
export function attachHub(app: FastifyInstance, ctx: AppContext): Hub {
  const pg =
    ctx.database.kind === 'postgres' && ctx.config.databaseUrl
      ? createPgAdapter(ctx.config.databaseUrl, ctx.logger)
      : null;
  const options: Partial<ServerOptions> = {
    path: HUB_PATH,
    serveClient: false,
    pingInterval: HUB_KEEP_ALIVE_MS,
    pingTimeout: HUB_TIMEOUT_MS,
    connectTimeout: HUB_TIMEOUT_MS,
    // Hub payloads are small (a template is at most 1600 characters).
    maxHttpBufferSize: 64 * 1024,
    // Browsers send Origin: only the app's own origins may open the hub (issue #14 finding 10).
    allowRequest: (req, callback) =>
      callback(null, hubOriginAllowed(req.headers.origin, req.headers.host, ctx.config.hubAllowedOrigins)),
    ...(pg ? { adapter: pg.adapter } : {}),
  };
  const io: HubServer = new Server(app.server, options);
  // Alone on its node, the in-memory adapter writes a room's frames a few dozen sockets per turn of
  // the event loop, as the PostgreSQL adapter does while no other hub node is known (fanout.ts).
  if (!pg) deliverInTurns(io.of('/').adapter);
  const logger = ctx.logger.child({ module: 'hub' });

  io.use(hubAuth((token) => ctx.services.auth.authenticate(token), logger));

  const handlers = hubHandlers({ dashboard: ctx.services.dashboard, directory: directoryOf(ctx.services) });
  io.on('connection', (socket: HubSocket) => {
    void socket.join(roomsOf(socket.data.auth.accountId, socket.data.auth.accountRole));
    const claims = socket.data.auth;
    bindHubMethods(socket, handlers, logger, () => ctx.services.auth.sessionActive(claims));
  });

  const pushes = mapEventsToPushes(io, ctx.events, logger);
  // An ended session (sign-out, password change, lock, role change, here or on another node)
  // closes its sockets on this node at once.
  const stopClosing = closeEndedSessions(io, ctx.services.sessions, logger);

  let closing: Promise<void> | null = null;
  const hub: Hub = {
    io,
    pushWindowsOpen: () => pushes.coalescer.size,
    broadcasts: () => (pg ? { ...pg.counts } : null),
    close: () =>
      (closing ??= (async () => {
        pushes.stop();
        stopClosing();
        // This node's sockets only: io.disconnectSockets() would reach every node.
        io.local.disconnectSockets(true);
        await io.close(); // closes the adapter (its close of the HTTP server is a no-op after Fastify's)
        await pg?.close();
      })()),
  };

  // Open WebSockets would keep the HTTP server from closing: drop them before Fastify closes it.
  app.addHook('preClose', (done) => {
    pushes.stop();
    io.local.disconnectSockets(true);
    io.engine.close();
    done();
  });
  app.addHook('onClose', async () => {
    await hub.close();
  });
  app.decorate('hub', hub);
  return hub;
}
