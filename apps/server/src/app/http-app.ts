import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { PICTURE_MAX_BYTES } from '@wren/contracts';
import helmet from 'helmet';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { registerAdmin } from '../modules/admin/admin.module';
import { routingRoutes } from '../modules/routing/routing.routes';
import { connectionsRoutes } from '../modules/routing/connections.routes';
import { numbersRoutes } from '../modules/numbers/numbers.routes';
import { conversationsRoutes } from '../modules/conversations/conversations.routes';
import { startQueueWakePublisher } from '../modules/messages/queue-wake';
import { authRoutes, rateLimitError } from '../modules/auth/auth.routes';
import { twoFactorRoutes } from '../modules/auth/two-factor.routes';
import { campaignsRoutes } from '../modules/campaigns/campaigns.routes';
import { dashboardRoutes } from '../modules/dashboard/dashboard.routes';
import { inboundRoutes } from '../modules/inbound/inbound.routes';
import { messagesRoutes } from '../modules/messages/messages.routes';
import { otpApiRoutes } from '../modules/otp/otp-api.routes';
import { errorCodes } from '../modules/v1/v1-errors';
import { otpRoutes } from '../modules/otp/otp.routes';
import { contactsRoutes } from '../modules/contacts/contacts.routes';
import { senderIdsRoutes } from '../modules/sender-ids/sender-ids.routes';
import { statementsRoutes } from '../modules/statements/statements.routes';
import { childStatementsRoutes } from '../modules/statements/child-statements.routes';
import { templatesRoutes } from '../modules/templates/templates.routes';
import { usersRoutes } from '../modules/users/users.routes';
import { membersRoutes } from '../modules/members/members.routes';
import { registerSubAccountLock } from '../modules/sub-accounts/sub-account-lock';
import { subAccountsRoutes } from '../modules/sub-accounts/sub-accounts.routes';
import { apiKeysRoutes } from '../modules/api-keys/api-keys.routes';
import { registerSmppServer } from '../modules/smpp-server/register';
import { v1Routes } from '../modules/v1/v1.routes';
import { linksRoutes } from '../modules/links/links.routes';
import { sendWindowsRoutes } from '../modules/send-windows/send-windows.routes';
import { billingRoutes } from '../modules/billing/billing.routes';
import { registerOpenApi } from '../modules/v1/openapi';
import { attachHub } from '../realtime/hub';
import type { AppContext } from './context';
import { registerErrorHandler } from '../platform/http/error-handler';
import { registerJsonBody } from '../platform/http/json-body';
import { PUBLIC, registerRouteAuth } from '../platform/http/route-auth';
import { registerTransportSecurity } from '../platform/http/transport-security';
import { registerWebApp } from '../platform/http/web-app';
import { registerXsrf } from '../platform/http/xsrf';
import { registerReadAfterWrite } from '../platform/http/read-after-write';

