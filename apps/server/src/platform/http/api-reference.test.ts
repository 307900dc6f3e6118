import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { apiReferenceLoads } from './api-reference';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('the API reference viewer (/v1/reference)', () => {
  it('is loaded on its first request, then serves the page, its script and the document', async () => {
    // Started, with routes declared, but the package (about 48 MB) not loaded yet.
    expect(server.app.hasRoute({ method: 'GET', url: '/v1/reference/js/scalar.js' })).toBe(true);
    expect(apiReferenceLoads()).toBe(0);

    // The script is public (the web app's /api/doc screen loads it).
    const script = await fetch(`${server.url}/v1/reference/js/scalar.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    const js = await script.text();
    expect(js.length).toBeGreaterThan(1_000_000);
    expect(js).toContain('createApiReference');
    expect(apiReferenceLoads()).toBe(1);

    // The page and the document copies need a signed-in user.
    expect((await fetch(`${server.url}/v1/reference/`)).status).toBe(401);
    expect((await fetch(`${server.url}/v1/reference/openapi.json`)).status).toBe(401);
    const c = server.client();
    await c.register();
    const page = await c.request<string>('GET', '/v1/reference/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('js/scalar.js');
    expect(page.body).toContain('./openapi.json');
    // CSP and the other security headers still come from the server.
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");

    const json = await c.get('/v1/reference/openapi.json');
    expect(json.status).toBe(200);
    expect(json.body.openapi).toBe('3.1.0');
    expect(json.body.paths['/v1/messages']).toBeDefined();
    expect(json.headers.get('content-disposition')).toMatch(/^filename=.+\.json$/);
    const yaml = await c.request<string>('GET', '/v1/reference/openapi.yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toBe('application/yaml');
    expect(yaml.body).toContain('/v1/messages:');

    const bare = await fetch(`${server.url}/v1/reference`, {
      redirect: 'manual',
      headers: { authorization: `Bearer ${c.accessToken}` },
    });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/v1/reference/');
    expect(apiReferenceLoads()).toBe(1);
  });
});
