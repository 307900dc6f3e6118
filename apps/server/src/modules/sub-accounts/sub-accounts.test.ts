import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { routeTable } from '../../platform/http/route-auth';
import { joinAs } from '../members/test-fixtures';
import { capturingMail, createChild, credit, operator } from './test-fixtures';

/**
 * Sub-accounts (issue 39 item 4) through the real server: creating a child (its first owner's
 * invite), the one-level rule, locking, and isolation: a child never sees its parent or siblings,
 * another account never reaches the parent's children.
 */
let server: TestServer;
let admin: ApiClient;
const PARENT_NAME = `Reseller ${randomUUID().slice(0, 8)}`;
const PARENT_OWNER = `Rita Reseller ${randomUUID().slice(0, 6)}`;

beforeAll(async () => {
  server = await startServer();
  admin = await operator(server);
});
afterAll(() => server?.close());

async function reseller() {
  const c = server.client();
  const reg = await c.register({ name: PARENT_OWNER });
  await server.ctx.db
    .updateTable('accounts')
    .set({ name: PARENT_NAME })
    .where('id', '=', reg.user.accountId)
    .execute();
  return { c, accountId: reg.user.accountId };
}

describe('creating sub-accounts', () => {
  it('creates a child with its first owner invited; the list shows it with balance and status', async () => {
    const p = await reseller();
    expect((await p.c.get('/api/sub-accounts')).body).toEqual({ items: [], nextCursor: null });
    const child = await createChild(server, p.c, 'Acme Clinic');
    expect(child.mailText).toContain('Acme Clinic');
    expect(child.mailText).not.toContain(PARENT_NAME);
    expect(child.mailText).not.toContain(PARENT_OWNER);
    const me = await child.owner.get('/api/me');
    expect(me.body.accountId ?? me.body.user?.accountId).toBe(child.id);
    const list = await p.c.get('/api/sub-accounts');
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({
      id: child.id,
      name: 'Acme Clinic',
      balanceMinor: 0,
      currency: 'USD',
      status: 'active',
      members: 1,
      pendingOwnerEmail: null,
    });
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select(['kind', 'message'])
      .where('account_id', '=', p.accountId)
      .where('kind', 'like', 'subaccount.%')
      .execute();
    expect(audit.map((a) => a.kind)).toEqual(['subaccount.created']);
  });

  it('an existing user invited as first owner gets the account added to their accounts', async () => {
    const p = await reseller();
    const existing = server.client();
    const reg = await existing.register();
    await capturingMail(server, async (mails) => {
      const res = await p.c.post('/api/sub-accounts', { name: 'Existing Co', ownerEmail: reg.user.email });
      expect(res.status).toBe(201);
      expect(res.body.pendingOwnerEmail).toBe(reg.user.email);
      const token = /\/invite\/([^\s]+)/.exec(mails[0]!.text)![1];
      const ok = await existing.post(`/api/invites/${token}/accept`, {});
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      const accounts = await existing.get('/api/me/accounts');
      expect(
        accounts.body.items.map((a: { accountId?: string; id?: string }) => a.accountId ?? a.id),
      ).toContain(res.body.id);
    });
  });

  it('validates the input with clear messages, and pages the list', async () => {
    const p = await reseller();
    const bad = await p.c.post('/api/sub-accounts', { name: ' ', ownerEmail: 'not-an-email' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/Name is required/);
    expect(JSON.stringify(bad.body)).toMatch(/valid email/);
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await p.c.post('/api/sub-accounts', {
            name: `Page ${i}`,
            ownerEmail: `p${i}-${randomUUID()}@example.com`,
          })
        ).status,
      ).toBe(201);
    }
    const first = await p.c.get('/api/sub-accounts?limit=2');
    expect(first.body.items.map((i: { name: string }) => i.name)).toEqual(['Page 2', 'Page 1']);
    const second = await p.c.get(`/api/sub-accounts?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((i: { name: string }) => i.name)).toEqual(['Page 0']);
    expect(second.body.nextCursor).toBeNull();
    expect((await p.c.get('/api/sub-accounts?cursor=forged!')).status).toBe(400);
  });

  it('is one level deep: a child cannot create children', async () => {
    const p = await reseller();
    const child = await createChild(server, p.c);
    const refused = await child.owner.post('/api/sub-accounts', {
      name: 'Grandchild',
      ownerEmail: 'g@example.com',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/one level deep/);
    // And the database refuses it too (the trigger), whatever the service.
    await expect(
      server.ctx.db.insertInto('accounts').values({ name: 'Deep', parent_account_id: child.id }).execute(),
    ).rejects.toThrow(/one level deep/);
    expect((await child.owner.get('/api/account/status')).body).toEqual({
      locked: false,
      reason: null,
      isChild: true,
    });
    expect((await p.c.get('/api/account/status')).body).toEqual({
      locked: false,
      reason: null,
      isChild: false,
    });
  });
});

describe('isolation', () => {
  it("a child's answers never name its parent or siblings; another account cannot reach the children", async () => {
    const p = await reseller();
    const sibling = await createChild(server, p.c, `Sibling ${randomUUID().slice(0, 8)}`);
    const child = await createChild(server, p.c);
    const secrets = [PARENT_NAME, PARENT_OWNER, sibling.name, p.accountId, sibling.id];
    const gets = routeTable(server.app).filter(
      (r) => r.access === 'user' && r.method === 'GET' && !r.url.includes(':') && !r.url.includes('*'),
    );
    expect(gets.length).toBeGreaterThan(20);
    const leaks: string[] = [];
    for (const r of gets) {
      const res = await child.owner.get(r.url);
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');
      for (const s of secrets) if (text.includes(s)) leaks.push(`${r.url} shows ${s}`);
    }
    expect(leaks).toEqual([]);
    // The child's own view of sub-accounts: none (it has no children, and never its siblings).
    expect((await child.owner.get('/api/sub-accounts')).body.items).toEqual([]);
    expect((await child.owner.get(`/api/sub-accounts/${sibling.id}`)).status).toBe(404);

    // Another account: 404 on every one of the parent's children, nothing moved or changed.
    const other = server.client();
    await other.register();
    const id = child.id;
    const attempts = [
      await other.get(`/api/sub-accounts/${id}`),
      await other.post(`/api/sub-accounts/${id}/transfers`, { direction: 'from_child', amountMinor: 1 }),
      await other.request('PUT', `/api/sub-accounts/${id}/pricing`, { markupBp: 0 }),
      await other.get(`/api/sub-accounts/${id}/pricing`),
      await other.get(`/api/sub-accounts/${id}/usage?from=2024-01-01&to=2024-01-31`),
      await other.request('PUT', `/api/sub-accounts/${id}/lock`, { reason: 'mine now' }),
      await other.delete(`/api/sub-accounts/${id}/lock`),
    ];
    expect(attempts.map((a) => a.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
    expect((await other.get('/api/sub-accounts')).body.items).toEqual([]);
    // A child cannot act on its parent as if it were its child.
    expect((await child.owner.get(`/api/sub-accounts/${p.accountId}`)).status).toBe(404);
    expect(
      (
        await child.owner.post(`/api/sub-accounts/${p.accountId}/transfers`, {
          direction: 'from_child',
          amountMinor: 1,
        })
      ).status,
    ).toBe(404);
  });

  it('roles without subaccounts:manage get 403; an admin may manage', async () => {
    const p = await reseller();
    const sender = (await joinAs(server, p.c, 'sender')).client;
    const billing = (await joinAs(server, p.c, 'billing')).client;
    for (const c of [sender, billing]) {
      const res = await c.get('/api/sub-accounts');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('PERMISSION_DENIED');
    }
    const adminMember = (await joinAs(server, p.c, 'admin')).client;
    expect((await adminMember.get('/api/sub-accounts')).status).toBe(200);
  });
});

describe('locking a child', () => {
  it("refuses the child's sends and API calls with SUBACCOUNT_LOCKED; its members still sign in and see why", async () => {
    const p = await reseller();
    const child = await createChild(server, p.c);
    await credit(admin, child.id, 1_000);
    const key = await child.owner.post('/api/api-keys', {
      name: 'Backend',
      scopes: ['sms:send', 'balance:read'],
    });
    expect(key.status).toBe(201);
    const v1 = (path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${key.body.secret}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    expect((await v1('/v1/balance')).status).toBe(200);

    const noReason = await p.c.request('PUT', `/api/sub-accounts/${child.id}/lock`, { reason: '' });
    expect(noReason.status).toBe(400);
    const locked = await p.c.request('PUT', `/api/sub-accounts/${child.id}/lock`, {
      reason: 'Unpaid invoice',
    });
    expect(locked.status).toBe(200);
    expect(locked.body).toMatchObject({ status: 'locked', lockedReason: 'Unpaid invoice' });
    expect((await p.c.request('PUT', `/api/sub-accounts/${child.id}/lock`, { reason: 'again' })).status).toBe(
      409,
    );

    const send = await child.owner.post('/api/sms/single', { recipients: ['+14155550123'], text: 'Hi' });
    expect(send.status).toBe(423);
    expect(send.body.code).toBe('SUBACCOUNT_LOCKED');
    expect(send.body.message).toMatch(/Unpaid invoice/);
    const api = await v1('/v1/messages', { to: '+14155550123', text: 'Hi' });
    expect(api.status).toBe(403);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('account_locked');
    expect((await v1('/v1/balance')).status).toBe(403);
    // The ledger refuses the debit too (a send that got past the request check).
    await expect(
      server.ctx.db.transaction().execute((trx) =>
        server.ctx.services.ledger.post(trx, {
          accountId: child.id,
          amountMinor: -1,
          kind: 'sms_debit',
          reference: randomUUID(),
          requireFunds: true,
        }),
      ),
    ).rejects.toMatchObject({ code: 'ACCOUNT_LOCKED' });

    // Members still sign in and read; the status says why.
    const login = await server.client().post('/api/auth/login', {
      username: (await child.owner.get('/api/me')).body.username,
      password: child.password,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect((await child.owner.get('/api/account/status')).body).toEqual({
      locked: true,
      reason: 'Unpaid invoice',
      isChild: true,
    });
    expect((await child.owner.get('/api/balance')).status).toBe(200);

    const unlocked = await p.c.delete(`/api/sub-accounts/${child.id}/lock`);
    expect(unlocked.body.status).toBe('active');
    expect((await p.c.delete(`/api/sub-accounts/${child.id}/lock`)).status).toBe(409);
    expect(
      (await child.owner.post('/api/sms/single', { recipients: ['+14155550123'], text: 'Hi' })).status,
    ).toBe(202);
    expect((await v1('/v1/balance')).status).toBe(200);
    const kinds = await server.ctx.db
      .selectFrom('audit_log')
      .select('kind')
      .where('account_id', '=', p.accountId)
      .where('kind', 'like', 'subaccount.%')
      .orderBy('id')
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual([
      'subaccount.created',
      'subaccount.locked',
      'subaccount.unlocked',
    ]);
  });
});

describe('operators see the tree', () => {
  it("a parent's detail lists its children; a child's names its parent; the list says both", async () => {
    const p = await reseller();
    const child = await createChild(server, p.c, `Tree child ${randomUUID().slice(0, 6)}`);
    const parent = await admin.get(`/api/admin/accounts/${p.accountId}`);
    expect(parent.status).toBe(200);
    expect(parent.body).toMatchObject({ parent: null, subAccountCount: 1 });
    expect(parent.body.subAccounts).toEqual([
      { id: child.id, name: child.name, balanceMinor: 0, currency: 'USD', lockedByParent: false },
    ]);
    const detail = await admin.get(`/api/admin/accounts/${child.id}`);
    expect(detail.body).toMatchObject({ parent: { id: p.accountId, name: PARENT_NAME }, subAccounts: [] });
    const list = await admin.get(`/api/admin/accounts?q=${encodeURIComponent(child.name)}`);
    expect(list.status).toBe(200);
  });
});
