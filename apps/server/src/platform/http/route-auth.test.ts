import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { userSchema } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { buildApp } from '../../app/http-app';
import { ADMIN, PUBLIC, SELF, can, routeTable } from './route-auth';
import { startAppWith } from '../../../test/test-app';

/** Issue #10 item 7: authentication by scope, so a new route is protected unless it opts out. */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

/** The only routes anyone may call without a token. Adding one here is a deliberate decision. */
const PUBLIC_ROUTES = [
  'GET /api/auth/captcha',
  'GET /api/auth/xsrf',
  'GET /healthz',
  'GET /readyz',
  'HEAD /api/auth/captcha',
  'HEAD /api/auth/xsrf',
  'HEAD /healthz',
  'HEAD /readyz',
  'POST /api/auth/forgot-password',
  'POST /api/auth/login',
  'POST /api/auth/refreshToken',
  'POST /api/auth/register',
  'POST /api/auth/register/confirm',
  'POST /api/auth/reset-password',
  // The two-factor step of sign-in, and enrollment when the account requires it (a challenge).
  'POST /api/auth/2fa',
  'POST /api/auth/2fa/enroll',
  'POST /api/auth/2fa/enroll/confirm',
  // Invite links (issue 39): what the link is for, and accepting it (a new user, or a password).
  'GET /api/invites/:token',
  'HEAD /api/invites/:token',
  'POST /api/invites/:token/accept',
  // Tracked short links (issue 41): the recipient who clicks has no account.
  'GET /l/:code',
  'HEAD /l/:code',
  // Stripe's webhook (issue 47): the signature over the raw body is its authentication.
  'POST /webhooks/stripe',
  // The public API's OpenAPI document and the interactive reference's script (modules/v1).
  'GET /v1/openapi.json',
  'HEAD /v1/openapi.json',
  'GET /v1/reference/js/scalar.js',
  'HEAD /v1/reference/js/scalar.js',
  // An unknown GET under /v1: /v1's 404, ahead of the web app's catch-all (answers nothing else).
  'GET /v1/',
  'GET /v1/*',
  'HEAD /v1',
  'HEAD /v1/',
  'HEAD /v1/*',
].sort();

const fill = (url: string) => url.replace(/:\w+/g, () => randomUUID());

