import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('XSRF double submit', () => {
  it('issues the XSRF-TOKEN cookie on a GET under /api', async () => {
    const res = await fetch(`${server.url}/api/auth/xsrf`);
    expect(res.status).toBe(204);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).not.toMatch(/HttpOnly/i);
  });

  it('refuses an unsafe request without the header, or with one that does not match', async () => {
    const c = server.client();
    c.xsrf = false;
    const body = { username: 'x', password: 'y' };
    const none = await c.post('/api/auth/login', body);
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('XSRF_MISMATCH');
    await c.get('/api/auth/xsrf');
    const wrong = await c.request('POST', '/api/auth/login', body, { headers: { 'x-xsrf-token': 'forged' } });
    expect(wrong.status).toBe(403);
    const right = await c.request('POST', '/api/auth/login', body, {
      headers: { 'x-xsrf-token': c.cookies.get('XSRF-TOKEN')! },
    });
    expect(right.status).toBe(401); // accepted by the XSRF check; refused only for the bad credentials
  });
});

describe('error shapes', () => {
  it('validation: 400 with only an errors object and no Application-Error header', async () => {
    const res = await server.client().post('/api/auth/login', { username: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: { username: ['Username is required'], password: [expect.any(String)] },
    });
    expect(res.headers.get('application-error')).toBeNull();
  });

  it('malformed JSON is a 400 with a body error, not a 500', async () => {
    const c = server.client();
    const res = await c.request('POST', '/api/auth/login', undefined, {
      raw: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.body[0]).toEqual(expect.any(String));
  });

  it('unknown API route: 404 with code, message and header, and no stack trace', async () => {
    const res = await server.client().get('/api/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'NOT_FOUND', message: 'No route for GET /api/nowhere' });
    expect(res.headers.get('application-error')).toBe(res.body.message);
    expect(JSON.stringify(res.body)).not.toMatch(/at .+\.ts/);
  });

  it('403 has its own code', async () => {
    const c = server.client();
    c.xsrf = false;
    const res = await c.post('/api/auth/logout');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('XSRF_MISMATCH');
  });
});

describe('health and security headers', () => {
  it('answers /healthz and /readyz (which checks the database)', async () => {
    expect((await server.client().get('/healthz')).body).toEqual({ status: 'ok' });
    const ready = await server.client().get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
  });

  it('sets helmet-style security headers', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
  });
});

describe('web app fallback', () => {
  it('serves the app for page navigations (also under /api) and JSON 404s for API calls', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const path = await import('node:path');
    const dist = path.join(server.dataDir, 'web-dist');
    mkdirSync(dist, { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Wren</title>');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    const web = await startServer({ WEB_DIST: dist });
    try {
      // The app's files are public (routes opt out of the default authentication as a scope).
      const asset = await fetch(`${web.url}/assets/app.js`);
      expect(asset.status).toBe(200);
      expect(await asset.text()).toBe('console.log(1)');
      const page = await fetch(`${web.url}/api/create`, {
        headers: { accept: 'text/html,application/xhtml+xml' },
      });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Wren</title>');
      expect(page.headers.getSetCookie().some((c) => c.startsWith('XSRF-TOKEN='))).toBe(true);
      const deep = await fetch(`${web.url}/groups/123/contacts`, { headers: { accept: 'text/html' } });
      expect(deep.status).toBe(200);
      // Read every body: an unread one keeps its keep-alive connection busy, and close waits for it.
      expect(await deep.text()).toContain('<title>Wren</title>');
      const api = await fetch(`${web.url}/api/create`, { headers: { accept: 'application/json' } });
      expect(api.status).toBe(404);
      expect(((await api.json()) as { code: string }).code).toBe('NOT_FOUND');
    } finally {
      await web.close();
    }
  });
});
