import { ADMIN_API, ADMIN_HUB_COMMANDS, ADMIN_HUB_REQUESTS } from '@wren/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { routeTable } from '../../platform/http/route-auth';
import { call, connectHub } from '../../realtime/test-client';
import { countryOfPrefix } from './prefix-country';
import { parseMajor } from './rate-plan-csv';
import { campaignsOf } from '../campaigns/campaigns.routes';
import { toV1Error } from '../v1/v1-errors';

let server: TestServer;
let admin: ApiClient;
let user: ApiClient;
let userReg: Awaited<ReturnType<ApiClient['register']>>;

async function adminClient(s: TestServer): Promise<ApiClient> {
  const c = s.client();
  const reg = await c.register();
  await s.ctx.services.users.promote(reg.user.username);
  const login = await c.post('/api/auth/login', { username: reg.user.username, password: reg.password });
  c.useSession(login.body);
  return c;
}

const path = (pattern: string, id: string) => pattern.replace(':id', id).replace(':name', 'simulator');

beforeAll(async () => {
  server = await startServer({ SENDER_ID_APPROVAL: 'manual', ADMIN_ALLOW_OVERDRAFT: 'true' });
  admin = await adminClient(server);
  user = server.client();
  userReg = await user.register();
});
afterAll(() => server?.close());

describe('admin access', () => {
  it('a non-admin gets 403 on every admin route, and every /api/admin route is admin-only', async () => {
    const routes = routeTable(server.app).filter((r) => r.url.startsWith('/api/admin'));
    const mine = Object.values(ADMIN_API);
    for (const p of mine) expect(routes.map((r) => r.url)).toContain(p);
    const failures: string[] = [];
    for (const r of routes) {
      if (r.method === 'HEAD') continue;
      if (r.access !== 'admin') failures.push(`${r.method} ${r.url} is ${r.access}`);
      const res = await user.request(
        r.method,
        path(r.url, userReg.user.accountId),
        r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      );
      if (res.status !== 403) failures.push(`${r.method} ${r.url} -> ${res.status}`);
    }
    expect(failures).toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(mine.length);
  });

  it('a non-admin gets FORBIDDEN from every admin hub method; an admin gets the status', async () => {
    const userSocket = await connectHub(server.url, user.accessToken!);
    const adminSocket = await connectHub(server.url, admin.accessToken!);
    try {
      for (const m of [...ADMIN_HUB_REQUESTS, ...ADMIN_HUB_COMMANDS]) {
        const ack = await call(userSocket, m, 'simulator');
        expect(ack, m).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      }
      const ok = await call(adminSocket, 'GetSystemStatus');
      expect(ok).toMatchObject({ ok: true });
    } finally {
      userSocket.disconnect();
      adminSocket.disconnect();
    }
  });
});

