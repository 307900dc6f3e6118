import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { headerSafe } from './error-handler';

const JS = `console.log(${JSON.stringify('wren '.repeat(400))});`;

let server: TestServer;
beforeAll(async () => {
  const dataDir = path.join(process.env.TMPDIR ?? '/tmp', `wren-web-dist-${process.pid}-${Date.now()}`);
  const dist = path.join(dataDir, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  const html = '<!doctype html><title>Wren</title>';
  writeFileSync(path.join(dist, 'index.html'), html);
  writeFileSync(path.join(dist, 'index.html.br'), brotliCompressSync(html));
  writeFileSync(path.join(dist, 'index.html.gz'), gzipSync(html));
  writeFileSync(path.join(dist, 'assets', 'app.js'), JS);
  writeFileSync(path.join(dist, 'assets', 'app.js.br'), brotliCompressSync(JS));
  writeFileSync(path.join(dist, 'assets', 'app.js.gz'), gzipSync(JS));
  writeFileSync(path.join(dist, 'assets', 'small.js'), 'console.log(1)');
  server = await startServer({ WEB_DIST: dist });
});
afterAll(() => server?.close());

/** fetch decodes the body it was sent; content-length still tells which file came. */
async function get(url: string, acceptEncoding: string) {
  const res = await fetch(`${server.url}${url}`, {
    headers: { 'accept-encoding': acceptEncoding, accept: 'text/html' },
  });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

describe('precompressed web app files', () => {
  it('sends the brotli file to a client that accepts br, with Vary: Accept-Encoding', async () => {
    const { res, body } = await get('/assets/app.js', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toContain('immutable');
    // fetch decodes the body it announced: the bytes are the original script.
    expect(body.toString()).toBe(JS);
    expect(Number(res.headers.get('content-length'))).toBe(brotliCompressSync(JS).length);
  });

  it('sends the gzip file to a client that accepts only gzip', async () => {
    const { res, body } = await get('/assets/app.js', 'gzip');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(Number(res.headers.get('content-length'))).toBe(gzipSync(JS).length);
    expect(body.toString()).toBe(JS);
  });

  it('sends the plain file to a client that accepts neither, and when there is no compressed copy', async () => {
    const plain = await get('/assets/app.js', 'identity');
    expect(plain.res.headers.get('content-encoding')).toBeNull();
    expect(plain.res.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    expect(plain.body.toString()).toBe(JS);
    const small = await get('/assets/small.js', 'br, gzip');
    expect(small.res.status).toBe(200);
    expect(small.res.headers.get('content-encoding')).toBeNull();
    expect(small.body.toString()).toBe('console.log(1)');
  });

  it('compresses the SPA fallback page too', async () => {
    const { res, body } = await get('/groups/12/contacts', 'br');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(body.toString()).toContain('<title>Wren</title>');
  });
});

describe('Application-Error header', () => {
  it('percent-encodes % and non-ASCII so the client can decode the message exactly', () => {
    const message = 'A group named "VIP customers 🌟" already exists (100%)';
    const header = headerSafe(message);
    expect(header).toMatch(/^[\x20-\x7e]*$/);
    expect(header).toBe('A group named "VIP customers %F0%9F%8C%9F" already exists (100%25)');
    expect(decodeURIComponent(header)).toBe(message);
    expect(decodeURIComponent(headerSafe('line one\nline two'))).toBe('line one\nline two');
    expect(() => headerSafe('lone \ud83c surrogate')).not.toThrow();
  });
});
