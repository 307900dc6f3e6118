import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { connectHub, recordPushes, until } from '../../realtime/test-client';
import { PUBLIC } from './route-auth';
import { startAppWith } from '../../../test/test-app';

/** Issue #14 findings 1, 2, 4, 5, 6 and issue #10 item 7: bad input is a 4xx, never a 500. */
let server: TestServer;
let c: ApiClient;
let groupId: string;

beforeAll(async () => {
  server = await startServer();
  c = server.client();
  await c.register();
  const group = await c.post('/api/groups', { name: 'Hardening' });
  expect(group.status).toBe(201);
  groupId = group.body.id;
});
afterAll(async () => {
  await server?.close();
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A 400 in the validation shape (SPEC.md §8) naming `field`. */
function expectFieldError(res: { status: number; body: any }, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(Object.keys(res.body.errors ?? {})).toContain(field);
  expect(res.body.errors[field].join(' ')).not.toMatch(/Something went wrong/);
}

describe('NUL and lone surrogates in text', () => {
  it('login with a NUL username is a 400 (unauthenticated route)', async () => {
    const res = await server.client().post('/api/auth/login', { username: '\u0000', password: 'x' });
    expectFieldError(res, 'username');
    expect(res.body.errors.username[0]).toMatch(/character/i);
  });

  it('is a 400 on every route that takes text, body or query', async () => {
    const cases: [string, string, unknown, string][] = [
      [
        'POST',
        '/api/auth/register',
        {
          username: 'nul',
          name: 'a\0b',
          email: 'n@x.io',
          phone: '+14155550123',
          password: 'correct horse 42',
        },
        'name',
      ],
      ['POST', '/api/auth/forgot-password', { email: 'a\0@b.io' }, 'email'],
      ['POST', '/api/auth/reset-password', { token: 'a\0', password: 'correct horse 42' }, 'token'],
      ['POST', '/api/auth/refreshToken', { accessToken: 'a\0', refreshToken: 'b' }, 'accessToken'],
      ['PATCH', '/api/me', { name: 'a\0b' }, 'name'],
      [
        'POST',
        '/api/me/password',
        { currentPassword: 'a\0', newPassword: 'correct horse 43' },
        'currentPassword',
      ],
      ['POST', '/api/templates', { name: 'a\u0000b', text: 't' }, 'name'],
      ['POST', '/api/templates', { name: 'ok', text: 'a\ud800b' }, 'text'],
      ['POST', '/api/groups', { name: 'a\0' }, 'name'],
      ['PATCH', `/api/groups/${groupId}`, { name: '\udc00' }, 'name'],
      ['POST', `/api/groups/${groupId}/contacts`, { phone: '+14155550123', name: 'a\0' }, 'name'],
      [
        'POST',
        `/api/groups/${groupId}/contacts`,
        { phone: '+14155550124', fields: { city: 'a\0' } },
        'fields.city',
      ],
      [
        'POST',
        '/api/sender-ids',
        { value: 'ACME', purpose: 'a\0b', sampleMessage: 'Hello there' },
        'purpose',
      ],
      ['POST', '/api/sms/single', { recipients: ['+14155550123'], text: 'hi\0' }, 'text'],
      ['GET', `/api/groups/${groupId}/contacts?q=%00`, undefined, 'q'],
      ['GET', '/api/sms/log?text=%00', undefined, 'text'],
      ['GET', '/api/sms/log?sender=x%00', undefined, 'sender'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await c.request(method, path, body);
      expect.soft(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBe(400);
      expect.soft(Object.keys(res.body?.errors ?? {}), `${method} ${path}`).toContain(field);
    }
  });

  it('hub SaveSmsTemplate with a NUL name fails as VALIDATION, not INTERNAL', async () => {
    const socket = await connectHub(server.url, c.accessToken!);
    try {
      const rec = recordPushes(socket);
      socket.emit('SaveSmsTemplate', 'a\u0000b', 'text');
      await until(() => rec.errors.length === 1, 5000, 'HubError');
      expect(rec.errors[0]).toMatchObject({ method: 'SaveSmsTemplate', code: 'VALIDATION' });
      expect(rec.errors[0]!.errors?.name).toBeDefined();
    } finally {
      socket.close();
    }
  });
});

describe('page cursors go through the one cursor schema', () => {
  it('a crafted SMS-log cursor (bad uuid, or a date out of range) is a 400 on cursor', async () => {
    for (const key of [
      ['2025-01-01T00:00:00.000Z', 'not-a-uuid'],
      ['+275760-09-13T00:00:00.000Z', randomUUID()],
      ['2025-02-30T00:00:00.000Z', randomUUID()],
      { createdAt: '2025-01-01T00:00:00.000Z' },
    ]) {
      expectFieldError(await c.get(`/api/sms/log?cursor=${b64(key)}`), 'cursor');
    }
    expectFieldError(await c.get('/api/sms/log?cursor=%00%01'), 'cursor');
  });

  it('a forged contacts cursor is a 400 on cursor', async () => {
    for (const key of [
      { s: 'c', t: 'garbage', id: randomUUID() },
      { s: 'c', t: '99999-01-01 00:00:00+00', id: randomUUID() },
      { s: 'c', t: '2025-01-01 00:00:00+00', id: 'nope' },
      { s: 'n', n: 'a\u0000', id: randomUUID() },
    ]) {
      expectFieldError(await c.get(`/api/groups/${groupId}/contacts?cursor=${b64(key)}`), 'cursor');
    }
  });

  it('a forged inbox or sender-ID review cursor is a 400 on cursor', async () => {
    for (const key of [
      ['2025-02-30T00:00:00.000Z', randomUUID()],
      ['2025-01-01T00:00:00.000Z', 'nope'],
    ]) {
      expectFieldError(await c.get(`/api/inbound?cursor=${b64(key)}`), 'cursor');
    }
    const admin = server.client();
    const reg = await admin.register();
    await server.ctx.services.users.promote(reg.user.username);
    admin.useSession(
      (await admin.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
    );
    for (const key of [
      { t: 'garbage', id: randomUUID() },
      { t: '2025-01-01 00:00:00+00', id: '1' },
    ]) {
      expectFieldError(await admin.get(`/api/admin/sender-ids?cursor=${b64(key)}`), 'cursor');
    }
  });

  it('a cursor the server made still pages (SMS log and contacts)', async () => {
    for (let i = 0; i < 3; i++) {
      await c.post(`/api/groups/${groupId}/contacts`, { phone: `+1415555020${i}`, name: `P${i}` });
    }
    for (const sort of ['created', 'name']) {
      const first = await c.get(`/api/groups/${groupId}/contacts?limit=2&sort=${sort}`);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const next = await c.get(
        `/api/groups/${groupId}/contacts?limit=2&sort=${sort}&cursor=${first.body.nextCursor}`,
      );
      expect(next.status).toBe(200);
      expect(next.body.items.length).toBeGreaterThan(0);
    }
    const log = await c.get(`/api/sms/log?cursor=${b64(['2025-01-01T00:00:00.000Z', randomUUID()])}`);
    expect(log.status).toBe(200);
  });
});

describe('XSRF on the routed path', () => {
  it('refuses a percent-encoded /api path without the XSRF header', async () => {
    const raw = server.client();
    raw.xsrf = false;
    raw.accessToken = c.accessToken;
    for (const path of ['/%61pi/groups', '/api/%67roups', '/%61%70%69/groups']) {
      const res = await raw.post(path, { name: 'should not exist' });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('XSRF_MISMATCH');
    }
    const list = await c.get('/api/groups');
    expect(list.body.items.map((g: { name: string }) => g.name)).not.toContain('should not exist');
  });
});

/** A multipart body by hand, so it can be broken on purpose. */
function multipart(fileName: string, content: string, opts: { close?: boolean } = {}) {
  const boundary = 'wrenboundary42';
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n${content}\r\n` +
    (opts.close === false ? '' : `--${boundary}--\r\n`);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

describe('malformed multipart is a 4xx on every upload route', () => {
  const routes = () => ['/api/me/picture/fileUpload', `/api/groups/${groupId}/contacts/fileUpload`];

  it('no boundary, an empty one, or one too long', async () => {
    for (const path of routes()) {
      for (const type of [
        'multipart/form-data',
        'multipart/form-data; boundary=',
        `multipart/form-data; boundary=${'b'.repeat(300)}`,
      ]) {
        const res = await c.request('POST', path, undefined, {
          raw: 'whatever',
          headers: { 'content-type': type },
        });
        expect(res.status, `${path} ${type} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} ${type}`).toBeLessThan(500);
        expect(res.body.code ?? res.body.errors).toBeDefined();
      }
    }
  });

  it('a part terminated early', async () => {
    for (const path of routes()) {
      const { body, type } = multipart('a.csv', 'phone\n+14155550123', { close: false });
      const cut = body.slice(0, body.length - 6);
      const res = await c.request('POST', path, undefined, { raw: cut, headers: { 'content-type': type } });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeLessThan(500);
    }
  });

  it('a NUL in the file name', async () => {
    for (const path of routes()) {
      const { body, type } = multipart('a\u0000b.csv', 'phone\n+14155550123\n');
      const res = await c.request('POST', path, undefined, { raw: body, headers: { 'content-type': type } });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('a good upload still works', async () => {
    const { body, type } = multipart('good.csv', 'phone,name\n+14155550123,Ann\n');
    const res = await c.request('POST', `/api/groups/${groupId}/contacts/fileUpload`, undefined, {
      raw: body,
      headers: { 'content-type': type },
    });
    expect(res.status).toBe(201);
    expect(res.body.fileName).toBe('good.csv');
  });
});

describe('exports validate their filters before the first byte', () => {
  it('GET /api/sms/log/export.csv?text=%00 is a 400 JSON error, not a 200 cut short', async () => {
    const res = await c.get('/api/sms/log/export.csv?text=%00');
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect(res.body.errors.text).toBeDefined();
  });

  it('a good export is still a CSV', async () => {
    const res = await c.get('/api/sms/log/export.csv?text=hello');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    expect(res.body).toMatch(/^\uFEFF?Date,Recipient,/);
  });
});

describe('PostgreSQL data errors are 4xx, not 500', () => {
  it('maps each SQLSTATE to a clear 4xx in the SPEC §8 shape, with no error-level log', async () => {
    const lines: { level: number; msg?: string }[] = [];
    const logger = pino(
      { level: 'debug' },
      { write: (s: string) => void lines.push(JSON.parse(s) as { level: number; msg?: string }) },
    );
    const db = server.ctx.db;
    const statements: Record<string, () => Promise<unknown>> = {
      '22P02': () => sql`SELECT 'abc'::uuid`.execute(db),
      '22007': () => sql`SELECT 'garbage'::timestamptz`.execute(db),
      '22008': () => sql`SELECT '2025-13-01'::timestamptz`.execute(db),
      '22003': () => sql`SELECT 99999999999::int4`.execute(db),
      '22021': () => sql`SELECT convert_from('\\x00'::bytea, 'UTF8')`.execute(db),
      '23502': () => sql`INSERT INTO contact_groups (id) VALUES (gen_random_uuid())`.execute(db),
      '23503': () =>
        sql`INSERT INTO contact_groups (account_id, name) VALUES (gen_random_uuid(), 'x')`.execute(db),
    };
    // 23505 and 23514 need a table with a key and a check.
    await sql`CREATE TABLE IF NOT EXISTS hardening_probe (k int PRIMARY KEY, v int CHECK (v > 0), s varchar(2))`.execute(
      db,
    );
    await sql`INSERT INTO hardening_probe VALUES (1, 1) ON CONFLICT DO NOTHING`.execute(db);
    statements['23505'] = () => sql`INSERT INTO hardening_probe VALUES (1, 1)`.execute(db);
    statements['23514'] = () => sql`INSERT INTO hardening_probe VALUES (2, -1)`.execute(db);
    statements['22001'] = () => sql`INSERT INTO hardening_probe VALUES (3, 1, 'abcdef')`.execute(db);
    const probe = await startAppWith(
      server,
      (app) => {
        for (const code of Object.keys(statements)) {
          app.get(`/probe/${code}`, { config: PUBLIC }, async () => {
            await statements[code]!();
            return { ok: true };
          });
        }
      },
      { logger },
    );
    try {
      const base = probe.url;
      const expected: Record<string, number> = {
        '22P02': 400,
        '22007': 400,
        '22008': 400,
        '22001': 400,
        '22003': 400,
        '22021': 400,
        '23502': 400,
        '23503': 404,
        '23505': 409,
        '23514': 400,
      };
      for (const [code, status] of Object.entries(expected)) {
        const res = await fetch(`${base}/probe/${code}`);
        const body = (await res.json()) as { code: string; message: string };
        expect.soft(res.status, code).toBe(status);
        expect.soft(body.message, code).not.toMatch(/Something went wrong/);
        expect.soft(res.headers.get('application-error'), code).toBe(body.message);
        expect.soft(body.message, code).not.toMatch(/hardening_probe|contact_groups|uuid/);
      }
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    } finally {
      await probe.close();
    }
  });
});