describe('accounts and money', () => {
  it('finds an account by username, email and phone fragment with keyset pages', async () => {
    const byName = await admin.get(`${ADMIN_API.accounts}?q=${userReg.user.username}`);
    expect(byName.status).toBe(200);
    expect(byName.body.items.map((a: { username: string }) => a.username)).toEqual([userReg.user.username]);
    const byEmail = await admin.get(
      `${ADMIN_API.accounts}?q=${encodeURIComponent(userReg.user.email.toUpperCase())}`,
    );
    expect(byEmail.body.items).toHaveLength(1);
    const page1 = await admin.get(`${ADMIN_API.accounts}?limit=1`);
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.nextCursor).toBeTruthy();
    const page2 = await admin.get(`${ADMIN_API.accounts}?limit=1&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items[0].id).not.toBe(page1.body.items[0].id);
    const bad = await admin.get(`${ADMIN_API.accounts}?cursor=abc`);
    expect(bad.status).toBe(400);
  });

  it('searches a substring of a username, email or phone of any of the account users, any case', async () => {
    const u = await server.ctx.db
      .selectFrom('users')
      .select(['username', 'email', 'phone'])
      .where('account_id', '=', userReg.user.accountId)
      .executeTakeFirstOrThrow();
    const ids = async (q: string) =>
      (await admin.get(`${ADMIN_API.accounts}?q=${encodeURIComponent(q)}&limit=200`)).body.items.map(
        (a: { id: string }) => a.id,
      );
    expect(await ids(u.username.slice(2, -1).toUpperCase())).toContain(userReg.user.accountId);
    expect(await ids(u.email.split('@')[0]!.slice(1))).toContain(userReg.user.accountId);
    expect(await ids(u.phone.replace(/\D/g, '').slice(-6))).toContain(userReg.user.accountId);
    expect(await ids('no-such-user-zz9')).toEqual([]);
    // A LIKE wildcard typed in the search is a literal character.
    expect(await ids('%')).toEqual([]);
  });

  it('account search has a valid pg_trgm index for each searched column, which a LIKE substring uses', async () => {
    const indexes = await sql<{ name: string; valid: boolean; method: string }>`
      SELECT c.relname AS name, i.indisvalid AS valid, am.amname AS method
        FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
       WHERE c.relname LIKE '%\\_trgm\\_idx' AND i.indrelid IN ('users'::regclass, 'accounts'::regclass)
       ORDER BY 1`.execute(server.ctx.db);
    expect(indexes.rows).toEqual(
      [
        'accounts_name_trgm_idx',
        'users_email_trgm_idx',
        'users_phone_trgm_idx',
        'users_username_trgm_idx',
      ].map((name) => ({ name, valid: true, method: 'gin' })),
    );
    // With sequential and plain index scans off, only a bitmap scan of an index that can answer the
    // LIKE is left; each expression has exactly one such index, so the plan names it (without it the
    // planner falls back to the disabled Seq Scan).
    const plans: Record<string, string> = {};
    await server.ctx.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_indexscan = off`.execute(trx);
      await sql`SET LOCAL enable_indexonlyscan = off`.execute(trx);
      const explain = async (q: ReturnType<typeof sql>) =>
        (await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${q}`.execute(trx)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
      plans.username = await explain(sql`SELECT id FROM users WHERE lower(username) LIKE '%abcd%'`);
      plans.email = await explain(sql`SELECT id FROM users WHERE lower(email) LIKE '%abcd%'`);
      plans.phone = await explain(sql`SELECT id FROM users WHERE phone LIKE '%5550%'`);
      plans.name = await explain(sql`SELECT id FROM accounts WHERE lower(name) LIKE '%abcd%'`);
    });
    expect(plans.username).toContain('Bitmap Index Scan on users_username_trgm_idx');
    expect(plans.email).toContain('Bitmap Index Scan on users_email_trgm_idx');
    expect(plans.phone).toContain('Bitmap Index Scan on users_phone_trgm_idx');
    expect(plans.name).toContain('Bitmap Index Scan on accounts_name_trgm_idx');
  });

  it('adjustments post ledger entries; the cached balance always equals the sum of entries', async () => {
    const id = userReg.user.accountId;
    const before = (await admin.get(path(ADMIN_API.account, id))).body.balanceMinor as number;
    const credit = await admin.post(path(ADMIN_API.adjustments, id), {
      amountMinor: 1234,
      reason: 'Bank transfer 42',
    });
    expect(credit.status).toBe(201);
    expect(credit.body.balanceMinor).toBe(before + 1234);
    const debit = await admin.post(path(ADMIN_API.adjustments, id), {
      amountMinor: -234,
      reason: 'Correction',
    });
    expect(debit.body.balanceMinor).toBe(before + 1000);
    // Concurrent adjustments keep the invariant.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        admin.post(path(ADMIN_API.adjustments, id), { amountMinor: i % 2 ? 7 : -3, reason: `Burst ${i}` }),
      ),
    );
    const v = await server.ctx.services.ledger.verify(server.ctx.db, id);
    expect(v.cached).toBe(v.sum);
    expect(v.cached).toBe(before + 1000 + 5 * 7 - 5 * 3);
    const ledger = await admin.get(path(ADMIN_API.ledger, id));
    expect(ledger.body.items.some((e: { note: string }) => e.note === 'Bank transfer 42')).toBe(true);
    const audit = await admin.get(`${ADMIN_API.audit}?accountId=${id}&kind=admin.credit`);
    expect(audit.body.items[0]).toMatchObject({ kind: 'admin.credit', actorUsername: expect.any(String) });

    // One confirmed adjustment sent three times at once (a double click, a retry) posts once, audited
    // once, and every answer names the same entry.
    const requestId = crypto.randomUUID();
    const start = (await server.ctx.services.ledger.verify(server.ctx.db, id)).cached;
    const twice = await Promise.all(
      Array.from({ length: 3 }, () =>
        admin.post(path(ADMIN_API.adjustments, id), { amountMinor: 700, reason: 'Double click', requestId }),
      ),
    );
    expect(twice.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(twice.map((r) => r.body.entry.id)).size).toBe(1);
    const after = await server.ctx.services.ledger.verify(server.ctx.db, id);
    expect([after.cached, after.sum]).toEqual([start + 700, start + 700]);
    const audits = await admin.get(`${ADMIN_API.audit}?accountId=${id}&kind=admin.credit`);
    expect(
      audits.body.items.filter((a: { message: string }) => a.message.includes('Double click')),
    ).toHaveLength(1);
    // A far too large amount says so (not "whole minor units").
    const huge = await admin.post(path(ADMIN_API.adjustments, id), { amountMinor: 1e16, reason: 'Typo' });
    expect([huge.status, huge.body.errors?.amountMinor]).toEqual([400, ['That amount is too large']]);
  });

  it('a debit cannot take the balance below zero unless the reason says overdraft and config allows it', async () => {
    const id = userReg.user.accountId;
    const bal = (await admin.get(path(ADMIN_API.account, id))).body.balanceMinor as number;
    const refused = await admin.post(path(ADMIN_API.adjustments, id), {
      amountMinor: -(bal + 1),
      reason: 'Chargeback',
    });
    expect(refused.status).toBe(402);
    expect((await admin.get(path(ADMIN_API.account, id))).body.balanceMinor).toBe(bal);
    const allowed = await admin.post(path(ADMIN_API.adjustments, id), {
      amountMinor: -(bal + 100),
      reason: 'Agreed overdraft for March',
    });
    expect(allowed.status).toBe(201);
    expect(allowed.body.balanceMinor).toBe(-100);
    const v = await server.ctx.services.ledger.verify(server.ctx.db, id);
    expect(v.cached).toBe(v.sum);
    await admin.post(path(ADMIN_API.adjustments, id), { amountMinor: 100 + bal, reason: 'Restore' });

    // With ADMIN_ALLOW_OVERDRAFT off, even an overdraft reason is refused.
    const strict = await startServer({ ADMIN_ALLOW_OVERDRAFT: 'false' });
    try {
      const a = await adminClient(strict);
      const u = strict.client();
      const r = await u.register();
      const b = (await a.get(path(ADMIN_API.account, r.user.accountId))).body.balanceMinor as number;
      const res = await a.post(path(ADMIN_API.adjustments, r.user.accountId), {
        amountMinor: -(b + 1),
        reason: 'overdraft please',
      });
      expect(res.status).toBe(402);
      const v2 = await strict.ctx.services.ledger.verify(strict.ctx.db, r.user.accountId);
      expect(v2).toEqual({ cached: b, sum: b });
    } finally {
      await strict.close();
    }
  });

  it('rejects bad adjustments with 400 and needs a reason', async () => {
    const id = userReg.user.accountId;
    for (const body of [
      { amountMinor: 0, reason: 'zero' },
      { amountMinor: 1.5, reason: 'half' },
      { amountMinor: 5 },
      { amountMinor: 5, reason: ' ' },
    ]) {
      expect((await admin.post(path(ADMIN_API.adjustments, id), body)).status).toBe(400);
    }
    const unknown = await admin.post(path(ADMIN_API.adjustments, '00000000-0000-4000-8000-000000000000'), {
      amountMinor: 5,
      reason: 'x y z',
    });
    expect(unknown.status).toBe(404);
  });

  it('exports the ledger as CSV and audits the export', async () => {
    const res = await admin.get(path(ADMIN_API.ledgerCsv, userReg.user.accountId));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (res.body as string)
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,date,kind,credit,debit,currency,reference,note');
    expect(lines.some((l) => l.includes('12.34') && l.includes('Bank transfer 42'))).toBe(true);
    const audit = await admin.get(`${ADMIN_API.audit}?kind=admin.export`);
    expect(audit.body.items.length).toBeGreaterThan(0);
  });

  it('locking ends the sessions and refuses sign-in; unlocking lets the user back in', async () => {
    const c = server.client();
    const reg = await c.register();
    expect((await c.get('/api/me')).status).toBe(200);
    const key = await c.post('/api/api-keys', { name: 'Locked soon', scopes: ['sms:send', 'balance:read'] });
    expect(key.status).toBe(201);
    const byKey = () =>
      fetch(`${server.url}/v1/balance`, { headers: { authorization: `Bearer ${key.body.secret}` } });
    expect((await byKey()).status).toBe(200); // the key is now in this node's cache
    const locked = await admin.post(path(ADMIN_API.lock, reg.user.accountId), { reason: 'Spam complaints' });
    expect(locked.status).toBe(200);
    expect(locked.body.status).toBe('locked');
    // The session and the account's API keys stop at once on the node that locked it (other nodes
    // within their 5 s of memory).
    expect((await c.get('/api/me')).status).toBe(401);
    const refused = await byKey();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('account_locked');
    const login = await c.post('/api/auth/login', { username: reg.user.username, password: reg.password });
    expect(login.status).toBe(423);
    const wrong = await c.post('/api/auth/login', {
      username: reg.user.username,
      password: 'not the password',
    });
    expect(wrong.status).toBe(401);
    const unlocked = await admin.post(path(ADMIN_API.unlock, reg.user.accountId), {});
    expect(unlocked.body.status).toBe('active');
    const again = await c.post('/api/auth/login', { username: reg.user.username, password: reg.password });
    expect(again.status).toBe(200);
    // Sign-ins are audited once the response is sent (onResponse), so the last may land just after.
    const kinds = async () =>
      (await admin.get(`${ADMIN_API.audit}?accountId=${reg.user.accountId}&limit=50`)).body.items.map(
        (e: { kind: string }) => e.kind,
      );
    await expect
      .poll(kinds, { timeout: 10_000, interval: 100 })
      .toEqual(
        expect.arrayContaining([
          'admin.account_locked',
          'auth.login_refused',
          'auth.login_failed',
          'admin.account_unlocked',
          'auth.login',
        ]),
      );
    // Locking yourself is refused.
    const self = await admin.get('/api/me');
    expect(
      (await admin.post(path(ADMIN_API.lock, self.body.accountId), { reason: 'oops mine' })).status,
    ).toBe(409);
  });

  it("locking stops the account's sending: waiting messages and unfinished campaigns are canceled and refunded, and its sends refused", async () => {
    const c = server.client();
    const reg = await c.register();
    const id = reg.user.accountId;
    expect(
      (await admin.post(path(ADMIN_API.adjustments, id), { amountMinor: 10_000, reason: 'Top-up' })).status,
    ).toBe(201);
    const start = (await admin.get(path(ADMIN_API.account, id))).body.balanceMinor as number;
    const later = new Date(Date.now() + 3_600_000).toISOString();
    // Two scheduled messages, one queued (this server runs no worker, so it waits), a scheduled
    // campaign and one that is sending (paused, so its queued messages wait too).
    const scheduled = await c.post('/api/sms/single', {
      recipients: ['+12125550130', '+12125550131'],
      text: 'Later',
      scheduleAt: later,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(202);
    expect((await c.post('/api/sms/single', { recipients: ['+12125550132'], text: 'Now' })).status).toBe(202);
    const numbers = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `+1212555${String(1000 + from + i)}`).join('\n');
    const campaignLater = await c.post('/api/campaigns', {
      numbers: numbers(100, 3),
      text: 'Sale',
      scheduleAt: later,
    });
    expect(campaignLater.status, JSON.stringify(campaignLater.body)).toBe(202);
    const campaignNow = await c.post('/api/campaigns', { numbers: numbers(200, 4), text: 'Sale now' });
    expect(campaignNow.status, JSON.stringify(campaignNow.body)).toBe(202);
    const nowId = campaignNow.body.campaign.id as string;
    // Its messages are queued (the materialiser's pass) before it is paused.
    const ofCampaign = async () =>
      (await server.ctx.db.selectFrom('messages').select('id').where('campaign_id', '=', nowId).execute())
        .length;
    await expect.poll(ofCampaign, { timeout: 15_000 }).toBe(4);
    expect((await c.post(`/api/campaigns/${nowId}/pause`, {})).status).toBeLessThan(300);
    const spent = start - ((await admin.get(path(ADMIN_API.account, id))).body.balanceMinor as number);
    expect(spent).toBeGreaterThan(0);

    const locked = await admin.post(path(ADMIN_API.lock, id), { reason: 'Account taken over' });
    expect(locked.status).toBe(200);

    const db = server.ctx.db;
    const messages = await db
      .selectFrom('messages')
      .select(['status', 'error', 'refunded'])
      .where('account_id', '=', id)
      .execute();
    expect(messages.length).toBeGreaterThanOrEqual(3);
    for (const m of messages) {
      expect(m).toEqual({
        status: 'canceled',
        error: 'Canceled: the account was locked by an operator',
        refunded: true,
      });
    }
    const queued = await sql<{ n: string }>`
      SELECT count(*) AS n FROM send_queue q JOIN messages m ON m.id = q.message_id WHERE m.account_id = ${id}::uuid`.execute(
      db,
    );
    expect(Number(queued.rows[0]!.n)).toBe(0);
    const campaigns = await db
      .selectFrom('bulk_campaigns')
      .select('status')
      .where('account_id', '=', id)
      .execute();
    expect(campaigns.map((r) => r.status)).toEqual(['canceled', 'canceled']);
    // Every charge came back, once; the cached balance is still the ledger's sum.
    const after = await admin.get(path(ADMIN_API.account, id));
    expect(after.body.balanceMinor).toBe(start);
    expect(await server.ctx.services.ledger.verify(db, id)).toEqual({ cached: start, sum: start });
    const audit = await admin.get(`${ADMIN_API.audit}?accountId=${id}&kind=admin.account_locked`);
    expect(audit.body.items[0].message).toMatch(
      new RegExp(
        `ended, 2 campaigns canceled, ${messages.length} waiting messages canceled and refunded\\): Account taken over$`,
      ),
    );

    // A send already past its key or session check when the lock committed is refused by its debit.
    const send = server.ctx.services.messages.sendSingle({
      accountId: id,
      userId: reg.user.id,
      recipients: ['+12125550133'],
      text: 'Too late',
    });
    await expect(send).rejects.toMatchObject({ code: 'ACCOUNT_LOCKED', status: 423 });
    const v1 = toV1Error(await send.catch((e: unknown) => e));
    expect(v1).toMatchObject({ status: 403, body: { error: { code: 'account_locked' } } });
    await expect(
      campaignsOf(server.ctx).create({
        kind: 'bulk',
        groupIds: [],
        trackLinks: false,
        accountId: id,
        userId: reg.user.id,
        numbers: numbers(300, 2),
        text: 'Late',
      }),
    ).rejects.toMatchObject({ code: 'ACCOUNT_LOCKED' });
    expect((await admin.get(path(ADMIN_API.account, id))).body.balanceMinor).toBe(start);

    // Unlocked, the account sends again; what the lock canceled stays canceled.
    await admin.post(path(ADMIN_API.unlock, id), {});
    const login = await c.post('/api/auth/login', { username: reg.user.username, password: reg.password });
    c.useSession(login.body);
    expect((await c.post('/api/sms/single', { recipients: ['+12125550134'], text: 'Back' })).status).toBe(
      202,
    );
    const stillCanceled = await db
      .selectFrom('messages')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('account_id', '=', id)
      .where('status', '=', 'canceled')
      .executeTakeFirstOrThrow();
    expect(stillCanceled.n).toBe(messages.length);
  });

  it('assigns a rate plan, sets limits and changes roles, each audited', async () => {
    const id = userReg.user.accountId;
    const plan = await admin.post(ADMIN_API.ratePlans, { name: 'Wholesale', currency: 'USD' });
    expect(plan.status).toBe(201);
    const assigned = await admin.request('PUT', path(ADMIN_API.accountRatePlan, id), {
      ratePlanId: plan.body.id,
    });
    expect(assigned.body.ratePlanName).toBe('Wholesale');
    const limits = await admin.request('PUT', path(ADMIN_API.limits, id), {
      maxPerSecond: 5,
      dailyCap: 1000,
      allowedCountries: ['GB', 'US', 'GB'],
    });
    expect(limits.body.limits).toEqual({ maxPerSecond: 5, dailyCap: 1000, allowedCountries: ['GB', 'US'] });
    const badLimits = await admin.request('PUT', path(ADMIN_API.limits, id), {
      maxPerSecond: 0,
      dailyCap: null,
      allowedCountries: ['gb'],
    });
    expect(badLimits.status).toBe(400);
    const noCountry = await admin.request('PUT', path(ADMIN_API.limits, id), {
      maxPerSecond: 5,
      dailyCap: 1000,
      allowedCountries: ['GB', 'UK'],
    });
    expect(noCountry.status).toBe(400);
    expect(noCountry.body.errors.allowedCountries[0]).toMatch(
      /Not a country code: UK \(the United Kingdom is GB\)/,
    );
    expect((await admin.get(path(ADMIN_API.account, id))).body.limits.allowedCountries).toEqual(['GB', 'US']);
    const role = await admin.request('PUT', path(ADMIN_API.userRole, userReg.user.id), { role: 'admin' });
    expect(role.body.users[0].role).toBe('admin');
    await admin.request('PUT', path(ADMIN_API.userRole, userReg.user.id), { role: 'user' });
    const kinds = (await admin.get(`${ADMIN_API.audit}?kind=admin&accountId=${id}&limit=100`)).body.items.map(
      (e: { kind: string }) => e.kind,
    );
    expect(kinds).toEqual(
      expect.arrayContaining(['admin.rate_plan_assigned', 'admin.limits_changed', 'admin.role_changed']),
    );
    await admin.request('PUT', path(ADMIN_API.accountRatePlan, id), { ratePlanId: null });
  });
});

describe('audit log', () => {
  it('is append-only in the database and has no route that changes it', async () => {
    const routes = routeTable(server.app).filter((r) => r.url.startsWith('/api/admin/audit'));
    expect(routes.map((r) => r.method).filter((m) => m !== 'HEAD')).toEqual(['GET']);
    await expect(sql`UPDATE audit_log SET message = 'x'`.execute(server.ctx.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`DELETE FROM audit_log`.execute(server.ctx.db)).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE audit_log`.execute(server.ctx.db)).rejects.toThrow(/append-only/);
  });

  it('filters by kind, actor and time', async () => {
    const me = (await admin.get('/api/me')).body;
    const mine = await admin.get(`${ADMIN_API.audit}?actor=${me.username}&limit=5`);
    expect(mine.body.items.length).toBeGreaterThan(0);
    expect(mine.body.items.every((e: { actorUsername: string }) => e.actorUsername === me.username)).toBe(
      true,
    );
    const future = await admin.get(
      `${ADMIN_API.audit}?from=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`,
    );
    expect(future.body.items).toEqual([]);
    expect((await admin.get(`${ADMIN_API.audit}?from=yesterday`)).status).toBe(400);
  });
});

