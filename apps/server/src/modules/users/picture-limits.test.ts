import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import type { ApiClient } from '../../../test/client';
import { sniffImageType } from './picture';

// Issue #14 finding 11: "a 3 MB PNG (signature + zeros) was accepted with a 2 MB limit". Refuted
// for the size (413, nothing stored) and closed for the content: a signature alone is not a PNG.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex');
const fakePng = (size: number) => Buffer.concat([SIGNATURE, Buffer.alloc(size - SIGNATURE.length)]);

function upload(c: ApiClient, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/png' }), 'me.png');
  return c.request('POST', '/api/me/picture/fileUpload', undefined, { raw: form });
}

describe('profile picture limits (finding 11)', () => {
  it('refuses a 3 MB "PNG" of signature and zeros with 413 and stores nothing', async () => {
    const c = server.client();
    await c.register();
    const res = await upload(c, fakePng(3 * 1024 * 1024));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await c.get('/api/me')).body.hasPicture).toBe(false);
    expect((await c.get('/api/me/picture')).status).toBe(404);
  });

  it('refuses a signature-only "PNG" under the limit as not an image (was accepted)', async () => {
    const c = server.client();
    await c.register();
    const res = await upload(c, fakePng(1024 * 1024));
    expect(res.status).toBe(415);
    expect((await c.get('/api/me')).body.hasPicture).toBe(false);
  });

  it('sniffs real headers only', () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    expect(sniffImageType(png)).toBe('image/png');
    expect(sniffImageType(fakePng(64))).toBeNull();
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBP\0\0\0\0', 'latin1'))).toBeNull();
  });
});