describe('every route is protected unless it opts out', () => {
  it('public routes are exactly the sign-in, recovery and health ones', () => {
    const table = routeTable(server.app);
    expect(table.length).toBeGreaterThan(40);
    const open = table.filter((r) => r.access === 'public').map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual(PUBLIC_ROUTES);
  });

  it('every /api route declares its success response schema (zod, for validation and OpenAPI)', () => {
    const api = routeTable(server.app).filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD');
    const missing = api.filter((r) => !r.responses.some((s) => /^2\d\d$/.test(s)));
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('a response schema shapes what leaves the server: undeclared fields are dropped', async () => {
    const extra = await startAppWith(server, (app) => {
      app.get('/api/shaped', { config: SELF, schema: { response: { 200: userSchema } } }, async (req) => ({
        ...(await server.ctx.services.users.getProfile(req.auth!.userId)),
        passwordHash: 'x',
      }));
    });
    try {
      const c = new ApiClient(extra.url);
      const { user } = await c.register();
      const res = await c.get('/api/shaped');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(user);
      expect(res.body).not.toHaveProperty('passwordHash');
    } finally {
      await extra.close();
    }
  });

  it('every other registered route answers 401 without a token (and with a forged one)', async () => {
    const closed = routeTable(server.app).filter((r) => r.access !== 'public');
    const c = server.client();
    await c.get('/api/auth/xsrf'); // pass the XSRF check, so the answer is about the token
    const xsrf = c.cookies.get('XSRF-TOKEN')!;
    for (const forged of [undefined, 'Bearer not.a.token']) {
      for (const r of closed) {
        const headers: Record<string, string> = { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
        if (forged) headers.authorization = forged;
        const res = await fetch(server.url + fill(r.url), { method: r.method, headers });
        await res.arrayBuffer();
        expect.soft(res.status, `${r.method} ${r.url} ${forged ?? ''}`).toBe(401);
      }
    }
  });

  it('admin routes need the admin role: a signed-in user gets 403', async () => {
    const admin = routeTable(server.app).filter((r) => r.access === 'admin');
    expect(admin.map((r) => r.url)).toContain('/api/admin/sender-ids');
    const c = server.client();
    await c.register();
    for (const r of admin.filter((a) => a.method !== 'HEAD')) {
      expect.soft((await c.request(r.method, fill(r.url))).status, `${r.method} ${r.url}`).toBe(403);
    }
  });

  it('an unknown access value stops the app at start', async () => {
    const jobs = { ...server.ctx.jobs, start: async () => {}, stop: async () => {} };
    const app: FastifyInstance = await buildApp({ ...server.ctx, jobs });
    try {
      expect(() =>
        app.get('/api/typo', { config: { auth: 'pubilc' as 'public' } }, async () => ({ ok: true })),
      ).toThrow(/unknown auth "pubilc"/);
    } finally {
      await app.close();
    }
  });

  it('a user route that declares no permission stops the server at start (closed by default)', async () => {
    const jobs = { ...server.ctx.jobs, start: async () => {}, stop: async () => {} };
    const app: FastifyInstance = await buildApp({ ...server.ctx, jobs });
    try {
      app.get('/api/undeclared', async () => ({ secret: 'leaked' }));
      expect(() =>
        app.get('/api/typo', { config: can('mesages:send' as 'messages:send') }, async () => ({})),
      ).toThrow(/unknown permission "mesages:send"/);
      await expect(app.ready()).rejects.toThrow(
        /user routes without config.permission.*GET \/api\/undeclared/,
      );
    } finally {
      await app.close().catch(() => {});
    }
  });

  it('every user route declares its permission; admin, public and API-key routes need none', () => {
    const table = routeTable(server.app).filter((r) => r.access === 'user' && r.method !== 'HEAD');
    expect(table.filter((r) => !r.permission).map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('an API-key route must name a known scope; only user routes may also take keys', async () => {
    const jobs = { ...server.ctx.jobs, start: async () => {}, stop: async () => {} };
    const app: FastifyInstance = await buildApp({ ...server.ctx, jobs });
    try {
      expect(() => app.get('/v1/no-scope', { config: { auth: 'apikey' } }, async () => ({}))).toThrow(
        /must name its scope/,
      );
      expect(() =>
        app.get(
          '/v1/typo',
          { config: { auth: 'apikey', scope: 'sms:sned' as 'sms:send' } },
          async () => ({}),
        ),
      ).toThrow(/unknown API scope "sms:sned"/);
      expect(() =>
        app.get('/api/admin/x', { config: { auth: 'admin', scope: 'otp' } }, async () => ({})),
      ).toThrow(/only user routes/);
    } finally {
      await app.close();
    }
  });

  it('a route added without an opt-out, anywhere and in any plugin, answers 401 without a token', async () => {
    const extra = await startAppWith(server, (app) => {
      app.get('/api/brand-new', { config: SELF }, async () => ({ secret: 'leaked' }));
      app.post('/api/brand-new', { config: SELF }, async () => ({ secret: 'leaked' }));
      app.get('/v1/brand-new', { config: SELF }, async () => ({ secret: 'leaked' }));
      app.get('/elsewhere', { config: SELF }, async () => ({ secret: 'leaked' }));
      void app.register(async (child) => {
        child.get('/api/in-a-plugin/:id', { config: SELF }, async () => ({ secret: 'leaked' }));
      });
      app.get('/api/admin/brand-new', { config: ADMIN }, async () => ({ secret: 'admin only' }));
      app.get('/api/opted-out', { config: PUBLIC }, async () => ({ open: true }));
    });
    try {
      const c = new ApiClient(extra.url); // cookies and XSRF as the browser app sends them
      for (const [method, path] of [
        ['GET', '/api/brand-new'],
        ['POST', '/api/brand-new'],
        ['GET', '/v1/brand-new'],
        ['GET', '/elsewhere'],
        ['GET', `/api/in-a-plugin/${randomUUID()}`],
        ['GET', '/api/admin/brand-new'],
      ] as const) {
        const res = await c.request(method, path);
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(JSON.stringify(res.body)).not.toContain('leaked');
      }
      expect((await c.get('/api/opted-out')).body).toEqual({ open: true });

      await c.register();
      expect((await c.get('/api/brand-new')).body).toEqual({ secret: 'leaked' });
      expect((await c.get('/api/admin/brand-new')).status).toBe(403);
    } finally {
      await extra.close();
    }
  });
});
