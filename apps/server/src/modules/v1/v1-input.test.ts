import { validate } from '@scalar/openapi-parser';
import { OTP_API_ERRORS, V1_ERRORS } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';

// What a body is allowed to be (JSON in UTF-8, one number per string), the OTP API's Idempotency-Key,
// and what the OpenAPI document says beyond the routes' own schemas.

let server: TestServer;
let owner: ApiClient;
let secret: string;

beforeAll(async () => {
  server = await startServer({}, { worker: false });
  owner = server.client();
  await owner.register();
  const res = await owner.post('/api/api-keys', {
    name: 'Input',
    scopes: ['sms:send', 'sms:read', 'campaigns:write', 'otp', 'balance:read'],
    rateLimitPerMinute: 10_000,
  });
  expect(res.status).toBe(201);
  secret = (res.body as { secret: string }).secret;
});
afterAll(async () => {
  await server?.close();
});

async function raw(path: string, contentType: string | null, body: RequestInit['body'], headers = {}) {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${secret}`,
      ...(contentType && { 'content-type': contentType }),
      ...headers,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}
const post = (path: string, body: unknown, headers = {}) =>
  raw(path, 'application/json', JSON.stringify(body), headers);

const countByText = async (text: string) =>
  Number(
    (
      await server.ctx.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('body', 'like', `${text}%`)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('request bodies are JSON in UTF-8', () => {
  it('refuses another charset (415) and bytes that are not UTF-8 (400); sends nothing', async () => {
    const body = (text: string) => JSON.stringify({ to: '+14155550100', text });
    for (const charset of ['iso-8859-1', 'utf-16', 'windows-1252', '"latin1"']) {
      const res = await raw('/v1/messages', `application/json; charset=${charset}`, body('charset test'));
      expect([res.status, res.body.error.code], charset).toEqual([415, 'unsupported_media_type']);
      expect(res.body.error.message).toMatch(/UTF-8/);
    }
    const broken = Buffer.concat([
      Buffer.from('{"to":"+14155550100","text":"broken '),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}'),
    ]);
    const bad = await raw('/v1/messages', 'application/json', broken);
    expect([bad.status, bad.body.error.code]).toEqual([400, 'body_invalid']);
    expect(bad.body.error.message).toMatch(/not valid UTF-8/);
    expect(await countByText('charset test')).toBe(0);
    expect(await countByText('broken')).toBe(0);

    // UTF-8 declared in any spelling, or not declared, with a BOM or not, is read as written.
    for (const [i, ct] of [
      'application/json; charset=UTF-8',
      'application/json;charset="utf8"',
      'application/json',
    ].entries()) {
      const res = await raw('/v1/messages', ct, body(`utf8 ok ${i} ✓ café`));
      expect(res.status, ct).toBe(202);
      expect(res.body.data[0].text).toBe(`utf8 ok ${i} ✓ café`);
    }
    const bom = await raw(
      '/v1/messages',
      'application/json',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body('utf8 bom'))]),
    );
    expect(bom.status).toBe(202);
  });

  it('refuses text/plain and other types with 415 in the /v1 shape, and in the app shape on the browser API', async () => {
    const text = await raw(
      '/v1/messages',
      'text/plain',
      JSON.stringify({ to: '+14155550100', text: 'plain' }),
    );
    expect([text.status, text.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const form = await raw(
      '/v1/messages',
      'application/x-www-form-urlencoded',
      'to=%2B14155550100&text=form',
    );
    expect([form.status, form.body.error.code]).toEqual([415, 'unsupported_media_type']);
    expect(await countByText('plain')).toBe(0);

    // The browser API has the same parser: its errors in the app's shape.
    const app = await owner.request('POST', '/api/templates', undefined, {
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
      raw: JSON.stringify({ name: 'x', text: 'y' }),
    });
    expect([app.status, app.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA']);
    const invalid = await owner.request('POST', '/api/templates', undefined, {
      headers: { 'content-type': 'application/json' },
      raw: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    });
    expect([invalid.status, invalid.body.errors?.body]).toEqual([400, [expect.stringMatching(/UTF-8/)]]);
  });

  it('says how large a body may be for the endpoint it was sent to', async () => {
    const big = 'x'.repeat(1024 * 1024 + 10);
    const msg = await raw(
      '/v1/messages',
      'application/json',
      JSON.stringify({ to: '+14155550100', text: big }),
    );
    expect([msg.status, msg.body.error.code]).toEqual([413, 'body_too_large']);
    expect(msg.body.error.message).toMatch(/larger than 1 MB/);
    const camp = await raw(
      '/v1/campaigns',
      'application/json',
      JSON.stringify({ to: ['+14155550100'], text: 'x'.repeat(2 * 1024 * 1024 + 10) }),
    );
    expect([camp.status, camp.body.error.code]).toEqual([413, 'body_too_large']);
    expect(camp.body.error.message).toMatch(/larger than 2 MB/);
  });
});

describe('recipients: one phone number per string', () => {
  it('names what `to` must be when it is neither a string nor an array of strings', async () => {
    for (const to of [5, { a: 1 }, null, ['+14155550100', 5], [[1]]]) {
      const res = await post('/v1/messages', { to, text: 'shape' });
      expect([res.status, res.body.error.param], JSON.stringify(to)).toEqual([400, 'to']);
      expect(res.body.error.message).toBe(
        'to: A phone number, or an array of 1 to 1000 phone numbers (strings)',
      );
    }
    const empty = await post('/v1/messages', { to: [], text: 'shape' });
    expect(empty.body.error.message).toBe('to: Give at least one recipient');
  });

  it('refuses a string holding several numbers, in a send and in a campaign, instead of splitting it', async () => {
    for (const to of [
      '+14155550100,+14155550101',
      '+14155550100;+14155550101',
      '+14155550100\n+14155550101',
    ]) {
      const one = await post('/v1/messages', { to, text: 'joined numbers' });
      expect([one.status, one.body.error.param]).toEqual([400, 'to']);
      expect(one.body.error.message).toMatch(/One phone number per string/);
      const many = await post('/v1/messages', { to: ['+14155550102', to], text: 'joined numbers' });
      expect([many.status, many.body.error.param]).toEqual([400, 'to.1']);
    }
    const campaign = await post('/v1/campaigns', {
      name: 'Joined',
      to: ['+14155550100,+14155550101', '+14155550102'],
      text: 'joined numbers',
    });
    expect([campaign.status, campaign.body.error.param]).toEqual([400, 'to.0']);
    const campaigns = await server.ctx.db
      .selectFrom('campaigns')
      .select('id')
      .where('name', '=', 'Joined')
      .execute();
    expect(campaigns).toEqual([]);
    expect(await countByText('joined numbers')).toBe(0);
    // National notation with spaces and brackets is one number, as before.
    const national = await post('/v1/messages', { to: '(415) 555-0103', text: 'national' });
    expect(national.status).toBe(202);
    expect(national.body.data[0].to).toBe('+14155550103');
  });
});

describe('OTP API: Idempotency-Key', () => {
  it('a retried send replays the first code (one SMS, one charge); another body 422; a check replays too', async () => {
    const svc = await owner.post('/api/otp-services', {
      name: 'Idem',
      template: 'Your {{service}} code is {{code}}',
    });
    expect(svc.status).toBe(201);
    const path = `/v1/otp/${svc.body.id}`;
    const key = crypto.randomUUID();
    const runs = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(`${path}/send`, { to: '+14155550170' }, { 'idempotency-key': key }),
      ),
    );
    expect(runs.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(runs.map((r) => r.body.id)).size).toBe(1);
    expect(runs.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    const verifications = await server.ctx.db
      .selectFrom('otp_verifications')
      .select(['id', 'message_id'])
      .where('service_id', '=', svc.body.id)
      .execute();
    expect(verifications).toHaveLength(1);
    const debits = await server.ctx.db
      .selectFrom('ledger_entries')
      .select('id')
      .where('reference', '=', `otp:${verifications[0]!.id}`)
      .execute();
    expect(debits).toHaveLength(1);

    const other = await post(`${path}/send`, { to: '+14155550171' }, { 'idempotency-key': key });
    expect([other.status, other.body.error.code]).toEqual([422, 'idempotency_key_reused']);

    // A cooldown 429 is not stored: the same key sends once the wait is over (not replayed as 429).
    const again = await post(`${path}/send`, { to: '+14155550170' }, { 'idempotency-key': 'cooldown-1' });
    expect([again.status, again.body.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const stored = await server.ctx.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', 'cooldown-1')
      .execute();
    expect(stored).toEqual([]);

    const checkKey = crypto.randomUUID();
    const first = await post(
      `${path}/check`,
      { id: runs[0]!.body.id, code: '000000' },
      { 'idempotency-key': checkKey },
    );
    const retry = await post(
      `${path}/check`,
      { id: runs[0]!.body.id, code: '000000' },
      { 'idempotency-key': checkKey },
    );
    expect(first.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const attempts = await server.ctx.db
      .selectFrom('otp_verifications')
      .select('attempts')
      .where('id', '=', runs[0]!.body.id)
      .executeTakeFirstOrThrow();
    expect(attempts.attempts).toBe(1); // the replay cost no attempt
  });
});

describe('OpenAPI: what the routes do not say themselves', () => {
  type Res = { headers?: Record<string, { $ref: string }>; content?: unknown };
  type Doc = {
    paths: Record<
      string,
      Record<string, { responses: Record<string, Res>; parameters?: { name: string }[] }>
    >;
    components: { schemas: Record<string, unknown>; headers: Record<string, unknown> };
    webhooks: Record<string, unknown>;
  };
  let doc: Doc;
  beforeAll(async () => {
    doc = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as Doc;
  });

  it('stays a valid 3.1 document', async () => {
    const result = await validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
  });

  it('documents rate-limit, Retry-After and Idempotent-Replayed headers, 413/415 and the OTP errors', () => {
    const send = doc.paths['/v1/messages']!.post!;
    expect(Object.keys(send.responses)).toEqual(expect.arrayContaining(['202', '413', '415', '429']));
    expect(Object.keys(send.responses['202']!.headers!)).toEqual(
      expect.arrayContaining([
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'Idempotent-Replayed',
      ]),
    );
    expect(send.responses['429']!.headers!['Retry-After']).toEqual({
      $ref: '#/components/headers/Retry-After',
    });
    expect(send.responses['401']!.headers).toBeUndefined();
    expect(doc.components.headers['Retry-After']).toBeDefined();
    const list = doc.paths['/v1/messages']!.get!;
    expect(list.responses['413']).toBeUndefined();
    expect(list.responses['200']!.headers!['Idempotent-Replayed']).toBeUndefined();
    for (const op of ['send', 'check']) {
      const otp = doc.paths[`/v1/otp/{serviceId}/${op}`]!.post!;
      expect(Object.keys(otp.responses), op).toEqual(
        expect.arrayContaining(['400', '401', '402', '403', '404', '409', '413', '415', '422', '429', '500']),
      );
      expect(otp.parameters?.map((p) => p.name)).toContain('idempotency-key');
    }
    // The OTP documentation's error table (OTP_API_ERRORS, issue 47 item 3): every code is a /v1
    // code whose status an OTP operation documents.
    const otpStatuses = new Set(
      ['send', 'check'].flatMap((op) => Object.keys(doc.paths[`/v1/otp/{serviceId}/${op}`]!.post!.responses)),
    );
    for (const { code } of OTP_API_ERRORS) {
      expect(V1_ERRORS[code], code).toBeDefined();
      expect(otpStatuses.has(String(V1_ERRORS[code][0])), code).toBe(true);
    }
  });

  it('has one schema per type (no unreferenced *Input twins) and the webhook events', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(
      expect.arrayContaining(['SendMessageRequest', 'Message', 'Error', 'MessageStatusEvent']),
    );
    const refs = new Set(
      [
        ...JSON.stringify({ ...doc, components: { ...doc.components, schemas: {} } }).matchAll(
          /"#\/components\/schemas\/([^"]+)"/g,
        ),
      ].map((m) => m[1]!),
    );
    // Every schema is used by an operation or event, directly or through another schema.
    const inner = new Set(
      [...JSON.stringify(doc.components.schemas).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map(
        (m) => m[1]!,
      ),
    );
    expect(names.filter((n) => !refs.has(n) && !inner.has(n))).toEqual([]);
    expect([...refs, ...inner].filter((r) => !names.includes(r))).toEqual([]);
    // A request body's schema has its plain name.
    expect(names).not.toContain('SendMessageRequestInput');
    expect(Object.keys(doc.webhooks)).toEqual(['message.status', 'message.inbound']);
  });
});

describe('/v1: an Idempotency-Key that cannot be honoured is refused, never ignored', () => {
  it('an empty or blank key is a 400 naming the header; nothing is sent', async () => {
    // Issue 47 item 3: a retry of a request whose key was silently dropped is sent twice.
    for (const key of ['', ' ', '\t']) {
      const res = await post(
        '/v1/messages',
        { to: '+14155550190', text: `idem-empty ${JSON.stringify(key)}` },
        {
          'idempotency-key': key,
        },
      );
      expect([res.status, res.body.error.param], JSON.stringify(key)).toEqual([400, 'Idempotency-Key']);
    }
    expect(await countByText('idem-empty')).toBe(0);
  });
});

describe('a message text must say something', () => {
  it('refuses a text of only spaces or line breaks on every send path, charging nothing', async () => {
    const before = (await owner.get('/api/balance')).body.balanceMinor as number;
    for (const text of ['   ', '\n\t \r\n', '']) {
      const single = await owner.post('/api/sms/single', { recipients: ['+14155550180'], text });
      expect([single.status, single.body.errors?.text?.[0]], JSON.stringify(text)).toEqual([
        400,
        'Write a message',
      ]);
      const campaign = await owner.post('/api/campaigns', { numbers: '+14155550181', text });
      expect([campaign.status, campaign.body.errors?.text?.[0]]).toEqual([400, 'Write a message']);
      const api = await post('/v1/messages', { to: '+14155550182', text });
      expect([api.status, api.body.error.param, api.body.error.message]).toEqual([
        400,
        'text',
        'text: Write a message',
      ]);
      const apiCampaign = await post('/v1/campaigns', { to: ['+14155550183'], text });
      expect([apiCampaign.status, apiCampaign.body.error.param]).toEqual([400, 'text']);
    }
    expect((await owner.get('/api/balance')).body.balanceMinor).toBe(before);
    // A real text keeps its own spaces.
    const spaced = await post('/v1/messages', { to: '+14155550184', text: '  indented\n' });
    expect([spaced.status, spaced.body.data[0].text]).toEqual([202, '  indented\n']);
  });
});
