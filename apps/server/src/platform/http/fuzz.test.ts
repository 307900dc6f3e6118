import { randomUUID } from 'node:crypto';
import { HUB_COMMANDS, HUB_REQUESTS } from '@wren/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { setRole } from '../../modules/users/users.repository';
import { call, connectHub, recordPushes } from '../../realtime/test-client';
import { routeTable, type RouteEntry } from './route-auth';
import { startAppWith } from '../../../test/test-app';

/**
 * Issue #14: the bounded fuzz family. For every HTTP route and hub method, generated malformed
 * input: wrong types, NUL, lone surrogates, 1 MB strings, deep JSON, bad uuids, bad cursors, wrong
 * content types and broken multipart. No response may be a 5xx and no error-level log line may come
 * from user input. FUZZ_RUNS (default 3) adds that many seeded random cases per route and field;
 * set it higher for a longer run (e.g. FUZZ_RUNS=200 npx vitest run --project server fuzz).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3);

const logLines: { level: number; msg?: string; err?: unknown; req?: unknown }[] = [];
let server: TestServer;
let app: { url: string; close: () => Promise<void> };
let c: ApiClient;
let ids: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  // The real app on the test server's context, logging into an array.
  const logger = pino({ level: 'info' }, { write: (s: string) => void logLines.push(JSON.parse(s)) });
  app = await startAppWith(server, () => undefined, { logger });
  c = new ApiClient(app.url);
  const reg = await c.register();
  await setRole(server.ctx.db, reg.user.username, 'admin');
  c.useSession(
    (await c.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
  );
  const group = (await c.post('/api/groups', { name: 'Fuzz group' })).body;
  const contact = (await c.post(`/api/groups/${group.id}/contacts`, { phone: '+14155550131' })).body;
  const form = new FormData();
  form.append('file', new Blob(['phone\n+14155550132\n'], { type: 'text/csv' }), 'a.csv');
  const imp = await c.request('POST', `/api/groups/${group.id}/contacts/fileUpload`, undefined, {
    raw: form,
  });
  const template = (await c.post('/api/templates', { name: 'Fuzz', text: 'hi' })).body;
  const sender = (
    await c.post('/api/sender-ids', { value: 'FUZZCO', purpose: 'Fuzzing', sampleMessage: 'Hi' })
  ).body;
  await c.post('/api/sms/single', { recipients: ['+14155550133'], text: 'fuzz' });
  const message = (await c.get('/api/sms/log')).body.items[0];
  await c.post('/api/suppressions', { phone: '+14155550134' });
  const otpService = (await c.post('/api/otp-services', { name: 'Fuzz OTP', template: 'Code {{code}}' }))
    .body;
  ids = {
    group: group.id,
    contact: contact.id,
    import: imp.body.importId,
    template: template.id,
    sender: sender.id,
    message: message.id,
    number: encodeURIComponent('+14155550134'),
    otpService: otpService.id,
  };
});
afterAll(async () => {
  await app?.close();
  await server?.close();
});

/** A small seeded PRNG (mulberry32), so a failing case can be replayed with the same FUZZ_SEED. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(Number(process.env.FUZZ_SEED ?? 1414));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepObject = (depth: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};
const MEGA = 'x'.repeat(1024 * 1024);

/** Malformed values for one field. */
const BAD_VALUES: unknown[] = [
  null,
  123,
  -1,
  1e308,
  true,
  [],
  {},
  ['a', 1, null],
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  ' '.repeat(300),
  'x'.repeat(70_000),
  'not-a-uuid',
  '2026-13-45T99:99:99Z',
  '+1'.repeat(40),
  deepObject(200),
  { __proto__: { admin: true } },
  { constructor: { prototype: { polluted: true } } },
];

function randomValue(): unknown {
  const r = random();
  if (r < 0.3) {
    const len = Math.floor(random() * 300);
    let s = '';
    for (let i = 0; i < len; i++) s += String.fromCharCode(Math.floor(random() * 0xffff));
    return s;
  }
  if (r < 0.5) return Math.floor(random() * 2 ** 53) * (random() < 0.5 ? -1 : 1);
  if (r < 0.6) return random() < 0.5 ? [randomValue()] : { k: randomValue() };
  return pick(BAD_VALUES);
}

