import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validate } from '@scalar/openapi-parser';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { onEveryStatement } from '../../../test/statement-spy';
import { sql } from 'kysely';
import { routeTable } from '../../platform/http/route-auth';
import { until } from '../../realtime/test-client';

/** Statements sent while `seen` is an array (every client of this process, the server's included). */
let seen: { text: string; client: object }[] | null = null;
onEveryStatement((text, client) => seen?.push({ text: text.trim(), client }));

let server: TestServer;
let owner: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  server = await startServer(
    {
      SIMULATOR_DELAY_MS: '20',
      SIMULATOR_MIX: 'DELIVRD=100',
      WEBHOOK_RETRY_BASE_MS: '300',
      // The receivers of these tests listen on 127.0.0.1 (the SSRF guard is tested in v1-safety.test.ts).
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    { worker: true },
  );
  owner = server.client();
  other = server.client();
  await owner.register();
  await other.register();
});
afterAll(async () => {
  await server?.close();
});

async function createKey(c: ApiClient, body: Record<string, unknown> = {}) {
  const res = await c.post('/api/api-keys', {
    name: 'Backend',
    scopes: ['sms:send', 'sms:read', 'balance:read', 'otp'],
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body as { key: { id: string; prefix: string }; secret: string };
}

/** A /v1 call the way a customer's system makes it: a bearer key, no cookies. */
async function v1(secret: string | null, method: string, path: string, body?: unknown, headers = {}) {
  const res = await fetch(server.url + path, {
    method,
    headers: {
      ...(secret && { authorization: `Bearer ${secret}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const messageCount = async (text: string) =>
  Number(
    (
      await server.ctx.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('body', '=', text)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('API keys', () => {
  it('shows the secret once (wren_live_…), stores only a hash, lists without it', async () => {
    const { key, secret } = await createKey(owner);
    expect(secret).toMatch(/^wren_live_[0-9A-Za-z]{40}$/);
    expect(key.prefix).toBe(secret.slice(0, 18));
    const row = await server.ctx.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(secret.slice(18));
    const list = await owner.get('/api/api-keys');
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(list.body.items[0]).toMatchObject({ id: key.id, status: 'active', requests24h: 0 });
    // Another account cannot see, edit, revoke, rotate or report it.
    for (const [m, p] of [
      ['GET', `/api/api-keys/${key.id}`],
      ['PATCH', `/api/api-keys/${key.id}`],
      ['POST', `/api/api-keys/${key.id}/revoke`],
      ['POST', `/api/api-keys/${key.id}/rotate`],
      ['GET', `/api/api-keys/${key.id}/report`],
    ] as const) {
      expect((await other.request(m, p, m === 'PATCH' ? { name: 'x' } : undefined)).status).toBe(404);
    }
  });

  it('rejects a bad CIDR, a past expiry and an unknown scope with field errors', async () => {
    const bad = await owner.post('/api/api-keys', {
      name: 'x',
      scopes: ['sms:send'],
      ipAllowlist: ['10.0.0.300/8'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.ipAllowlist).toBeDefined();
    const past = await owner.post('/api/api-keys', {
      name: 'x',
      scopes: ['sms:send'],
      expiresAt: '2020-01-01T00:00:00Z',
    });
    expect(past.body.errors.expiresAt).toBeDefined();
    const scope = await owner.post('/api/api-keys', { name: 'x', scopes: ['root'] });
    expect(scope.status).toBe(400);
  });
});

describe('/v1', () => {
  it('sends, reads, lists and shows the balance with a key; no cookies, no XSRF', async () => {
    const { secret, key } = await createKey(owner);
    const sent = await v1(secret, 'POST', '/v1/messages', {
      to: ['+14155550101', '+14155550102'],
      text: 'v1 hello',
      clientRef: 'order-1',
    });
    expect(sent.status).toBe(202);
    expect(sent.headers.get('set-cookie')).toBeNull();
    expect(sent.headers.get('ratelimit-limit')).toBe('600');
    expect(sent.body.data).toHaveLength(2);
    expect(sent.body.data[0]).toMatchObject({
      to: '+14155550101',
      status: 'queued',
      segments: 1,
      priceMinor: expect.any(Number),
      clientRef: 'order-1',
    });
    const one = await v1(secret, 'GET', `/v1/messages/${sent.body.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: sent.body.data[0].id, clientRef: 'order-1', text: 'v1 hello' });
    const list = await v1(secret, 'GET', '/v1/messages?limit=1');
    expect(list.body.data).toHaveLength(1);
    expect(list.body.nextCursor).toEqual(expect.any(String));
    const next = await v1(secret, 'GET', `/v1/messages?limit=1&cursor=${list.body.nextCursor}`);
    expect(next.body.data[0].id).not.toBe(list.body.data[0].id);
    const balance = await v1(secret, 'GET', '/v1/balance');
    expect(balance.body).toEqual({ balanceMinor: expect.any(Number), currency: 'USD' });
    // A single recipient as a string (the peer-bench shape).
    expect((await v1(secret, 'POST', '/v1/messages', { to: '+14155550103', text: 'hi' })).status).toBe(202);
    // The key's own screen shows its use at once, as the list does (not after the next usage flush).
    const viewed = await owner.get(`/api/api-keys/${key.id}`);
    expect(viewed.body).toMatchObject({ lastUsedAt: expect.any(String), requests24h: 6 });
  });

  it('shows a sent message waiting for its receipt (since, deadline), and not once it is final', async () => {
    const { secret } = await createKey(owner);
    const sim = server.worker!.simulator!;
    sim.setOptions({ receiptDelayMs: 3_000 });
    try {
      const sent = await v1(secret, 'POST', '/v1/messages', { to: '+14155550131', text: 'v1 waiting' });
      const id = sent.body.data[0].id as string;
      expect(sent.body.data[0]).toMatchObject({ status: 'queued', awaitingReceipt: null });
      const get = () => v1(secret, 'GET', `/v1/messages/${id}`);
      await until(async () => (await get()).body.status === 'sent');
      const waiting = (await get()).body;
      const row = await server.ctx.db
        .selectFrom('messages')
        .select(['submitted_at', 'receipt_due_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(waiting.awaitingReceipt).toEqual({
        since: row.submitted_at!.toISOString(),
        deadline: row.receipt_due_at!.toISOString(),
      });
      expect(waiting.awaitingReceipt.since).toBe(waiting.submittedAt);
      // The connection's receipt deadline (SMSC_RECEIPT_TIMEOUT_MINUTES, 48 h by default) from the submit.
      const hours =
        (Date.parse(waiting.awaitingReceipt.deadline) - Date.parse(waiting.awaitingReceipt.since)) /
        3_600_000;
      expect(Math.round(hours)).toBe(48);
      const listed = await v1(secret, 'GET', '/v1/messages?status=sent&to=%2B14155550131');
      expect(listed.body.data[0].awaitingReceipt).toEqual(waiting.awaitingReceipt);

      await until(async () => (await get()).body.status === 'delivered', 15_000);
      expect((await get()).body).toMatchObject({ status: 'delivered', awaitingReceipt: null });
    } finally {
      sim.setOptions({ receiptDelayMs: 20 });
    }
  });

  it('every endpoint with another account’s key: 404 for its resources, its own data only', async () => {
    const mine = await createKey(owner);
    const theirs = await createKey(other);
    const sent = await v1(mine.secret, 'POST', '/v1/messages', { to: '+14155550104', text: 'owner secret' });
    const id = sent.body.data[0].id;
    const get = await v1(theirs.secret, 'GET', `/v1/messages/${id}`);
    expect(get.status).toBe(404);
    expect(get.body).toEqual({
      error: { type: 'invalid_request_error', code: 'not_found', message: expect.any(String) },
    });
    const list = await v1(theirs.secret, 'GET', '/v1/messages');
    expect(JSON.stringify(list.body)).not.toContain('owner secret');
    const bal = await v1(theirs.secret, 'GET', '/v1/balance');
    expect(bal.status).toBe(200);
    // The other account's send lands in its own log, not the owner's.
    const theirSend = await v1(theirs.secret, 'POST', '/v1/messages', { to: '+14155550105', text: 'theirs' });
    expect((await v1(mine.secret, 'GET', `/v1/messages/${theirSend.body.data[0].id}`)).status).toBe(404);
  });

  it('refuses a missing, wrong, revoked, rotated or expired key (401), a missing scope or wrong IP (403)', async () => {
    expect((await v1(null, 'GET', '/v1/balance')).body.error).toMatchObject({
      type: 'authentication_error',
      code: 'key_missing',
    });
    expect((await v1('wren_live_' + 'x'.repeat(40), 'GET', '/v1/balance')).body.error.code).toBe(
      'key_invalid',
    );
    // A session's access token is not an API key.
    expect((await v1(owner.accessToken, 'GET', '/v1/balance')).status).toBe(401);

    const readOnly = await createKey(owner, { scopes: ['sms:read'] });
    const noScope = await v1(readOnly.secret, 'POST', '/v1/messages', { to: '+14155550106', text: 'x' });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error).toMatchObject({ type: 'permission_error', code: 'scope_missing' });
    expect((await v1(readOnly.secret, 'GET', '/v1/balance')).status).toBe(403);

    const revoked = await createKey(owner);
    expect((await v1(revoked.secret, 'GET', '/v1/balance')).status).toBe(200);
    await owner.post(`/api/api-keys/${revoked.key.id}/revoke`);
    const r = await v1(revoked.secret, 'GET', '/v1/balance');
    expect([r.status, r.body.error.code]).toEqual([401, 'key_revoked']);

    const rotated = await createKey(owner);
    expect((await v1(rotated.secret, 'GET', '/v1/balance')).status).toBe(200);
    const fresh = (await owner.post(`/api/api-keys/${rotated.key.id}/rotate`)).body;
    const old = await v1(rotated.secret, 'GET', '/v1/balance');
    expect([old.status, old.body.error.code]).toEqual([401, 'key_revoked']);
    expect(old.body.error.message).toMatch(/rotated on \d{4}-\d\d-\d\dT.*use its new secret/);
    expect((await v1(fresh.secret, 'GET', '/v1/balance')).status).toBe(200);

    const expired = await createKey(owner);
    await server.ctx.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.key.id)
      .execute();
    const e = await v1(expired.secret, 'GET', '/v1/balance');
    expect([e.status, e.body.error.code]).toEqual([401, 'key_expired']);

    const elsewhere = await createKey(owner, { ipAllowlist: ['10.0.0.0/8', '2001:db8::/32'] });
    const ip = await v1(elsewhere.secret, 'GET', '/v1/balance');
    expect([ip.status, ip.body.error.code]).toEqual([403, 'ip_not_allowed']);
    const here = await createKey(owner, { ipAllowlist: ['127.0.0.0/8', '::1'] });
    expect((await v1(here.secret, 'GET', '/v1/balance')).status).toBe(200);
  });

  it('a revoke on another node is effective there within the key cache time (5 s)', async () => {
    const node2 = await startServer({}, { databaseUrl: server.databaseUrl });
    try {
      const { key, secret } = await createKey(owner);
      const at2 = () => fetch(`${node2.url}/v1/balance`, { headers: { authorization: `Bearer ${secret}` } });
      expect((await at2()).status).toBe(200);
      await owner.post(`/api/api-keys/${key.id}/revoke`);
      const started = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - started < 8000) {
        status = (await at2()).status;
        if (status === 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).toBe(401);
      expect(Date.now() - started).toBeLessThan(6000);
    } finally {
      await node2.close();
    }
  });

  it('rate limits per key with RateLimit-* headers and 429 Retry-After', async () => {
    const { secret } = await createKey(owner, { rateLimitPerMinute: 3 });
    const seen: Awaited<ReturnType<typeof v1>>[] = [];
    for (let i = 0; i < 4; i++) seen.push(await v1(secret, 'GET', '/v1/balance'));
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 429]);
    expect(seen[2]!.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(seen[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(seen[3]!.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
  });

  it('the rate limit holds across API nodes (a shared per-minute counter)', async () => {
    const node2 = await startServer({}, { databaseUrl: server.databaseUrl });
    try {
      const { key, secret } = await createKey(owner, { rateLimitPerMinute: 10 });
      // All of it inside one minute window: start a fresh window when less than 30 s are left.
      const left = 60_000 - (Date.now() % 60_000);
      if (left < 30_000) await new Promise((r) => setTimeout(r, left + 300));
      const at = (url: string) =>
        fetch(`${url}/v1/balance`, { headers: { authorization: `Bearer ${secret}` } });
      for (let i = 0; i < 6; i++) expect((await at(server.url)).status).toBe(200);
      const shared = async () =>
        (
          await server.ctx.db
            .selectFrom('api_key_rate_windows')
            .select('requests')
            .where('api_key_id', '=', key.id)
            .executeTakeFirst()
        )?.requests ?? 0;
      await until(async () => (await shared()) === 6, 10_000, 'node 1 to share its count');
      // Node 2 knows the 6 before its first request: 4 more are allowed there, not 10.
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await at(node2.url)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
      await until(async () => (await shared()) === 10, 10_000, 'node 2 to share its count');
    } finally {
      await node2.close();
    }
  });

  it('validation errors use the one error shape with param', async () => {
    const { secret } = await createKey(owner);
    const bad = await v1(secret, 'POST', '/v1/messages', { to: [], text: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: 'to',
    });
    const phone = await v1(secret, 'POST', '/v1/messages', { to: 'not-a-number', text: 'x' });
    expect(phone.body.error).toMatchObject({ code: 'parameter_invalid', param: 'to' });
    const tooMany = await v1(secret, 'POST', '/v1/messages', {
      to: Array.from({ length: 1001 }, (_, i) => `+1415555${String(i).padStart(4, '0')}`),
      text: 'x',
    });
    expect(tooMany.body.error.param).toBe('to');
    // A field the operation does not have is refused, not ignored: a misspelt scheduleAt must not send now.
    const before = await v1(secret, 'GET', '/v1/messages');
    const misspelt = await v1(secret, 'POST', '/v1/messages', {
      to: '+14155550100',
      text: 'x',
      scheduledAt: '2099-01-01T00:00:00Z',
    });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.error).toMatchObject({ code: 'parameter_invalid', param: 'scheduledAt' });
    expect((await v1(secret, 'GET', '/v1/messages')).body.data).toEqual(before.body.data);
    const campaigns = await createKey(owner, { scopes: ['campaigns:write'] });
    const extra = await v1(campaigns.secret, 'POST', '/v1/campaigns', {
      to: ['+14155550100'],
      text: 'x',
      rate: 5,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toMatchObject({ code: 'parameter_invalid', param: 'rate' });
    const json = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: '{"to":',
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe('body_invalid');
    const nowhere = await v1(secret, 'GET', '/v1/nothing');
    expect(nowhere.body.error.code).toBe('not_found');
  });

  it('Idempotency-Key: same body replays, different body 422, 20 parallel requests send once', async () => {
    const { secret } = await createKey(owner);
    const body = { to: '+14155550107', text: 'idem once' };
    const first = await v1(secret, 'POST', '/v1/messages', body, { 'idempotency-key': 'k-1' });
    const again = await v1(secret, 'POST', '/v1/messages', body, { 'idempotency-key': 'k-1' });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await messageCount('idem once')).toBe(1);
    const changed = await v1(
      secret,
      'POST',
      '/v1/messages',
      { ...body, text: 'other' },
      { 'idempotency-key': 'k-1' },
    );
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe('idempotency_key_reused');

    const race = { to: '+14155550108', text: 'idem race' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        v1(secret, 'POST', '/v1/messages', race, { 'idempotency-key': 'race-1' }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(202));
    expect(new Set(results.map((r) => r.body.data[0].id)).size).toBe(1);
    expect(await messageCount('idem race')).toBe(1);
  });
});

describe('delivery webhooks', () => {
  it('a receiver down for a while gets the signed final status after it comes back, once; replay works', async () => {
    // Reserve a port, then close it: the receiver is down (connection refused).
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));

    const detail = (await owner.get('/api/developer')).body;
    expect(detail.webhookSecret).toMatch(/^whsec_/);
    const { secret } = await createKey(owner);
    const sent = await v1(secret, 'POST', '/v1/messages', {
      to: '+14155550109',
      text: 'hook me',
      clientRef: 'ref-9',
      callbackUrl: `http://127.0.0.1:${port}/hook`,
    });
    const id = sent.body.data[0].id;
    const delivery = () =>
      server.ctx.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', `evt_${id}`)
        .executeTakeFirst();
    // Wait for failed attempts while the receiver is down. 40 s: in one CI run on PostgreSQL 15, with
    // other test files running beside it, no delivery row existed yet after 20 s (not root-caused).
    const until = Date.now() + 40_000;
    while (((await delivery())?.attempts ?? 0) < 2 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 200));
    expect((await delivery())?.status).toBe('pending');

    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(port, '127.0.0.1', r));
    try {
      while (!received.length && Date.now() < until + 20_000) await new Promise((r) => setTimeout(r, 200));
      await new Promise((r) => setTimeout(r, 1500)); // no second delivery after success
      expect(received).toHaveLength(1);
      const verified = new Webhook(detail.webhookSecret).verify(received[0]!.body, received[0]!.headers) as {
        type: string;
        data: Record<string, unknown>;
      };
      expect(verified).toMatchObject({
        type: 'message.status',
        data: { id, status: 'delivered', clientRef: 'ref-9', to: '+14155550109' },
      });
      expect(received[0]!.headers['webhook-id']).toBe(`evt_${id}`);
      const row = await delivery();
      expect(row).toMatchObject({ status: 'delivered', last_status_code: 204 });
      const attempts = await server.ctx.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('delivery_id', '=', `evt_${id}`)
        .orderBy('id')
        .execute();
      expect(attempts.length).toBe(row!.attempts);
      expect(attempts.slice(0, -1).every((a) => a.status_code === null && a.error)).toBe(true);

      // Replay: sent again now, signed with the same id; another account cannot replay it.
      expect((await other.post(`/api/webhooks/deliveries/evt_${id}/replay`)).status).toBe(404);
      const replay = await owner.post(`/api/webhooks/deliveries/evt_${id}/replay`);
      expect(replay.status).toBe(200);
      expect(replay.body).toMatchObject({
        status: 'delivered',
        lastStatusCode: 204,
        attempts: row!.attempts + 1,
      });
      expect(received).toHaveLength(2);
      expect(received[1]!.headers['webhook-id']).toBe(`evt_${id}`);

      // The key's report shows the delivery log, the messages and their cost.
      const keyId = (await owner.get('/api/api-keys')).body.items.find((k: { prefix: string }) =>
        secret.startsWith(k.prefix),
      ).id;
      const report = await owner.get(`/api/api-keys/${keyId}/report`);
      expect(report.status).toBe(200);
      expect(report.body.messages.count).toBe(1);
      expect(report.body.deliveries[0]).toMatchObject({ id: `evt_${id}`, status: 'delivered' });
      expect(report.body.days.at(-1).ok).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 90_000);

  it('an account that never opened API detail gets a secret with its first event', async () => {
    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const port = (receiver.address() as AddressInfo).port;
      const fresh = server.client();
      await fresh.register();
      const { secret } = await createKey(fresh, { webhookUrl: `http://127.0.0.1:${port}/h` });
      await v1(secret, 'POST', '/v1/messages', { to: '+14155550170', text: 'first event' });
      const until = Date.now() + 20_000;
      while (!received.length && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      const detail = (await fresh.get('/api/developer')).body;
      const event = new Webhook(detail.webhookSecret).verify(received[0]!.body, received[0]!.headers);
      expect(event).toMatchObject({ type: 'message.status', data: { status: 'delivered' } });
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 30_000);

  it('an inbound SMS reaches the account webhook URL as a signed message.inbound event', async () => {
    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const c = server.client();
      const { user } = await c.register();
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
      const set = await c.request('PUT', '/api/developer/webhook', { webhookUrl: url });
      expect(set.body.webhookUrl).toBe(url);
      // As the gateway stores an inbound SMS (modules/inbound).
      const row = await server.ctx.db
        .insertInto('inbound_messages')
        .values({
          account_id: user.accountId,
          sender: '+14155550190',
          recipient: 'Wren',
          text: 'Yes please',
          connection: 'test',
          keyword: null,
          received_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const until = Date.now() + 20_000;
      while (!received.length && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      const event = new Webhook(set.body.webhookSecret).verify(received[0]!.body, received[0]!.headers);
      expect(event).toMatchObject({
        type: 'message.inbound',
        data: { id: row.id, from: '+14155550190', text: 'Yes please' },
      });
      await new Promise((r) => setTimeout(r, 2500)); // later sweeps do not send it again
      expect(received).toHaveLength(1);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 40_000);

  it('rotating the account secret signs new attempts with the new secret', async () => {
    const before = (await owner.get('/api/developer')).body.webhookSecret;
    const after = (await owner.post('/api/developer/webhook/rotate-secret')).body.webhookSecret;
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
  });
});

describe('OpenAPI', () => {
  it('is a valid OpenAPI 3.1 document that covers every /v1 route', async () => {
    const res = await fetch(`${server.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const routes = routeTable(server.app).filter(
      // /v1/reference/*: the reference viewer's own files (not API operations).
      (r) =>
        r.url.startsWith('/v1/') &&
        !r.url.startsWith('/v1/reference') &&
        r.access !== 'public' &&
        r.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThanOrEqual(8); // messages ×3, balance, campaigns ×2, OTP ×2
    const missing = routes.filter((r) => {
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      return !doc.paths[path]?.[r.method.toLowerCase()];
    });
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });
});

describe('/v1/campaigns', () => {
  it('creates a campaign on the bulk engine and reads it; scope, other account and idempotency', async () => {
    const { secret } = await createKey(owner, { scopes: ['campaigns:write'] });
    const body = {
      name: 'API sale',
      to: ['+14155550180', '+14155550181', '+14155550181'],
      text: 'Sale today',
    };
    const created = await v1(secret, 'POST', '/v1/campaigns', body, { 'idempotency-key': 'camp-1' });
    expect(created.status).toBe(202);
    expect(created.body.campaign).toMatchObject({ name: 'API sale', recipients: 2, duplicates: 1 });
    const again = await v1(secret, 'POST', '/v1/campaigns', body, { 'idempotency-key': 'camp-1' });
    expect(again.body.campaign.id).toBe(created.body.campaign.id);
    const id = created.body.campaign.id;
    const got = await v1(secret, 'GET', `/v1/campaigns/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, text: 'Sale today' });
    const theirs = await createKey(other, { scopes: ['campaigns:write'] });
    expect((await v1(theirs.secret, 'GET', `/v1/campaigns/${id}`)).status).toBe(404);
    const smsOnly = await createKey(owner, { scopes: ['sms:send'] });
    expect((await v1(smsOnly.secret, 'POST', '/v1/campaigns', body)).status).toBe(403);
    expect((await v1(smsOnly.secret, 'GET', `/v1/campaigns/${id}`)).status).toBe(403);
    const empty = await v1(secret, 'POST', '/v1/campaigns', { text: 'x' });
    expect(empty.status).toBeGreaterThanOrEqual(400);
    expect(empty.status).toBeLessThan(500);
    expect(empty.body.error.code).toEqual(expect.any(String));
  });
});

describe('OTP API with keys (scope otp)', () => {
  it('sends and checks with a key; no otp scope 403; another account 404; a session still works', async () => {
    const svc = await owner.post('/api/otp-services', {
      name: 'Login codes',
      template: 'Your {{service}} code is {{code}}',
    });
    expect(svc.status).toBe(201);
    const withOtp = await createKey(owner, { scopes: ['otp'] });
    const send = await v1(withOtp.secret, 'POST', `/v1/otp/${svc.body.id}/send`, { to: '+14155550150' });
    expect(send.status).toBe(201);
    expect(send.body).toMatchObject({ to: '+14155550150', status: 'pending' });
    expect(send.headers.get('set-cookie')).toBeNull();
    const check = await v1(withOtp.secret, 'POST', `/v1/otp/${svc.body.id}/check`, {
      id: send.body.id,
      code: '000000',
    });
    expect(check.status).toBe(200);

    // Every refusal in /v1's one error shape, as on the other /v1 routes.
    const v1Error = {
      error: { type: expect.any(String), code: expect.any(String), message: expect.any(String) },
    };
    const noOtp = await createKey(owner, { scopes: ['sms:send'] });
    const forbidden = await v1(noOtp.secret, 'POST', `/v1/otp/${svc.body.id}/send`, { to: '+14155550151' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject(v1Error);
    const theirs = await createKey(other, { scopes: ['otp'] });
    const missing = await v1(theirs.secret, 'POST', `/v1/otp/${svc.body.id}/send`, { to: '+14155550152' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'not_found' } });
    const revoked = await createKey(owner, { scopes: ['otp'] });
    await owner.post(`/api/api-keys/${revoked.key.id}/revoke`);
    const gone = await v1(revoked.secret, 'POST', `/v1/otp/${svc.body.id}/send`, { to: '+14155550153' });
    expect(gone.status).toBe(401);
    expect(gone.body).toMatchObject(v1Error);
    const invalid = await v1(withOtp.secret, 'POST', `/v1/otp/${svc.body.id}/check`, { id: send.body.id });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ error: { code: 'parameter_invalid', param: 'code' } });
    // The key's usage counts its OTP calls, as it counts its /v1/messages calls (send, check, the 400).
    const used = await owner.get(`/api/api-keys/${withOtp.key.id}`);
    expect(used.body).toMatchObject({ lastUsedAt: expect.any(String), requests24h: 3 });
    // The console's session still calls it (CAPTCHA is off in tests), and gets the app's field errors.
    expect((await owner.post(`/v1/otp/${svc.body.id}/send`, { to: '+14155550154' })).status).toBe(201);
    const consoleError = await owner.post(`/v1/otp/${svc.body.id}/send`, {});
    expect(consoleError.status).toBe(400);
    expect(consoleError.body.error).toBeUndefined();
  });
});

describe('malformed input on /v1 (with a valid key)', () => {
  it('never a 5xx, always the one error shape', async () => {
    const { secret } = await createKey(owner, {
      scopes: ['sms:send', 'sms:read', 'balance:read', 'otp', 'contacts:write'],
      rateLimitPerMinute: 100_000,
    });
    const routes = routeTable(server.app).filter((r) => r.access === 'apikey' && r.method !== 'HEAD');
    const bodies: unknown[] = [
      null,
      [],
      'str',
      42,
      {},
      { to: '\u0000', text: 'x' },
      { to: ['\ud800'], text: 'x' },
      { to: '+14155550160', text: 'x'.repeat(5000) },
      { to: '+14155550160', text: 'x', scheduleAt: '2026-13-45T99:99:99Z' },
      { to: '+14155550160', text: 'x', callbackUrl: 'javascript:alert(1)' },
      { to: { __proto__: { a: 1 } }, text: 'x' },
    ];
    const failures: string[] = [];
    let tried = 0;
    for (const r of routes) {
      const paths = r.url.includes(':')
        ? ['not-a-uuid', '%00', 'x'.repeat(3000), crypto.randomUUID()].map((v) => r.url.replace(/:\w+/g, v))
        : [
            r.url,
            `${r.url}?limit=-1`,
            `${r.url}?cursor=garbage`,
            `${r.url}?since=notadate`,
            `${r.url}?status=bogus`,
          ];
      for (const path of paths) {
        for (const body of r.method === 'GET' ? [undefined] : bodies) {
          const res = await v1(secret, r.method, path, body);
          tried += 1;
          // 414: the server's URL-length guard answers before any route is matched.
          const shaped =
            res.status < 400 ||
            res.status === 414 ||
            (typeof res.body?.error?.code === 'string' && res.body.error.type);
          if (res.status >= 500 || !shaped)
            failures.push(`${r.method} ${path.slice(0, 60)} -> ${res.status}`);
        }
      }
    }
    expect(tried).toBeGreaterThan(30);
    expect(failures).toEqual([]);
  });
});

describe('a send and its API records commit together', () => {
  /** While test_block_api names an account, storing its API message records fails. */
  async function blockApiRecords() {
    const { db } = server.ctx;
    await sql`CREATE TABLE IF NOT EXISTS test_block_api (account_id uuid)`.execute(db);
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION test_block_api() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF EXISTS (SELECT 1 FROM test_block_api WHERE account_id = NEW.account_id) THEN
             RAISE EXCEPTION 'api records blocked by the test';
           END IF;
           RETURN NEW;
         END $$`,
      )
      .execute(db);
    await sql`CREATE OR REPLACE TRIGGER test_block_api BEFORE INSERT ON api_messages
              FOR EACH ROW EXECUTE FUNCTION test_block_api()`.execute(db);
  }

  /** A new account with a key, and the blocking trigger in place (not yet naming it). */
  async function blockableAccount() {
    await blockApiRecords();
    const c = server.client();
    const { user } = await c.register();
    const { secret } = await createKey(c);
    const balance = async () => (await v1(secret, 'GET', '/v1/balance')).body.balanceMinor as number;
    return { user, secret, balance };
  }

  it('a failure storing the API record sends nothing (5xx); the retry with the same key sends once', async () => {
    const { db } = server.ctx;
    const { user, secret, balance } = await blockableAccount();
    const before = await balance();
    await sql`INSERT INTO test_block_api VALUES (${user.accountId})`.execute(db);
    const body = { to: ['+14155550175', '+14155550176'], text: 'atomic send', clientRef: 'tx-1' };
    const headers = { 'idempotency-key': 'atomic-1' };

    const failed = await v1(secret, 'POST', '/v1/messages', body, headers);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.body).toEqual({
      error: { type: 'api_error', code: 'internal_error', message: expect.stringMatching(/Idempotency-Key/) },
    });
    expect(await messageCount('atomic send')).toBe(0);
    expect(await balance()).toBe(before); // not charged either
    const record = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('account_id', '=', user.accountId)
      .execute();
    expect(record).toEqual([]);

    await sql`DELETE FROM test_block_api`.execute(db);
    const retried = await v1(secret, 'POST', '/v1/messages', body, headers);
    expect(retried.status).toBe(202);
    expect(retried.body.data).toHaveLength(2);
    const again = await v1(secret, 'POST', '/v1/messages', body, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(retried.body);
    expect(await messageCount('atomic send')).toBe(2); // two recipients, once each
    const links = await db
      .selectFrom('api_messages')
      .select(['message_id', 'client_ref'])
      .where('account_id', '=', user.accountId)
      .execute();
    expect(links.map((l) => l.message_id).sort()).toEqual(
      retried.body.data.map((m: { id: string }) => m.id).sort(),
    );
    expect(await balance()).toBe(before - retried.body.totalPriceMinor);
  });

  it('without an Idempotency-Key, the send and its API records are one statement: all of it or none', async () => {
    const { db } = server.ctx;
    const { user, secret, balance } = await blockableAccount();
    const links = () =>
      db
        .selectFrom('api_messages')
        .select(['message_id', 'client_ref'])
        .where('account_id', '=', user.accountId)
        .execute();
    const before = await balance();

    seen = [];
    const sent = await v1(secret, 'POST', '/v1/messages', {
      to: ['+14155550181', '+14155550182'],
      text: 'one statement send',
      clientRef: 'os-1',
    });
    const statements = seen;
    seen = null;
    expect(sent.status).toBe(202);
    const writes = statements.filter((t) => /INSERT INTO "api_messages"/.test(t.text));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.text).toMatch(/INSERT INTO "messages"/);
    expect(writes[0]!.text).toMatch(/UPDATE accounts SET balance_minor/);
    // No transaction around it: on its connection, no BEGIN just before it nor COMMIT just after
    // (background work on other connections, or on this one before or after, may use transactions).
    const onItsConnection = statements.filter((t) => t.client === writes[0]!.client);
    const at = onItsConnection.indexOf(writes[0]!);
    expect(onItsConnection[at - 1]?.text ?? '').not.toMatch(/^BEGIN\b/i);
    expect(onItsConnection[at + 1]?.text ?? '').not.toMatch(/^(COMMIT|ROLLBACK)\b/i);
    expect((await links()).sort((a, b) => a.message_id.localeCompare(b.message_id))).toEqual(
      sent.body.data
        .map((m: { id: string }) => ({ message_id: m.id, client_ref: 'os-1' }))
        .sort((a: { message_id: string }, b: { message_id: string }) =>
          a.message_id.localeCompare(b.message_id),
        ),
    );
    expect(await balance()).toBe(before - sent.body.totalPriceMinor);

    // The records fail: nothing is sent or charged.
    await sql`INSERT INTO test_block_api VALUES (${user.accountId})`.execute(db);
    const failed = await v1(secret, 'POST', '/v1/messages', {
      to: '+14155550183',
      text: 'one statement fails',
    });
    await sql`DELETE FROM test_block_api`.execute(db);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.body.error.code).toBe('internal_error');
    expect(await messageCount('one statement fails')).toBe(0);
    expect(await links()).toHaveLength(2);
    expect(await balance()).toBe(before - sent.body.totalPriceMinor);
  });
});

describe('a campaign and its Idempotency-Key answer commit together', () => {
  it('a failure storing the answer creates nothing (5xx); the retry with the same key creates it once', async () => {
    const { db } = server.ctx;
    // While test_block_idem names an account, storing its Idempotency-Key answers fails.
    await sql`CREATE TABLE test_block_idem (account_id uuid)`.execute(db);
    await sql
      .raw(
        `CREATE FUNCTION test_block_idem() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF NEW.response_status IS NOT NULL
              AND EXISTS (SELECT 1 FROM test_block_idem WHERE account_id = NEW.account_id) THEN
             RAISE EXCEPTION 'answers blocked by the test';
           END IF;
           RETURN NEW;
         END $$`,
      )
      .execute(db);
    await sql`CREATE TRIGGER test_block_idem BEFORE UPDATE ON idempotency_keys
              FOR EACH ROW EXECUTE FUNCTION test_block_idem()`.execute(db);
    const c = server.client();
    const { user } = await c.register();
    const { secret } = await createKey(c, { scopes: ['campaigns:write', 'balance:read'] });
    const balance = async () => (await v1(secret, 'GET', '/v1/balance')).body.balanceMinor as number;
    const campaigns = async () =>
      (await db.selectFrom('campaigns').select('id').where('account_id', '=', user.accountId).execute())
        .length;
    const before = await balance();
    await sql`INSERT INTO test_block_idem VALUES (${user.accountId})`.execute(db);
    const body = { to: ['+14155550177', '+14155550178'], text: 'atomic campaign' };
    const headers = { 'idempotency-key': 'atomic-campaign-1' };

    const failed = await v1(secret, 'POST', '/v1/campaigns', body, headers);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await campaigns()).toBe(0);
    expect(await balance()).toBe(before);

    await sql`DELETE FROM test_block_idem`.execute(db);
    const retried = await v1(secret, 'POST', '/v1/campaigns', body, headers);
    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    const again = await v1(secret, 'POST', '/v1/campaigns', body, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(retried.body);
    expect(await campaigns()).toBe(1);
  });
});

describe('/v1 contacts (scope contacts:write)', () => {
  it('adds (E.164, reports invalid and duplicates), lists groups and contacts (keyset), removes', async () => {
    const c = server.client();
    await c.register();
    const group = await c.post('/api/groups', { name: 'API customers' });
    expect(group.status).toBe(201);
    const groupId = group.body.id as string;
    const { secret } = await createKey(c, { scopes: ['contacts:write'] });

    const added = await v1(secret, 'POST', '/v1/contacts', {
      groupId,
      contacts: [
        { phone: '(415) 555-0120', name: 'Ada', fields: { plan: 'gold' } },
        { phone: '+14155550121' },
        { phone: '+1 415 555 0121', name: 'Again' },
        { phone: 'not a phone' },
      ],
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual([
      expect.objectContaining({ phone: '+14155550120', name: 'Ada', fields: { plan: 'gold' }, groupId }),
      expect.objectContaining({ phone: '+14155550121', name: '' }),
    ]);
    expect(added.body.duplicates).toEqual(['+14155550121']);
    expect(added.body.invalid).toEqual([{ index: 3, phone: 'not a phone', message: expect.any(String) }]);
    // A retry adds nothing twice.
    const retry = await v1(secret, 'POST', '/v1/contacts', {
      groupId,
      contacts: [{ phone: '+14155550120' }, { phone: '+14155550121' }],
    });
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ data: [], duplicates: ['+14155550120', '+14155550121'], invalid: [] });
    // Nothing valid: a 400 naming the first bad entry; too many: a 400 on contacts.
    const none = await v1(secret, 'POST', '/v1/contacts', {
      groupId,
      contacts: [{ phone: 'x' }, { phone: '12' }],
    });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatchObject({ code: 'parameter_invalid', param: 'contacts.0.phone' });
    const tooMany = await v1(secret, 'POST', '/v1/contacts', {
      groupId,
      contacts: Array.from({ length: 1001 }, (_, i) => ({ phone: `+1415556${String(i).padStart(4, '0')}` })),
    });
    expect([tooMany.status, tooMany.body.error.param]).toEqual([400, 'contacts']);

    const groups = await v1(secret, 'GET', '/v1/groups');
    expect(groups.status).toBe(200);
    expect(groups.body.data).toEqual([expect.objectContaining({ id: groupId, contactCount: 2 })]);
    const page1 = await v1(secret, 'GET', `/v1/groups/${groupId}/contacts?limit=1`);
    expect(page1.body.data).toHaveLength(1);
    expect(page1.body.nextCursor).toEqual(expect.any(String));
    const page2 = await v1(
      secret,
      'GET',
      `/v1/groups/${groupId}/contacts?limit=1&cursor=${page1.body.nextCursor}`,
    );
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.nextCursor).toBeNull();
    const ids = [page1.body.data[0].id, page2.body.data[0].id];
    expect(new Set(ids).size).toBe(2);

    // Another account's key: 404 on the group and its contacts; its own group list is empty.
    const theirs = await createKey(other, { scopes: ['contacts:write'] });
    const stranger = [
      await v1(theirs.secret, 'POST', '/v1/contacts', { groupId, contacts: [{ phone: '+14155550122' }] }),
      await v1(theirs.secret, 'GET', `/v1/groups/${groupId}/contacts`),
      await v1(theirs.secret, 'DELETE', `/v1/groups/${groupId}/contacts/${ids[0]}`),
    ];
    expect(stranger.map((r) => [r.status, r.body.error.code])).toEqual(Array(3).fill([404, 'not_found']));
    expect(JSON.stringify((await v1(theirs.secret, 'GET', '/v1/groups')).body)).not.toContain(groupId);
    // A key without the scope: 403 everywhere.
    const noScope = await createKey(c, { scopes: ['sms:send'] });
    const denied = [
      await v1(noScope.secret, 'POST', '/v1/contacts', { groupId, contacts: [{ phone: '+14155550122' }] }),
      await v1(noScope.secret, 'GET', '/v1/groups'),
      await v1(noScope.secret, 'GET', `/v1/groups/${groupId}/contacts`),
      await v1(noScope.secret, 'DELETE', `/v1/groups/${groupId}/contacts/${ids[0]}`),
    ];
    expect(denied.map((r) => [r.status, r.body.error.code])).toEqual(Array(4).fill([403, 'scope_missing']));

    const removed = await v1(secret, 'DELETE', `/v1/groups/${groupId}/contacts/${ids[0]}`);
    expect(removed.status).toBe(204);
    expect((await v1(secret, 'DELETE', `/v1/groups/${groupId}/contacts/${ids[0]}`)).status).toBe(404);
    expect((await v1(secret, 'GET', '/v1/groups')).body.data[0].contactCount).toBe(1);
    expect(
      (await v1(secret, 'GET', `/v1/groups/${groupId}/contacts`)).body.data.map((x: { id: string }) => x.id),
    ).toEqual([ids[1]]);
  });
});

describe('final-status webhooks for every message of an account with a webhook URL', () => {
  it('a web single send reaches the account URL as a signed message.status event, once; no URL, no event', async () => {
    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (ch) => (body += ch));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const c = server.client();
      await c.register();
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/status`;
      const set = await c.request('PUT', '/api/developer/webhook', { webhookUrl: url });
      expect(set.status).toBe(200);
      const single = await c.post('/api/sms/single', { recipients: ['+14155550177'], text: 'web hook' });
      expect(single.status).toBe(202);
      const id = single.body.messages[0].id as string;
      await until(() => received.length >= 1, 30_000, 'the status event');
      await new Promise((r) => setTimeout(r, 2500)); // later sweeps do not send it again
      expect(received).toHaveLength(1);
      const event = new Webhook(set.body.webhookSecret).verify(received[0]!.body, received[0]!.headers);
      expect(event).toMatchObject({
        type: 'message.status',
        data: { id, status: 'delivered', to: '+14155550177', clientRef: null, campaignId: null },
      });
      expect(received[0]!.headers['webhook-id']).toBe(`evt_${id}`);
      // An account without a URL queues nothing.
      const quiet = server.client();
      const { user } = await quiet.register();
      await quiet.post('/api/sms/single', { recipients: ['+14155550178'], text: 'no hook' });
      await sleepUntilFinal('no hook');
      const queued = await server.ctx.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('account_id', '=', user.accountId)
        .execute();
      expect(queued).toEqual([]);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 60_000);
});

async function sleepUntilFinal(text: string) {
  await until(
    async () => {
      const row = await server.ctx.db
        .selectFrom('messages')
        .select('done_at')
        .where('body', '=', text)
        .executeTakeFirst();
      return Boolean(row?.done_at);
    },
    30_000,
    `"${text}" to finish`,
  );
  await new Promise((r) => setTimeout(r, 1500)); // a sweep or two after it
}
