import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let owner: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  server = await startServer();
  owner = server.client();
  other = server.client();
  await owner.register();
  await other.register();
});
afterAll(async () => {
  await server?.close();
});

async function createKey(c: ApiClient, scopes: string[]) {
  const res = await c.post('/api/api-keys', { name: 'Backend', scopes });
  expect(res.status).toBe(201);
  return res.body as { key: { id: string }; secret: string };
}

/** A call the way a customer's system makes it: a bearer key, no cookies. */
async function withKey(secret: string, path: string, body: unknown) {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function pricesOf(ids: string[]) {
  const rows = await server.ctx.db
    .selectFrom('messages')
    .select(['id', 'price_minor', 'currency'])
    .where('id', 'in', ids)
    .execute();
  expect(rows).toHaveLength(ids.length);
  return rows;
}

describe("an API key's report", () => {
  it('counts every message the key sent, its /v1/messages and its OTP codes, with their cost', async () => {
    const svc = await owner.post('/api/otp-services', {
      name: 'Login codes',
      template: 'Your {{service}} code is {{code}}',
      allowedCountries: ['US'],
    });
    expect(svc.status).toBe(201);
    const key = await createKey(owner, ['sms:send', 'otp']);
    const sibling = await createKey(owner, ['sms:send', 'otp']);
    const theirs = await createKey(other, ['sms:send', 'otp']);

    // Two SMS through /v1/messages (the second one two segments, so the prices differ).
    const ids: string[] = [];
    for (const text of ['Your order shipped', 'Long notice '.repeat(16)]) {
      const sent = await withKey(key.secret, '/v1/messages', { to: '+14155550170', text });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      ids.push(sent.body.data[0].id);
    }
    // Three codes through the OTP API with the same key.
    for (const to of ['+14155550171', '+14155550172', '+14155550173']) {
      const sent = await withKey(key.secret, `/v1/otp/${svc.body.id}/send`, { to });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      ids.push(sent.body.messageId);
    }
    // Not counted: a code the service refused (no SMS), one the console's session sent, and one the
    // key sent before the report's window.
    const refused = await withKey(key.secret, `/v1/otp/${svc.body.id}/send`, { to: '+447911123456' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    const blocked = await server.ctx.db
      .selectFrom('otp_verifications')
      .selectAll()
      .where('service_id', '=', svc.body.id)
      .where('status', '=', 'blocked')
      .execute();
    expect(blocked).toMatchObject([{ recipient: '+447911123456', message_id: null, api_key_id: key.key.id }]);
    const fromConsole = await owner.post(`/v1/otp/${svc.body.id}/send`, { to: '+14155550174' });
    expect(fromConsole.status).toBe(201);
    const old = await withKey(key.secret, `/v1/otp/${svc.body.id}/send`, { to: '+14155550175' });
    expect(old.status).toBe(201);
    await sql`UPDATE otp_verifications SET created_at = now() - interval '30 days' WHERE id = ${old.body.id}`.execute(
      server.ctx.db,
    );

    const rows = await pricesOf(ids);
    const cost = rows.reduce((sum, r) => sum + r.price_minor, 0);
    expect(cost).toBeGreaterThan(ids.length); // the two-segment SMS costs more than one
    const report = await owner.get(`/api/api-keys/${key.key.id}/report`);
    expect(report.status).toBe(200);
    expect(report.body.messages).toEqual({ count: 5, costMinor: cost, currency: rows[0]!.currency });
    // A window that reaches back 30 days takes the older code in too.
    const [oldSms] = await pricesOf([old.body.messageId]);
    const wide = await owner.get(`/api/api-keys/${key.key.id}/report?days=90`);
    expect(wide.body.messages).toMatchObject({ count: 6, costMinor: cost + oldSms!.price_minor });

    // Another key of the account, and a key of another account, sent nothing.
    for (const [c, id] of [
      [owner, sibling.key.id],
      [other, theirs.key.id],
    ] as const) {
      const r = await c.get(`/api/api-keys/${id}/report`);
      expect(r.status).toBe(200);
      expect(r.body.messages).toMatchObject({ count: 0, costMinor: 0 });
    }
    // The other account cannot read this key's report.
    expect((await other.get(`/api/api-keys/${key.key.id}/report`)).status).toBe(404);

    // OTP messages are not /v1 messages: they get no api_messages row (no per-key status webhook).
    const linked = await server.ctx.db
      .selectFrom('api_messages')
      .select('message_id')
      .where('api_key_id', '=', key.key.id)
      .execute();
    expect(linked.map((r) => r.message_id).sort()).toEqual(ids.slice(0, 2).sort());
  });
});