/** Path values: real ids (so the body is reached) and malformed ones. */
const BAD_IDS = [
  'not-a-uuid',
  '%00',
  '%ED%A0%80',
  "'%20OR%201=1",
  'x'.repeat(3000),
  '..%2F..%2Fetc',
  '-1',
  '%F0%9F',
];
function realPath(r: RouteEntry): string {
  return r.url
    .replace(':contactId', ids.contact!)
    .replace(':importId', ids.import!)
    .replace(':number', ids.number!)
    .replace(':serviceId', ids.otpService!)
    .replace(':id', () => {
      if (r.url.startsWith('/api/groups')) return ids.group!;
      if (r.url.startsWith('/api/templates')) return ids.template!;
      if (r.url.startsWith('/api/otp-services')) return ids.otpService!;
      if (r.url.includes('sender-ids')) return ids.sender!;
      if (r.url.startsWith('/api/sms/log')) return ids.message!;
      return randomUUID();
    });
}

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const BAD_QUERIES = [
  'cursor=garbage',
  `cursor=${b64(['2026-01-01T00:00:00Z', 'abc'])}`,
  `cursor=${b64(['99999-01-01T00:00:00Z', randomUUID()])}`,
  `cursor=${b64({ s: 'c', t: 'garbage', id: 'x' })}`,
  `cursor=${b64('\u0000')}`,
  'q=%00',
  'q=%ED%A0%80',
  `q=${'a'.repeat(5000)}`,
  'limit=-1',
  'limit=abc',
  'limit=1e309',
  'limit=99999999999999999999',
  'from=notadate&to=2026-99-99',
  'status=bogus&status=also',
  'text=%00',
  'sort=%00&order=sideways',
  'page=-5&pageSize=0',
  '__proto__[x]=1',
];

function keysOf(schema: unknown): string[] {
  let s = schema as
    { shape?: Record<string, unknown>; def?: { innerType?: unknown; in?: unknown } } | undefined;
  for (let i = 0; i < 5 && s; i++) {
    if (s instanceof z.ZodObject) return Object.keys(s.shape);
    s = (s.def?.innerType ?? s.def?.in) as typeof s;
  }
  return [];
}

interface Outcome {
  tried: number;
  failures: string[];
  /** Responses by status class, to show the input reached validation (not a wall of 401s). */
  statuses?: Record<string, number>;
}

async function send(
  o: Outcome,
  label: string,
  method: string,
  path: string,
  body?: { raw: string | FormData | Uint8Array; type?: string },
) {
  const headers: Record<string, string> = body?.type ? { 'content-type': body.type } : {};
  let status: number;
  try {
    const res = await c.request(method, path, undefined, { raw: body?.raw as RequestInit['body'], headers });
    status = res.status;
  } catch (err) {
    status = 599; // the server dropped the connection
    o.failures.push(`${label}: ${method} ${path.slice(0, 120)} -> connection error ${String(err)}`);
    o.tried += 1;
    return;
  }
  o.tried += 1;
  o.statuses ??= {};
  o.statuses[status] = (o.statuses[status] ?? 0) + 1;
  if (status >= 500) o.failures.push(`${label}: ${method} ${path.slice(0, 120)} -> ${status}`);
}

const json = (v: unknown) => ({ raw: JSON.stringify(v) ?? 'null', type: 'application/json' });