/** Builds the HTTP server for the API role: plugins, the error handler, health checks and module routes. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    // pino's Logger and Fastify's base logger differ only in generics; align them for FastifyInstance.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: ctx.logger as FastifyBaseLogger,
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerJsonBody(app);
  registerErrorHandler(app);
  // Before any route: every route needs a signed-in user unless its config says PUBLIC (or ADMIN).
  registerRouteAuth(app, ctx.guard);

  // Security headers. The helmet middleware is built once here (@fastify/helmet rebuilds it, CSP
  // parsing included, on every request).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    hsts: false,
  });
  app.addHook('onRequest', (req, reply, done) => {
    securityHeaders(req.raw, reply.raw, (err?: unknown) => done(err as Error | undefined));
  });
  registerTransportSecurity(app);
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_req, context) => rateLimitError(context.ttl),
  });
  await app.register(multipart, { limits: { fileSize: PICTURE_MAX_BYTES, files: 1, fields: 10 } });
  registerXsrf(app);
  // With DATABASE_READ_URL: a user's reads just after their own write go to the primary.
  registerReadAfterWrite(app, ctx.reads, ctx.config.databaseReadMaxLagMs);
  app.addHook('onClose', () => ctx.reads.close());

  app.get('/healthz', { config: PUBLIC }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: PUBLIC }, async (_req, reply) => {
    try {
      await sql`SELECT 1`.execute(ctx.db);
      return { status: 'ready' };
    } catch (err) {
      ctx.logger.warn({ err }, 'readiness check failed');
      // Only ready or not: an unauthenticated caller learns nothing about the database.
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  // Every request an API key made counts in the key's usage (last used, requests, errors) on whichever
  // route it reached: /v1 and the OTP API alike (the key check itself records the ones it refuses).
  app.addHook('onResponse', async (req, reply) => {
    const key = req.apiKey;
    if (key)
      ctx.services.apiKeys.recordUsage(key.keyId, reply.statusCode, errorCodes.get(req) ?? null, req.ip);
  });

  // The operator console (issue #16): its hooks (sign-in audit, locked accounts, metrics) come first.
  // Session invalidations made on other nodes (sessions.ts): heard by NOTIFY.
  const sessionSync = ctx.services.sessions.listen(
    ctx.database.kind === 'postgres' ? ctx.config.databaseUrl : undefined,
  );
  app.addHook('onClose', () => sessionSync.close());
  await registerAdmin(app, ctx);
  await app.register(routingRoutes(ctx)); // operators' routes and margin (issue 38)
  await app.register(connectionsRoutes(ctx)); // operators' carrier connections (issue 38)
  await app.register(numbersRoutes(ctx)); // numbers: inventory, assignment, the customer's own (issue 40)
  await app.register(conversationsRoutes(ctx)); // two-way threads and replies (issue 40)
  await registerOpenApi(app, ctx); // before any route: the /v1 OpenAPI document sees them all
  await app.register(authRoutes(ctx));
  await app.register(twoFactorRoutes(ctx));
  await app.register(usersRoutes(ctx));
  await app.register(membersRoutes(ctx));
  registerSubAccountLock(app, ctx.db); // before the routes it guards (sends, API-key calls)
  await app.register(subAccountsRoutes(ctx));
  await app.register(messagesRoutes(ctx));
  await app.register(dashboardRoutes(ctx));
  await app.register(senderIdsRoutes(ctx));
  await app.register(contactsRoutes(ctx));
  await app.register(templatesRoutes(ctx));
  await app.register(inboundRoutes(ctx));
  await app.register(apiKeysRoutes(ctx));
  await app.register(v1Routes(ctx), { prefix: '/v1' }); // the public API (API keys), modules/v1
  await app.register(campaignsRoutes(ctx));
  await app.register(otpRoutes(ctx));
  await app.register(otpApiRoutes(ctx));
  await app.register(statementsRoutes(ctx));
  await app.register(childStatementsRoutes(ctx));
  await app.register(linksRoutes(ctx)); // tracked short links, /l/{code} (issue 41)
  await app.register(sendWindowsRoutes(ctx)); // the account's default send window (issue 41)
  await app.register(billingRoutes(ctx)); // balance, top-ups and the Stripe webhook (issue 47)

  // Background jobs (platform/jobs.ts): this node sends them, and works them unless it is `api` only.
  await ctx.jobs.start();
  app.addHook('onClose', () => ctx.jobs.stop());
  // An API-only node announces queued messages to the worker nodes (modules/messages/queue-wake.ts).
  if (ctx.config.role === 'api' && ctx.config.databaseUrl) {
    const off = startQueueWakePublisher(ctx);
    app.addHook('onClose', async () => off());
  }

  // The SMPP server for customers (issue 37): its accounts' routes and its listeners.
  await registerSmppServer(app, ctx);

  await registerWebApp(app, ctx.config.webDist);
  attachHub(app, ctx); // Socket.IO at /hub on the same HTTP server (realtime/hub.ts)
  return app;
}
