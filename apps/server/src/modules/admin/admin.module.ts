import {
  ADMIN_HUB_COMMANDS,
  ADMIN_HUB_REQUESTS,
  API,
  API_KEYS_API,
  ErrorCode,
  type HubAck,
  type HubFailure,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app/context';
import { AppError } from '../../platform/errors';
import { toHubFailure } from '../../realtime/hub-methods';
import type { HubSocket } from '../../realtime/hub-types';
import { recordAudit } from '../audit/audit.service';
import { campaignsOf } from '../campaigns/campaigns.routes';
import { createMetrics, registerMetrics } from '../metrics/metrics';
import * as repo from './admin.repository';
import { adminRoutes } from './admin.routes';
import { createAdminService } from './admin.service';
import { createRatePlansService } from './rate-plans.service';
import { createSystemService } from './system.service';
import { startPricingSync } from './pricing-sync';
import { REPORT_INTERVAL_MS } from './worker-report';

/** Admins' sockets on this node join this room; SystemStatusUpdated goes to it. */
export const ADMIN_ROOM = 'admins';

const hubSocketsOf = (app: FastifyInstance) => () =>
  app.hasDecorator('hub') && app.hub ? app.hub.io.engine.clientsCount : 0;

/**
 * The operator console (issue #16) on one API node: the admin routes, `GET /metrics`, the audit of
 * sign-ins and of operators' decisions made through other modules' routes, the refusal of sign-ins
 * to locked accounts, and the admin hub methods. Call before the module routes are registered.
 */
export async function registerAdmin(app: FastifyInstance, ctx: AppContext) {
  const { db, logger } = ctx;
  // Price changes take effect at once on every node (pricing-sync.ts), not after the 60 s cache.
  const invalidatePricing = () => ctx.services.pricing.invalidate();
  const pricingSync = startPricingSync({
    databaseUrl: ctx.database.kind === 'postgres' ? ctx.config.databaseUrl : undefined,
    logger,
    invalidate: invalidatePricing,
  });
  app.addHook('onClose', () => pricingSync.close());
  const admin = createAdminService({
    db,
    events: ctx.events,
    ledger: ctx.services.ledger,
    allowOverdraft: ctx.config.adminAllowOverdraft,
    invalidatePricing,
    sessions: ctx.services.sessions,
    // Locking stops the account's sending: its unfinished campaigns and its waiting messages are
    // canceled and refunded in the lock's transaction (and its send debits are refused from then on).
    stopSending: async (trx, accountId) => {
      const reason = 'Canceled: the account was locked by an operator';
      const fromCampaigns = await campaignsOf(ctx).cancelAllOf(trx, accountId, reason);
      const loose = await ctx.services.messages.cancelPendingOf(trx, accountId, reason);
      return { campaigns: fromCampaigns.campaigns, messages: fromCampaigns.messages + loose };
    },
    onLockChanged: (accountId) => ctx.services.apiKeys.forgetAccount(accountId),
  });
  const ratePlans = createRatePlansService({ db, invalidatePricing });
  const system = createSystemService({ db, dataDir: ctx.config.dataDir, hubSockets: hubSocketsOf(app) });
  const metrics = createMetrics({ db, logger, hubSockets: hubSocketsOf(app) });
  registerMetrics(app, metrics, ctx.config.metricsToken);

  // A locked account's user who signs in with the right password gets 423 and no session.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.method !== 'POST' || req.routeOptions.url !== API.login || reply.statusCode !== 200)
      return payload;
    const username = (req.body as { username?: unknown } | undefined)?.username;
    if (typeof username !== 'string') return payload;
    const who = await repo.accountOfUsername(db, username);
    if (!who?.locked_at) return payload;
    await ctx.services.sessions.invalidate({ accountId: who.account_id }, 'account_locked_by_operator');
    await recordAudit(db, {
      accountId: who.account_id,
      userId: who.user_id,
      ip: req.ip,
      kind: 'auth.login_refused',
      message: 'Sign-in refused: the account is locked by an operator',
    });
    reply.code(423).header('content-type', 'application/json; charset=utf-8');
    reply.removeHeader('set-cookie');
    return JSON.stringify({
      code: ErrorCode.ACCOUNT_LOCKED,
      message: 'This account is locked. Contact support to have it unlocked.',
    });
  });

  // Sign-ins, failed sign-ins, operators' sender ID decisions and API key creation, audited once
  // the response is known (the auth, sender-ids and api-keys modules answer them).
  app.addHook('onResponse', async (req, reply) => {
    const url = req.routeOptions.url ?? '';
    if (req.method !== 'POST') return;
    const status = reply.statusCode;
    try {
      if (url === API.login) {
        const username = (req.body as { username?: unknown } | undefined)?.username;
        if (typeof username !== 'string' || (status !== 200 && status !== 401)) return;
        const who = await repo.accountOfUsername(db, username);
        await recordAudit(db, {
          accountId: who?.account_id ?? null,
          userId: who?.user_id ?? null,
          ip: req.ip,
          kind: status === 200 ? 'auth.login' : 'auth.login_failed',
          message:
            status === 200
              ? `Signed in as ${username.slice(0, 100)}`
              : `Failed sign-in as "${username.slice(0, 100)}"${who ? '' : ' (no such user)'}`,
          resourceType: 'user',
          resourceId: who?.user_id ?? null,
        });
        return;
      }
      const decision = /^\/api\/admin\/sender-ids\/:id\/(approve|reject)$/.exec(url);
      if (decision && status === 200 && req.auth) {
        const approve = decision[1] === 'approve';
        const reason = (req.body as { reason?: string } | undefined)?.reason;
        await admin.record(
          { userId: req.auth.userId, accountId: req.auth.accountId, ip: req.ip },
          {
            accountId: null,
            kind: approve ? 'admin.sender_id_approved' : 'admin.sender_id_rejected',
            message: `${approve ? 'Approved' : 'Rejected'} a sender ID${reason ? `: ${reason}` : ''}`,
            resourceType: 'sender_id',
            resourceId: (req.params as { id?: string }).id ?? null,
          },
        );
        return;
      }
      if (url === API_KEYS_API.list && status === 201 && req.auth) {
        await recordAudit(db, {
          accountId: req.auth.accountId,
          userId: req.auth.userId,
          ip: req.ip,
          kind: 'api_key.created',
          message: 'Created an API key',
          resourceType: 'api_key',
        });
      }
    } catch (err) {
      logger.error({ err, url }, 'audit after response failed');
    }
  });

  await app.register(adminRoutes(ctx, { admin, ratePlans, system }));

  // Admin hub methods and the status push, once the hub is attached (after the routes).
  let pushTimer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (!app.hasDecorator('hub') || !app.hub) return;
    const io = app.hub.io;
    io.on('connection', (socket: HubSocket) => {
      const claims = socket.data.auth;
      if (claims.role === 'admin') void socket.join(ADMIN_ROOM);
      bindAdminHubMethods(socket, {
        isAdmin: async () => claims.role === 'admin' && (await ctx.services.auth.sessionActive(claims)),
        GetSystemStatus: () => system.status(),
        PauseConnection: (name) =>
          system.setPaused({
            op: { userId: claims.userId, accountId: claims.accountId, ip: socket.handshake.address },
            name,
            paused: true,
          }),
        ResumeConnection: (name) =>
          system.setPaused({
            op: { userId: claims.userId, accountId: claims.accountId, ip: socket.handshake.address },
            name,
            paused: false,
          }),
        logger,
      });
    });
    pushTimer = setInterval(() => {
      if ((io.of('/').adapter.rooms.get(ADMIN_ROOM)?.size ?? 0) > 0)
        io.local.to(ADMIN_ROOM).emit('SystemStatusUpdated');
    }, REPORT_INTERVAL_MS);
    pushTimer.unref();
  });
  app.addHook('onClose', async () => clearInterval(pushTimer));
}