describe('fuzz (bounded; FUZZ_RUNS for more)', () => {
  it('HTTP: no 5xx and no error-level log line for malformed input on any route', async () => {
    const routes = routeTable(server.app).filter(
      (r) =>
        r.method !== 'HEAD' &&
        r.method !== 'OPTIONS' &&
        !['/api/auth/logout'].includes(r.url) &&
        // API-key routes (/v1) answer a session with 401: fuzzed with a key in modules/v1/v1.test.ts.
        r.access !== 'apikey',
    );
    expect(routes.length).toBeGreaterThan(40);
    const o: Outcome = { tried: 0, failures: [] };
    for (const r of routes) {
      const path = realPath(r);
      const destructive = r.method === 'DELETE' || r.url.endsWith('/bulk-delete');
      // Malformed path values.
      if (r.url.includes(':')) {
        for (const bad of BAD_IDS) {
          await send(
            o,
            'bad id',
            r.method,
            r.url.replace(/:\w+/g, bad),
            r.method === 'GET' ? undefined : json({}),
          );
        }
      }
      if (destructive) continue; // the rest would delete the fixtures
      // Malformed query strings.
      for (const q of BAD_QUERIES) await send(o, 'bad query', r.method, `${path}?${q}`);
      if (r.method === 'GET') continue;
      // Whole bodies of the wrong shape, broken JSON, deep JSON, 1 MB, wrong content types.
      for (const v of [null, [], 'str', 42, true, {}]) await send(o, 'wrong body', r.method, path, json(v));
      await send(o, 'broken json', r.method, path, { raw: '{"a":', type: 'application/json' });
      await send(o, 'deep array', r.method, path, { raw: deepArray(100_000), type: 'application/json' });
      await send(o, 'deep object', r.method, path, {
        raw: '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000),
        type: 'application/json',
      });
      await send(o, '1 MB string', r.method, path, json({ x: MEGA }));
      await send(o, 'text/plain', r.method, path, { raw: 'hello', type: 'text/plain' });
      await send(o, 'xml', r.method, path, { raw: '<a/>', type: 'application/xml' });
      await send(o, 'utf-16 json', r.method, path, {
        raw: Buffer.from('{"a":1}', 'utf16le'),
        type: 'application/json; charset=utf-16',
      });
      await send(o, 'multipart no boundary', r.method, path, { raw: 'x', type: 'multipart/form-data' });
      await send(o, 'multipart cut short', r.method, path, {
        raw: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nphone\n',
        type: 'multipart/form-data; boundary=b',
      });
      const nulName = new FormData();
      nulName.append('file', new Blob(['phone\n+14155550135\n']), 'a\u0000.csv');
      await send(o, 'multipart nul name', r.method, path, { raw: nulName });
      // Each declared field with wrong types and hostile strings, the others left valid-looking.
      const keys = keysOf(r.schemas.body);
      for (const key of keys) {
        for (const v of BAD_VALUES) await send(o, `field ${key}`, r.method, path, json({ [key]: v }));
        for (let i = 0; i < RUNS; i++) {
          const body: Record<string, unknown> = {};
          for (const k of keys) body[k] = k === key ? randomValue() : pick(BAD_VALUES);
          await send(o, `random ${key}`, r.method, path, json(body));
        }
      }
    }
    const errors = logLines.filter((l) => l.level >= 50);
    console.log(
      `fuzz http: ${o.tried} cases tried, ${o.failures.length} failures, ${errors.length} error-level log lines; statuses ${JSON.stringify(o.statuses)}`,
    );
    // The cases reached the routes' validation as a signed-in admin, not the auth or XSRF wall.
    expect((o.statuses?.['401'] ?? 0) + (o.statuses?.['403'] ?? 0)).toBeLessThan(o.tried / 20);
    expect(o.statuses?.['400'] ?? 0).toBeGreaterThan(o.tried / 3);
    expect(o.failures).toEqual([]);
    expect(errors.map((l) => l.msg)).toEqual([]);
    // Bounded by its cases (about 13,000), not by time: beside the browser tests on PostgreSQL 15 in
    // CI it took over the default 60 s (13 s alone), once routes for numbers and conversations came.
  }, 240_000);

  it('hub: no INTERNAL error and no error-level log line for malformed arguments', async () => {
    const socket = await connectHub(app.url, c.accessToken!);
    const pushes = recordPushes(socket);
    const o: Outcome = { tried: 0, failures: [] };
    const argSets: unknown[][] = [
      [],
      ...BAD_VALUES.filter((v) => JSON.stringify(v)?.length < 60_000).map((v) => [v]),
      [{ value: '\u0000', purpose: '\ud800', sampleMessage: 'x'.repeat(5000) }],
      ['\u0000', '\ud800'],
      [randomUUID(), randomUUID()],
    ];
    // Each case fits the hub's 64 KB frame (hub.ts maxHttpBufferSize): Socket.IO closes a socket
    // that sends a bigger one, which is the limit working, not a failure of a method.
    for (let i = 0; i < RUNS; i++) {
      let args: unknown[];
      do args = [randomValue(), randomValue()];
      while (JSON.stringify(args).length >= 60_000);
      argSets.push(args);
    }
    try {
      for (const method of HUB_REQUESTS) {
        for (const args of argSets) {
          const ack = await call(socket, method, ...args);
          o.tried += 1;
          if (!ack.ok && ack.error.code === 'INTERNAL')
            o.failures.push(`${method}(${JSON.stringify(args).slice(0, 80)})`);
        }
      }
      for (const method of HUB_COMMANDS) {
        for (const args of argSets) {
          (socket as unknown as { emit(ev: string, ...a: unknown[]): void }).emit(method, ...args);
          o.tried += 1;
        }
      }
      await call(socket, 'GetAccountBalance'); // commands are handled in order: all done by now
      if (!socket.connected) o.failures.push('the hub dropped the socket');
    } finally {
      socket.close();
    }
    for (const e of pushes.errors)
      if (e.code === 'INTERNAL') o.failures.push(`command: ${JSON.stringify(e)}`);
    const errors = logLines.filter((l) => l.level >= 50);
    console.log(
      `fuzz hub: ${o.tried} cases tried, ${o.failures.length} failures, ${errors.length} error-level log lines`,
    );
    expect(o.failures).toEqual([]);
    expect(errors.map((l) => l.msg)).toEqual([]);
  });
});
