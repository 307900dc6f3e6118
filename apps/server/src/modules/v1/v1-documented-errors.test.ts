import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { startAppWith } from '../../../test/test-app';
import { undocumentedError } from './v1-documented-errors';

/**
 * Issue 47 item 3: the documented error codes against the ones the routes return. Every /v1
 * operation of the OpenAPI document is called without a key, with a key lacking its scope, with a
 * malformed body and with unknown ids; each error answer's code and status must be what the
 * operation documents, and the server's own check (v1-documented-errors.ts) logs no undocumented one.
 */

interface Operation {
  method: string;
  path: string;
  responses: string[];
  security: boolean;
  body: boolean;
}

const logLines: { level: number; msg?: string }[] = [];
let server: TestServer;
let app: { url: string; close: () => Promise<void> };
let operations: Operation[];
let allScopes: string;
let noScope: string;

beforeAll(async () => {
  server = await startServer({}, { worker: false });
  const logger = pino({ level: 'info' }, { write: (s: string) => void logLines.push(JSON.parse(s)) });
  app = await startAppWith(server, () => undefined, { logger });
  const owner = new ApiClient(app.url);
  await owner.register();
  const key = async (scopes: string[]) => {
    const res = await owner.post('/api/api-keys', {
      name: scopes.join(' '),
      scopes,
      rateLimitPerMinute: 10_000,
    });
    expect(res.status).toBe(201);
    return (res.body as { secret: string }).secret;
  };
  allScopes = await key(['sms:send', 'sms:read', 'campaigns:write', 'otp', 'balance:read']);
  // A scope no /v1 operation needs alone except the balance: every other operation is a 403.
  noScope = await key(['balance:read']);
  const doc = (await (await fetch(`${app.url}/v1/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<string, { responses?: Record<string, unknown>; requestBody?: unknown; security?: unknown[] }>
    >;
  };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      responses: Object.keys(op.responses ?? {}),
      security: (op.security?.length ?? 1) > 0,
      body: op.requestBody !== undefined,
    })),
  );
});
afterAll(async () => {
  await app?.close();
  await server?.close();
});

/** The path with every `{param}` an unknown id. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, () => randomUUID());

async function call(op: Operation, secret: string | null, body?: string) {
  const res = await fetch(app.url + concrete(op.path), {
    method: op.method,
    headers: {
      ...(secret && { authorization: `Bearer ${secret}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body }),
  });
  const text = await res.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code };
}

describe('documented /v1 errors', () => {
  it('names a code the table lacks, a status other than the code’s, and a status the operation does not list', () => {
    expect(undocumentedError('GET', '/v1/balance', ['200', '401'], 401, 'key_missing')).toBeNull();
    expect(undocumentedError('GET', '/v1/balance', ['200', '401'], 401, 'no_such_code')).toMatch(
      /not in the documented error codes/,
    );
    expect(undocumentedError('GET', '/v1/balance', ['200', '401'], 404, 'key_missing')).toMatch(
      /documented with status 401, answered 404/,
    );
    expect(undocumentedError('GET', '/v1/balance', ['200', '401'], 404, 'not_found')).toMatch(
      /not among the operation's documented responses/,
    );
    // What finishDocument adds: 413/415 where there is a body, the OTP operations' errors.
    expect(undocumentedError('POST', '/v1/messages', ['202'], 415, 'unsupported_media_type')).toBeNull();
    expect(undocumentedError('POST', '/v1/otp/:serviceId/send', ['201'], 404, 'not_found')).toBeNull();
  });

  it('every operation answers only documented errors: no key, a key without the scope, a malformed body, unknown ids', async () => {
    expect(operations.length).toBeGreaterThan(5);
    const wrong: string[] = [];
    let answers = 0;
    for (const op of operations) {
      const tries: { secret: string | null; body?: string }[] = [
        { secret: null },
        { secret: noScope },
        { secret: allScopes },
        ...(op.body
          ? [
              { secret: allScopes, body: '{"to": ' },
              { secret: allScopes, body: '{"to": 12}' },
            ]
          : []),
      ];
      for (const t of tries) {
        const res = await call(op, t.secret, t.body);
        if (res.status < 400) continue;
        answers += 1;
        if (res.code === undefined) {
          wrong.push(`${op.method} ${op.path}: ${res.status} without a /v1 error code`);
          continue;
        }
        const why = undocumentedError(op.method, op.path, op.responses, res.status, res.code);
        if (why) wrong.push(`${op.method} ${op.path}: ${why}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(answers).toBeGreaterThan(operations.length);
    expect(logLines.filter((l) => l.level >= 50 && String(l.msg).startsWith('undocumented'))).toEqual([]);
  });
});