describe('rate plans', () => {
  it('names countries from libphonenumber metadata and parses money exactly', () => {
    expect(countryOfPrefix('+44')).toEqual({ country: 'GB', countryName: 'United Kingdom' });
    expect(countryOfPrefix('+1876').country).toBe('JM');
    expect(countryOfPrefix('+1').country).toBe('US');
    expect(countryOfPrefix('').country).toBeNull();
    expect(parseMajor('0.05', 'USD')).toBe(5);
    expect(parseMajor('1.1', 'USD')).toBe(110);
    expect(parseMajor('0.001', 'USD')).toBeNull();
    expect(parseMajor('12', 'JPY')).toBe(12);
  });

  it('creates, edits, copies, previews by longest prefix, and guards the default', async () => {
    const plan = (await admin.post(ADMIN_API.ratePlans, { name: 'Retail EU', currency: 'EUR' })).body;
    const saved = await admin.request('PUT', path(ADMIN_API.ratePlanPrices, plan.id), {
      prices: [
        { prefix: '', priceMinor: 9 },
        { prefix: '+44', priceMinor: 4 },
        { prefix: '+447', priceMinor: 3 },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.prices.find((p: { prefix: string }) => p.prefix === '+447')).toMatchObject({
      country: 'GB',
      countryName: 'United Kingdom',
    });
    const mobile = await admin.get(
      `${path(ADMIN_API.ratePlanPreview, plan.id)}?to=${encodeURIComponent('+447700900123')}`,
    );
    expect(mobile.body).toMatchObject({ prefix: '+447', priceMinor: 3, currency: 'EUR' });
    const fixed = await admin.get(
      `${path(ADMIN_API.ratePlanPreview, plan.id)}?to=${encodeURIComponent('+442071234567')}`,
    );
    expect(fixed.body.prefix).toBe('+44');
    const other = await admin.get(
      `${path(ADMIN_API.ratePlanPreview, plan.id)}?to=${encodeURIComponent('+4915112345678')}`,
    );
    expect(other.body).toMatchObject({ prefix: '', priceMinor: 9 });
    const dup = await admin.request('PUT', path(ADMIN_API.ratePlanPrices, plan.id), {
      prices: [
        { prefix: '+44', priceMinor: 1 },
        { prefix: '+44', priceMinor: 2 },
      ],
    });
    expect(dup.status).toBe(422);
    const copy = await admin.post(path(ADMIN_API.ratePlanCopy, plan.id), { name: 'Retail EU 2' });
    expect(copy.body.prices).toHaveLength(3);
    expect((await admin.post(path(ADMIN_API.ratePlanCopy, plan.id), { name: 'Retail EU 2' })).status).toBe(
      409,
    );

    const def = await admin.post(path(ADMIN_API.ratePlanDefault, copy.body.id));
    expect(def.body.isDefault).toBe(true);
    expect((await admin.delete(path(ADMIN_API.ratePlan, copy.body.id))).status).toBe(409);
    const list = (await admin.get(ADMIN_API.ratePlans)).body.items;
    expect(list.filter((p: { isDefault: boolean }) => p.isDefault)).toHaveLength(1);
    // Restore the seeded default.
    const standard = list.find((p: { name: string }) => p.name === 'Standard');
    await admin.post(path(ADMIN_API.ratePlanDefault, standard.id));
    expect((await admin.delete(path(ADMIN_API.ratePlan, copy.body.id))).status).toBe(204);
  });

  it('CSV import rejects bad rows, reports each with its line, and writes nothing then', async () => {
    const plan = (await admin.post(ADMIN_API.ratePlans, { name: 'Import test', currency: 'USD' })).body;
    const bad = [
      'prefix,country,price',
      '+44,GB,0.04',
      '44,GB,0.04', // no +
      '+49,DE,abc', // not a price
      '+33,FR,-1', // negative
      '+1,US,0.001', // too many decimals
      '+44,GB,0.05', // duplicate prefix
      '+61,AU,0.04',
    ].join('\n');
    const res = await admin.post(path(ADMIN_API.ratePlanImport, plan.id), { csv: bad, mode: 'replace' });
    expect(res.status).toBe(200);
    expect(res.body.imported).toBe(0);
    expect(res.body.rejected.map((r: { line: number }) => r.line)).toEqual([3, 4, 5, 6, 7]);
    expect(res.body.rejected[0].message).toMatch(/prefix/i);
    expect(res.body.rejected[4].message).toMatch(/line 2/);
    expect((await admin.get(path(ADMIN_API.ratePlan, plan.id))).body.prices).toEqual([]);

    const noHeader = await admin.post(path(ADMIN_API.ratePlanImport, plan.id), { csv: '+44,0.04\n' });
    expect(noHeader.status).toBe(422);

    const good = '\uFEFFprefix,country,price\r\n+44,GB,0.04\r\n+447,GB,0.035\r\n,,0.09\r\n';
    const ok = await admin.post(path(ADMIN_API.ratePlanImport, plan.id), {
      csv: good.replace('0.035', '0.03'),
      mode: 'replace',
    });
    expect(ok.body).toEqual({ imported: 3, rejected: [] });
    const exported = await admin.get(path(ADMIN_API.ratePlanExport, plan.id));
    expect(
      (exported.body as string)
        .replace(/^\uFEFF/, '')
        .split('\r\n')
        .slice(0, 4),
    ).toEqual(['prefix,country,price', ',,0.09', "'+44,GB,0.04", "'+447,GB,0.03"]);
  });
});

describe('sender ID approvals in bulk', () => {
  it('approves and rejects several at once, reports each, and audits the operator', async () => {
    const values = ['BULKONE', 'BULKTWO', 'BULKTRI'];
    // A fresh requester (the role test above ended the first user's sessions).
    const requester = server.client();
    await requester.register();
    for (const value of values) {
      const r = await requester.post('/api/sender-ids', {
        value,
        purpose: 'Alerts',
        sampleMessage: 'Your code is 1234',
      });
      expect(r.status).toBe(201);
    }
    const queue = (await admin.get('/api/admin/sender-ids?status=requested')).body.items.filter(
      (s: { value: string }) => values.includes(s.value),
    );
    expect(queue).toHaveLength(3);
    const ids = queue.map((s: { id: string }) => s.id);
    const noReason = await admin.post(ADMIN_API.senderIdsBulk, { ids, action: 'reject' });
    expect(noReason.status).toBe(400);
    const approved = await admin.post(ADMIN_API.senderIdsBulk, { ids: ids.slice(0, 2), action: 'approve' });
    expect(approved.body.results.every((r: { ok: boolean }) => r.ok)).toBe(true);
    const rejected = await admin.post(ADMIN_API.senderIdsBulk, {
      ids,
      action: 'reject',
      reason: 'Brand not verified',
    });
    expect(rejected.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, true]);
    const again = await admin.post(ADMIN_API.senderIdsBulk, {
      ids: [ids[0]],
      action: 'reject',
      reason: 'Brand not verified',
    });
    expect(again.body.results[0]).toMatchObject({
      ok: false,
      message: expect.stringMatching(/already rejected/),
    });
    const mine = (await requester.get('/api/sender-ids')).body.items.filter((s: { value: string }) =>
      values.includes(s.value),
    );
    expect(mine.map((s: { status: string }) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const audit = await admin.get(`${ADMIN_API.audit}?kind=admin.sender_id_rejected`);
    expect(audit.body.items.length).toBeGreaterThanOrEqual(3);
  });
});
