import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { connectHub, until, type HubClient } from '../../realtime/test-client';
import { hashToken } from '../auth/tokens';
import { joinAs } from './test-fixtures';

/**
 * Issue 39 item 1: invites (single use, expiry, withdrawn, another email), the last owner, account
 * switching, and a role change or removal ending the member's sessions for the account at once on
 * both nodes, through the one mechanism (sessions.invalidate).
 */
let a: TestServer;
let b: TestServer;
let owner: ApiClient;
const sockets: HubClient[] = [];

beforeAll(async () => {
  a = await startServer();
  b = await startServer({}, { databaseUrl: a.databaseUrl });
  await Promise.all([a.ctx.services.sessions.ready(), b.ctx.services.sessions.ready()]);
  owner = a.client();
  await owner.register();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await b?.close();
  await a?.close();
});

const status = async (node: TestServer, token: string, path = '/api/me/accounts') =>
  (await fetch(node.url + path, { headers: { authorization: `Bearer ${token}` } })).status;

const newUser = (tag: string) => ({
  username: `new${tag}`,
  name: 'New person',
  phone: '+14155550100',
  password: `Correct horse ${tag} battery`,
});

describe('invites', () => {
  it('an invite link works once; a second use, a withdrawn or an expired one are refused with codes', async () => {
    const joined = await joinAs(a, owner, 'sender');
    const again = await a.client().post(`/api/invites/${joined.token}/accept`, newUser('again1'));
    expect([again.status, again.body.code]).toEqual([409, 'INVITE_USED']);
    expect((await a.client().get(`/api/invites/${joined.token}`)).body.code).toBe('INVITE_USED');

    // Withdrawn: revoke, then the preview and accept say so.
    const spy = vi.spyOn(a.ctx.mailer, 'send');
    const inv = await owner.post('/api/invites', { email: 'withdrawn@example.com', role: 'analyst' });
    const token = /\/invite\/(\S+)/.exec(String(spy.mock.calls.at(-1)![0].text))![1]!;
    spy.mockRestore();
    const preview = await a.client().get(`/api/invites/${token}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      role: 'analyst',
      emailMasked: 'w***@example.com',
      existingUser: false,
    });
    expect((await owner.get('/api/invites')).body.items.map((i: { id: string }) => i.id)).toContain(
      inv.body.id,
    );
    expect((await owner.request('DELETE', `/api/invites/${inv.body.id}`)).status).toBe(204);
    const revoked = await a.client().post(`/api/invites/${token}/accept`, newUser('revoked1'));
    expect([revoked.status, revoked.body.code]).toEqual([410, 'INVITE_REVOKED']);

    // Expired: seven days later.
    const spy2 = vi.spyOn(a.ctx.mailer, 'send');
    await owner.post('/api/invites', { email: 'late@example.com', role: 'analyst' });
    const late = /\/invite\/(\S+)/.exec(String(spy2.mock.calls.at(-1)![0].text))![1]!;
    spy2.mockRestore();
    await a.ctx.db
      .updateTable('account_invites')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', hashToken(decodeURIComponent(late)))
      .execute();
    const expired = await a.client().post(`/api/invites/${late}/accept`, newUser('late1'));
    expect([expired.status, expired.body.code]).toEqual([410, 'INVITE_EXPIRED']);
    const unknown = await a.client().get('/api/invites/not-a-token');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'INVITE_INVALID']);
  });

  it('an existing user accepts with their password (or signed in), never for another email', async () => {
    const existing = a.client();
    const reg = await existing.register();
    const spy = vi.spyOn(a.ctx.mailer, 'send');
    await owner.post('/api/invites', { email: reg.user.email, role: 'developer' });
    const token = /\/invite\/(\S+)/.exec(String(spy.mock.calls.at(-1)![0].text))![1]!;
    spy.mockRestore();
    expect((await a.client().get(`/api/invites/${token}`)).body.existingUser).toBe(true);
    // Someone else signed in cannot take it.
    const stranger = a.client();
    await stranger.register();
    const other = await stranger.post(`/api/invites/${token}/accept`, {});
    expect([other.status, other.body.code]).toEqual([403, 'INVITE_OTHER_EMAIL']);
    // A new-user form for an email that has an account: no.
    const asNew = await a.client().post(`/api/invites/${token}/accept`, newUser('exists1'));
    expect(asNew.status).toBe(409);
    const wrong = await a.client().post(`/api/invites/${token}/accept`, { password: 'not it at all' });
    expect(wrong.body.code).toBe('WRONG_PASSWORD');
    const ok = await a.client().post(`/api/invites/${token}/accept`, { password: reg.password });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    // Two accounts now; switching gives a token for the other one, with that role.
    const accounts = (await existing.get('/api/me/accounts')).body.items;
    expect(accounts).toHaveLength(2);
    const invited = accounts.find((x: { current: boolean }) => !x.current);
    expect(invited.role).toBe('developer');
    const switched = await existing.post('/api/auth/switch-account', { accountId: invited.accountId });
    expect(switched.status).toBe(200);
    existing.useSession(switched.body);
    const now = (await existing.get('/api/me/accounts')).body.items.find(
      (x: { current: boolean }) => x.current,
    );
    expect(now.accountId).toBe(invited.accountId);
    expect((await existing.get('/api/api-keys')).status).toBe(200); // developer
    expect((await existing.get('/api/members')).status).toBe(403); // not members:read
    // Refresh keeps the account and role.
    const refreshed = await existing.post('/api/auth/refreshToken', switched.body);
    existing.useSession(refreshed.body);
    expect(
      (await existing.get('/api/me/accounts')).body.items.find((x: { current: boolean }) => x.current)
        .accountId,
    ).toBe(invited.accountId);
    // Not a member: refused.
    const notMine = await stranger.post('/api/auth/switch-account', { accountId: invited.accountId });
    expect([notMine.status, notMine.body.code]).toEqual([403, 'NOT_A_MEMBER']);
  });
});

describe('owners', () => {
  it('the last owner cannot leave or be demoted; only owners grant the owner role', async () => {
    const me = (await owner.get('/api/members')).body.items.find((m: { you: boolean }) => m.you);
    const demote = await owner.request('PATCH', `/api/members/${me.userId}`, { role: 'admin' });
    expect([demote.status, demote.body.code]).toEqual([409, 'LAST_OWNER']);
    const leave = await owner.request('DELETE', `/api/members/${me.userId}`);
    expect([leave.status, leave.body.code]).toEqual([409, 'LAST_OWNER']);

    const admin = await joinAs(a, owner, 'admin');
    const grant = await admin.client.request('PATCH', `/api/members/${admin.userId}`, { role: 'owner' });
    expect([grant.status, grant.body.code]).toEqual([403, 'PERMISSION_DENIED']);
    const inviteOwner = await admin.client.post('/api/invites', { email: 'o@example.com', role: 'owner' });
    expect(inviteOwner.status).toBe(403);
    const touchOwner = await admin.client.request('PATCH', `/api/members/${me.userId}`, { role: 'sender' });
    expect(touchOwner.status).toBe(403);

    // A second owner: now the first may step down.
    expect((await owner.request('PATCH', `/api/members/${admin.userId}`, { role: 'owner' })).status).toBe(
      204,
    );
    expect((await owner.request('PATCH', `/api/members/${me.userId}`, { role: 'admin' })).status).toBe(204);
    // The audit names who acted.
    const audit = await a.ctx.db
      .selectFrom('audit_log')
      .select(['user_id', 'kind', 'resource_id'])
      .where('kind', '=', 'member.role_changed')
      .execute();
    expect(audit).toContainEqual({
      user_id: me.userId,
      kind: 'member.role_changed',
      resource_id: admin.userId,
    });
  });
});

describe('a role change or removal takes effect at once, on both nodes', () => {
  /** Runs `action` (by the account's owner, on node A) against a sender signed in on both nodes. */
  async function endsEverywhere(action: (boss: ApiClient, userId: string) => Promise<void>, reason: string) {
    const boss = a.client();
    await boss.register();
    const m = await joinAs(a, boss, 'sender');
    const token = m.client.accessToken!;
    const mine = (await m.client.get('/api/me/accounts')).body.items as {
      accountId: string;
      current: boolean;
    }[];
    const accountId = mine.find((x) => x.current)!.accountId;
    expect(await status(a, token)).toBe(200);
    expect(await status(b, token)).toBe(200);
    const [onA, onB] = await Promise.all([connectHub(a.url, token), connectHub(b.url, token)]);
    sockets.push(onA, onB);
    const spy = vi.spyOn(a.ctx.services.sessions, 'invalidate');
    try {
      await action(boss, m.userId);
      // The one mechanism, with the member's sessions for this account as its target.
      expect(spy.mock.calls.map((c) => [c[0], c[1]])).toContainEqual([
        { memberId: m.userId, accountId },
        reason,
      ]);
    } finally {
      spy.mockRestore();
    }
    expect(await status(a, token)).toBe(401);
    await until(async () => (await status(b, token)) === 401, 1_000, 'node B refuses');
    await until(() => !onA.connected && !onB.connected, 1_000, 'hub sockets disconnected');
  }

  it('a role change ends the member’s sessions for the account', async () => {
    await endsEverywhere(async (boss, userId) => {
      expect((await boss.request('PATCH', `/api/members/${userId}`, { role: 'analyst' })).status).toBe(204);
    }, 'role_changed');
  });

  it('a removal ends them too', async () => {
    await endsEverywhere(async (boss, userId) => {
      expect((await boss.request('DELETE', `/api/members/${userId}`)).status).toBe(204);
    }, 'member_removed');
  });
});