function bindAdminHubMethods(
  socket: HubSocket,
  h: {
    isAdmin: () => Promise<boolean>;
    GetSystemStatus: () => Promise<unknown>;
    PauseConnection: (name: string) => Promise<unknown>;
    ResumeConnection: (name: string) => Promise<unknown>;
    logger: AppContext['logger'];
  },
) {
  const methods = [...ADMIN_HUB_REQUESTS, ...ADMIN_HUB_COMMANDS];
  for (const method of methods) {
    socket.on(method, (...args: unknown[]) => {
      const last = args.at(-1);
      const ack = typeof last === 'function' ? (args.pop() as (r: HubAck<unknown>) => void) : null;
      const fail = (error: HubFailure) => {
        if (ack) ack({ ok: false, error });
        else socket.emit('HubError', { method: method as never, ...error });
      };
      void h
        .isAdmin()
        .then(async (ok) => {
          if (!ok) throw new AppError(ErrorCode.FORBIDDEN, 'You do not have permission to do that');
          const name = typeof args[0] === 'string' ? args[0] : '';
          const result =
            method === 'GetSystemStatus'
              ? await h.GetSystemStatus()
              : method === 'PauseConnection'
                ? await h.PauseConnection(name)
                : await h.ResumeConnection(name);
          ack?.({ ok: true, data: result });
        })
        .catch((err: unknown) => fail(toHubFailure(err, h.logger, method)));
    });
  }
}
