import { io } from 'socket.io-client';
import { HUB_PATH } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { hubOriginAllowed } from '../../realtime/hub-auth';

// Issue #14 finding 10: HSTS behind TLS, no-store on /api, a /readyz that names nothing, and a
// hub that checks Origin.
let proxied: TestServer;
let direct: TestServer;
beforeAll(async () => {
  [proxied, direct] = await Promise.all([
    startServer({ TRUST_PROXY: 'true', HUB_ALLOWED_ORIGINS: 'https://app.wren.example' }),
    startServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([proxied?.close(), direct?.close()]);
});

describe('HSTS', () => {
  it('is sent when the request came over TLS through a trusted proxy, and only then', async () => {
    const tls = await fetch(`${proxied.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const plain = await fetch(`${proxied.url}/healthz`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    // Without TRUST_PROXY the header is the client's word, not the proxy's: no HSTS.
    const spoofed = await fetch(`${direct.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('Cache-Control on personal data', () => {
  it('is no-store on /api replies (profile, errors) unless a route chose its own', async () => {
    const c = direct.client();
    await c.register();
    expect((await c.get('/api/me')).headers.get('cache-control')).toBe('no-store');
    expect((await direct.client().get('/api/me')).headers.get('cache-control')).toBe('no-store');
    expect((await c.get('/api/groups')).headers.get('cache-control')).toBe('no-store');
  });
});

describe('/readyz', () => {
  it('says only ready or not', async () => {
    const res = await direct.client().get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready' });
  });
});

describe('hub Origin', () => {
  const connect = (server: TestServer, token: string, origin?: string) =>
    new Promise<string>((resolve) => {
      const socket = io(server.url, {
        path: HUB_PATH,
        transports: ['polling'],
        reconnection: false,
        forceNew: true,
        auth: { token },
        extraHeaders: origin ? { origin } : {},
      });
      socket.once('connect', () => {
        socket.close();
        resolve('connected');
      });
      socket.once('connect_error', (err) => {
        socket.close();
        resolve(`refused: ${err.message}`);
      });
    });

  it('accepts its own origin, PUBLIC_URL and the configured list; refuses other sites', async () => {
    const { accessToken } = await proxied.client().register();
    expect(await connect(proxied, accessToken)).toBe('connected'); // not a browser
    expect(await connect(proxied, accessToken, proxied.url)).toBe('connected'); // same origin
    expect(await connect(proxied, accessToken, 'https://app.wren.example')).toBe('connected');
    expect(await connect(proxied, accessToken, 'https://evil.example')).toMatch(/^refused/);
    expect(await connect(proxied, accessToken, 'null')).toMatch(/^refused/);
  });

  it('hubOriginAllowed compares whole origins', () => {
    const allowed = ['https://wren.example'];
    expect(hubOriginAllowed('https://wren.example', 'x', allowed)).toBe(true);
    expect(hubOriginAllowed('https://wren.example.evil.io', 'x', allowed)).toBe(false);
    expect(hubOriginAllowed('http://wren.example', 'x', allowed)).toBe(false);
    expect(hubOriginAllowed('http://localhost:5173', 'localhost:5173', allowed)).toBe(true);
    expect(hubOriginAllowed('file://', 'x', allowed)).toBe(false);
  });
});
