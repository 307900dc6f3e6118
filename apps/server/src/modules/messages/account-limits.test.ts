import { ADMIN_API } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { until } from '../../realtime/test-client';

/**
 * The operator's per-account limits (account-limits.ts), through the real server, database and
 * simulator: allowed countries, the daily cap (also under concurrent sends) and messages per second,
 * on every accept path (single send, /v1/messages, campaigns, OTP), each with another account
 * unaffected.
 */
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startServer(
    { SIMULATOR_DELAY_MS: '5', SIMULATOR_MIX: 'DELIVRD=100', ADMIN_ALLOW_OVERDRAFT: 'true' },
    { worker: true },
  );
  admin = server.client();
  const reg = await admin.register();
  await server.ctx.services.users.promote(reg.user.username);
  const login = await admin.post('/api/auth/login', { username: reg.user.username, password: reg.password });
  admin.useSession(login.body);
});
afterAll(() => server?.close());

interface Limits {
  maxPerSecond?: number | null;
  dailyCap?: number | null;
  allowedCountries?: string[] | null;
}

/** A fresh account with a balance of `credit` minor units and the given limits. */
async function account(limits: Limits = {}, credit = 10_000) {
  const c = server.client();
  const { user } = await c.register();
  if (credit !== 0) {
    const adj = await admin.post(ADMIN_API.adjustments.replace(':id', user.accountId), {
      amountMinor: credit,
      reason: 'Test credit',
    });
    expect(adj.status, JSON.stringify(adj.body)).toBeLessThan(300);
  }
  const res = await admin.request('PUT', ADMIN_API.limits.replace(':id', user.accountId), {
    maxPerSecond: limits.maxPerSecond ?? null,
    dailyCap: limits.dailyCap ?? null,
    allowedCountries: limits.allowedCountries ?? null,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { c, accountId: user.accountId };
}

/** A /v1 call with a fresh API key of the client's account, the way a customer's system makes it. */
async function v1(c: ApiClient, body: unknown) {
  const key = await c.post('/api/api-keys', { name: 'Backend', scopes: ['sms:send'] });
  expect(key.status).toBe(201);
  const res = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.body.secret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { message?: string; errors?: Record<string, string[]> },
  };
}

const us = (n: number, base = 2000) => Array.from({ length: n }, (_, i) => `+1415555${base + i}`);

const messageCount = async (accountId: string) =>
  Number(
    (
      await server.ctx.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const balanceOf = async (c: ApiClient) => (await c.get('/api/balance')).body.balanceMinor as number;

describe('allowed countries', () => {
  it('refuses a single send, a /v1 send and a campaign naming the number and its country; storing and charging nothing', async () => {
    const { c, accountId } = await account({ allowedCountries: ['US'] });
    const before = await balanceOf(c);

    const mixed = await c.post('/api/sms/single', {
      recipients: ['+14155550100', '+447400123456'],
      text: 'Hello',
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors.recipients[0]).toContain('+447400123456 (United Kingdom (GB))');
    expect(mixed.body.errors.recipients[0]).toContain('Allowed: US');
    const api = await v1(c, { to: ['+14155550100', '+447400123456'], text: 'Hello' });
    expect(api.status).toBe(400);
    expect(JSON.stringify(api.body)).toContain('+447400123456 (United Kingdom (GB))');

    const campaign = await c.post('/api/campaigns', {
      kind: 'bulk',
      text: 'Sale',
      numbers: '+14155550101\n+254712345678\n+447400123457',
    });
    expect(campaign.status).toBe(422);
    expect(campaign.body.message).toContain('+254712345678 (Kenya (KE))');
    expect(campaign.body.message).toContain('+447400123457 (United Kingdom (GB))');

    expect(await messageCount(accountId)).toBe(0);
    expect(await balanceOf(c)).toBe(before);
    const campaigns = await c.get('/api/campaigns');
    expect(campaigns.body.items).toHaveLength(0);

    // Inside the list: accepted.
    const ok = await c.post('/api/sms/single', { recipients: ['+14155550100'], text: 'Hello' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);

    // Another account (no list) sends to the UK.
    const other = await account();
    const uk = await other.c.post('/api/sms/single', { recipients: ['+447400123456'], text: 'Hello' });
    expect(uk.status, JSON.stringify(uk.body)).toBe(202);
  });

  it('refuses an OTP to a country outside the list', async () => {
    const { c, accountId } = await account({ allowedCountries: ['GB'] });
    const svc = await c.post('/api/otp-services', { name: 'Login', template: 'Your code is {{code}}' });
    expect(svc.status, JSON.stringify(svc.body)).toBe(201);
    const refused = await c.post(`/v1/otp/${svc.body.id}/send`, { to: '+14155550142' });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('+14155550142 (United States (US))');
    expect(await messageCount(accountId)).toBe(0);
    const ok = await c.post(`/v1/otp/${svc.body.id}/send`, { to: '+447400123458' });
    expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
    expect(await messageCount(accountId)).toBe(1);
  });
});

describe('daily cap', () => {
  it('counts messages accepted today and refuses what would pass the cap, saying how many remain', async () => {
    const { c, accountId } = await account({ dailyCap: 5 });
    const send = (n: number, base: number) =>
      c.post('/api/sms/single', { recipients: us(n, base), text: 'Hi' });

    expect((await send(3, 3000)).status).toBe(202);
    const over = await send(3, 3100);
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/5 messages a day \(UTC\) and 2 remain today; this send has 3/);
    const campaign = await c.post('/api/campaigns', {
      kind: 'bulk',
      text: 'Sale',
      numbers: us(4, 3200).join('\n'),
    });
    expect(campaign.status).toBe(429);
    expect(campaign.body.message).toMatch(/2 remain today; this send has 4/);
    const api = await v1(c, { to: us(3, 3250), text: 'Hi' });
    expect(api.status).toBe(429);
    expect(JSON.stringify(api.body)).toMatch(/2 remain today/);
    expect((await send(2, 3300)).status).toBe(202);
    const full = await send(1, 3400);
    expect(full.status).toBe(429);
    expect(full.body.message).toMatch(/0 remain today/);
    expect(await messageCount(accountId)).toBe(5);
    const detail = await admin.get(ADMIN_API.account.replace(':id', accountId));
    expect(detail.body).toMatchObject({ acceptedToday: 5, limits: { dailyCap: 5 } });

    // Another account is not limited by it.
    const other = await account();
    const res = await other.c.post('/api/sms/single', { recipients: us(6, 3500), text: 'Hi' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
  });

  it('a campaign within the cap is accepted and counted', async () => {
    const { c } = await account({ dailyCap: 4 });
    const campaign = await c.post('/api/campaigns', {
      kind: 'bulk',
      text: 'Sale',
      numbers: us(3, 3600).join('\n'),
    });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(202);
    const over = await c.post('/api/sms/single', { recipients: us(2, 3700), text: 'Hi' });
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/1 remain today/);
  });

  it('concurrent sends cannot pass the cap together', async () => {
    const { c, accountId } = await account({ dailyCap: 7 });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        c.post('/api/sms/single', { recipients: us(2, 4000 + i * 10), text: 'Hi' }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(await messageCount(accountId)).toBe(6);
  });

  it('a send refused for its balance gives its place under the cap back', async () => {
    const { c, accountId } = await account({ dailyCap: 3 }, 0);
    // The trial credit covers a few US messages; a UK send of 3 at 4 each may not.
    const adj = await admin.post(ADMIN_API.adjustments.replace(':id', accountId), {
      amountMinor: 5 - (await balanceOf(c)),
      reason: 'Test: leave 5',
    });
    expect(adj.status, JSON.stringify(adj.body)).toBeLessThan(300);
    const poor = await c.post('/api/sms/single', {
      recipients: ['+447400123461', '+447400123462', '+447400123463'],
      text: 'Hi',
    });
    expect(poor.status).toBe(402);
    const ok = await c.post('/api/sms/single', { recipients: us(3, 4500), text: 'Hi' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
  });
});

describe('messages per second', () => {
  it("paces the account's messages at its rate without holding up another account", async () => {
    const slow = await account({ maxPerSecond: 1 });
    const res = await slow.c.post('/api/sms/single', { recipients: us(40, 5000), text: 'Paced' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const fast = await account();
    const quick = await fast.c.post('/api/sms/single', { recipients: us(5, 5100), text: 'Now' });
    expect(quick.status).toBe(202);

    // Due one second apart, in order; the next send continues after the last.
    const due = async (accountId: string) =>
      (
        await server.ctx.db
          .selectFrom('messages')
          .select(['next_attempt_at', 'created_at', 'recipient'])
          .where('account_id', '=', accountId)
          .orderBy('next_attempt_at')
          .execute()
      ).map((r) => new Date(r.next_attempt_at).getTime());
    const slowDue = await due(slow.accountId);
    expect(slowDue).toHaveLength(40);
    for (let i = 1; i < slowDue.length; i++) expect(slowDue[i]! - slowDue[i - 1]!).toBe(1000);

    // The other account's messages are all sent while the paced account still has most waiting.
    await until(
      async () => {
        const r = await server.ctx.db
          .selectFrom('messages')
          .select('status')
          .where('account_id', '=', fast.accountId)
          .execute();
        return r.every((m) => m.status !== 'queued' && m.status !== 'sending');
      },
      25_000,
      'the unlimited account sent',
    );
    const waiting = await server.ctx.db
      .selectFrom('messages')
      .select('id')
      .where('account_id', '=', slow.accountId)
      .where('status', '=', 'queued')
      .execute();
    expect(waiting.length).toBeGreaterThan(0);

    // No paced message was submitted before its due time.
    const sent = await server.ctx.db
      .selectFrom('messages as m')
      .innerJoin('message_events as e', 'e.message_id', 'm.id')
      .select(['m.next_attempt_at', 'e.created_at'])
      .where('m.account_id', '=', slow.accountId)
      .where('e.status', '=', 'sent')
      .execute();
    for (const s of sent) {
      expect(new Date(s.created_at).getTime()).toBeGreaterThanOrEqual(new Date(s.next_attempt_at).getTime());
    }

    // A campaign of the same account continues the pace when its messages are queued.
    const camp = await slow.c.post('/api/campaigns', {
      kind: 'bulk',
      text: 'Paced campaign',
      numbers: us(3, 5300).join('\n'),
    });
    expect(camp.status, JSON.stringify(camp.body)).toBe(202);
    await until(async () => (await due(slow.accountId)).length === 43, 25_000, 'campaign queued');
    const withCampaign = await due(slow.accountId);
    for (let i = 1; i < withCampaign.length; i++) {
      expect(withCampaign[i]! - withCampaign[i - 1]!).toBeGreaterThanOrEqual(1000);
    }
    slowDue.push(...withCampaign.slice(40));

    const more = await slow.c.post('/api/sms/single', { recipients: us(1, 5200), text: 'Later' });
    expect(more.status).toBe(202);
    const after = await due(slow.accountId);
    expect(after[after.length - 1]! - slowDue[slowDue.length - 1]!).toBe(1000);
  });
});
