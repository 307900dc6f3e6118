import { STRIPE_WEBHOOK_PATH } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { joinAs } from '../members/test-fixtures';

/**
 * The embedded default (no payment provider): a top-up is a request that an operator approves or
 * rejects in /admin; approving credits the stored amount exactly once, audited with the member and
 * the operator. Through the real HTTP server and PostgreSQL.
 */
let server: TestServer;
let owner: ApiClient;
let operator: ApiClient;
let operatorName: string;
let ownerName: string;
let accountId: string;

beforeAll(async () => {
  server = await startServer();
  owner = server.client();
  const reg = await owner.register({ name: 'Request Owner' });
  accountId = reg.user.accountId;
  ownerName = reg.user.name;
  operator = server.client();
  const op = await operator.register({ name: 'Olga Operator' });
  operatorName = op.user.name;
  await server.ctx.services.users.promote(op.user.username);
  const login = await operator.post('/api/auth/login', { username: op.user.username, password: op.password });
  operator.useSession(login.body);
});
afterAll(async () => {
  await server?.close();
});

const balance = async () =>
  Number(
    (
      await server.ctx.db
        .selectFrom('accounts')
        .select('balance_minor')
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).balance_minor,
  );

async function request(amountMinor: number, note?: string, who: ApiClient = owner) {
  const res = await who.post('/api/billing/top-ups', { amountMinor, note });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; status: string };
}

describe('top-up requests (no payment provider)', () => {
  it('the summary says requests; card checkout and the Stripe webhook are not available', async () => {
    expect((await owner.get('/api/billing')).body).toMatchObject({ provider: 'manual', currency: 'USD' });
    const res = await owner.post('/api/billing/checkout', { amountMinor: 1000 });
    expect(res.status).toBe(409);
    expect(JSON.stringify(res.body)).toMatch(/request a top-up/);
    const hook = await fetch(server.url + STRIPE_WEBHOOK_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      body: '{}',
    });
    expect(hook.status).toBe(404);
  });

  it('refuses amounts outside the limits and unsafe notes with 400', async () => {
    for (const amountMinor of [0, 100, 1_000_001, -500]) {
      expect((await owner.post('/api/billing/top-ups', { amountMinor })).status, String(amountMinor)).toBe(
        400,
      );
    }
    expect((await owner.post('/api/billing/top-ups', { amountMinor: 1000, note: 'a\u0000b' })).status).toBe(
      400,
    );
  });

  it('an operator approves a request once: concurrent approvals credit one ledger entry, audited', async () => {
    const before = await balance();
    const t = await request(2000, 'Invoice 17 paid by bank transfer');
    expect(t.status).toBe('pending');
    const listed = await owner.get('/api/billing/top-ups');
    expect(listed.body.items[0]).toMatchObject({
      id: t.id,
      status: 'pending',
      amountMinor: 2000,
      requestedBy: ownerName,
    });
    const queue = await operator.get('/api/admin/top-ups?status=pending');
    expect(queue.status).toBe(200);
    expect(queue.body.items.find((i: { id: string }) => i.id === t.id)).toMatchObject({
      accountId,
      accountName: expect.any(String),
      amountMinor: 2000,
    });

    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        operator.post(`/api/admin/top-ups/${t.id}/approve`, { note: 'Received' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await balance()).toBe(before + 2000);
    const entries = await server.ctx.db
      .selectFrom('ledger_entries')
      .select(['amount_minor', 'kind'])
      .where('reference', '=', `topup:${t.id}`)
      .execute();
    expect(entries).toEqual([{ amount_minor: 2000, kind: 'topup' }]);

    const after = await owner.get('/api/billing/top-ups');
    expect(after.body.items.find((i: { id: string }) => i.id === t.id)).toMatchObject({
      status: 'approved',
      decisionNote: 'Received',
    });
    const auditRows = await server.ctx.db
      .selectFrom('audit_log')
      .select(['kind', 'message', 'actor_user_id', 'user_id'])
      .where('resource_id', '=', t.id)
      .orderBy('id')
      .execute();
    expect(auditRows.map((a) => a.kind)).toEqual(['billing.topup_requested', 'admin.topup_approved']);
    expect(auditRows[1]!.message).toContain(operatorName);
    expect(auditRows[1]!.message).toContain(ownerName);
    expect(auditRows[1]!.actor_user_id).not.toBe(auditRows[1]!.user_id);
  });

  it('a rejected request credits nothing and cannot be approved later', async () => {
    const before = await balance();
    const t = await request(1500);
    const rej = await operator.post(`/api/admin/top-ups/${t.id}/reject`, { note: 'No payment received' });
    expect(rej.status).toBe(200);
    expect(rej.body.status).toBe('rejected');
    expect((await operator.post(`/api/admin/top-ups/${t.id}/approve`, {})).status).toBe(409);
    expect(await balance()).toBe(before);
    expect(
      (await operator.post(`/api/admin/top-ups/00000000-0000-4000-8000-000000000000/approve`, {})).status,
    ).toBe(404);
  });

  it('limits the pending requests of an account', async () => {
    const other = server.client();
    await other.register();
    for (let i = 0; i < 5; i++) await request(500, undefined, other);
    const res = await other.post('/api/billing/top-ups', { amountMinor: 500 });
    expect(res.status).toBe(409);
  });

  it('another account and roles without the permission cannot read, request or decide', async () => {
    const stranger = server.client();
    await stranger.register();
    const mine = await request(900);
    expect((await stranger.get('/api/billing/top-ups')).body.items).toEqual([]);
    // Not an operator: the admin queue and decisions are 403, and nothing changes.
    expect((await stranger.get('/api/admin/top-ups')).status).toBe(403);
    expect((await stranger.post(`/api/admin/top-ups/${mine.id}/approve`, {})).status).toBe(403);
    expect((await owner.post(`/api/admin/top-ups/${mine.id}/approve`, {})).status).toBe(403);
    const analyst = (await joinAs(server, owner, 'analyst')).client;
    expect((await analyst.get('/api/billing/top-ups')).status).toBe(403);
    expect((await analyst.post('/api/billing/top-ups', { amountMinor: 1000 })).status).toBe(403);
    const developer = (await joinAs(server, owner, 'developer')).client;
    expect((await developer.post('/api/billing/top-ups', { amountMinor: 1000 })).status).toBe(403);
    // The billing role may request.
    const billing = (await joinAs(server, owner, 'billing')).client;
    expect((await billing.post('/api/billing/top-ups', { amountMinor: 1000 })).status).toBe(201);
    const still = await owner.get('/api/billing/top-ups');
    expect(still.body.items.find((i: { id: string }) => i.id === mine.id).status).toBe('pending');
  });
});
