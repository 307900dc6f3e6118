import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const body = (value: string) => ({
  value,
  purpose: 'One-time passwords',
  sampleMessage: 'Your code is 1234',
});

const rows = (accountId: string) =>
  server.ctx.db
    .selectFrom('sender_ids')
    .select(['id', 'value', 'status', 'reason', 'is_default', 'updated_at'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();

/** An admin session: registers a user, promotes it and signs in again (the role is in the token). */
async function adminClient(s: TestServer): Promise<ApiClient> {
  const c = s.client();
  const reg = await c.register();
  await s.ctx.services.users.promote(reg.user.username);
  const login = await c.post('/api/auth/login', { username: reg.user.username, password: reg.password });
  c.useSession(login.body);
  return c;
}

function collectEvents() {
  const seen: string[] = [];
  const off = server.ctx.events.subscribe('sender.changed', (e) => seen.push(e.accountId));
  return { seen, off };
}

describe('sender ID validation', () => {
  const ok: [string, string, string][] = [
    ['MyBrand', 'MyBrand', 'alphanumeric'],
    ['  Shop 24  ', 'Shop 24', 'alphanumeric'],
    ['Café-Ü&Co', 'Café-Ü&Co', 'alphanumeric'],
    ['ABCDEFGHIJK', 'ABCDEFGHIJK', 'alphanumeric'],
    ['12345', '12345', 'numeric'],
    ['+1 415-555-0123', '14155550123', 'numeric'],
    ['123456789012345', '123456789012345', 'numeric'],
  ];
  it.each(ok)('accepts %j as %j (%s)', async (input, value, kind) => {
    const c = server.client();
    await c.register();
    const res = await c.post('/api/sender-ids', body(input));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ value, kind, status: 'requested', reason: null, isDefault: false });
  });

  const bad: [string, string][] = [
    ['', 'Enter a sender ID'],
    ['ABCDEFGHIJKL', 'An alphanumeric sender ID can have at most 11 characters'],
    ['1234567890123456', 'A numeric sender ID can have at most 15 digits'],
    ['12', 'A numeric sender ID needs at least 3 digits'],
    ['Euro€', 'A sender ID can use only letters, digits, spaces and common punctuation; remove "€"'],
    ['Shop😀', 'A sender ID can use only letters, digits, spaces and common punctuation; remove "😀"'],
    ['12.34', 'An alphanumeric sender ID must contain at least one letter'],
    // Too long and a bad character: the character is named (the web form shows the same message).
    [
      "Nadia's Shop! 🌻",
      'A sender ID can use only letters, digits, spaces and common punctuation; remove "🌻"',
    ],
  ];
  it.each(bad)('refuses %j: %s', async (input, message) => {
    const c = server.client();
    const { user } = await c.register();
    const res = await c.post('/api/sender-ids', body(input));
    expect(res.status).toBe(400);
    expect(res.body.errors.value).toEqual([message]);
    expect(await rows(user.accountId)).toEqual([]);
  });

  it('needs a purpose and a sample message', async () => {
    const c = server.client();
    await c.register();
    const res = await c.post('/api/sender-ids', { value: 'Brand', purpose: '', sampleMessage: ' ' });
    expect(res.body.errors).toEqual({
      purpose: ['Describe what you will send with this sender ID'],
      sampleMessage: ['Give a sample message'],
    });
  });

  it('refuses a duplicate in any case (and numeric in any format), changing nothing', async () => {
    const c = server.client();
    const { user } = await c.register();
    expect((await c.post('/api/sender-ids', body('Brand'))).status).toBe(201);
    expect((await c.post('/api/sender-ids', body('+44 7911 123456'))).status).toBe(201);
    const before = await rows(user.accountId);
    const dup = await c.post('/api/sender-ids', body('BRAND'));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      code: 'CONFLICT',
      message: 'You already have the sender ID "Brand" (requested)',
    });
    expect((await c.post('/api/sender-ids', body('447911123456'))).status).toBe(409);
    expect(await rows(user.accountId)).toEqual(before);
  });
});

describe('manual approval (default policy)', () => {
  it('goes requested → approved / rejected by an admin, with default sender and send resolution', async () => {
    const c = server.client();
    const { user } = await c.register();
    const senders = server.ctx.services.senderIds;
    const resolve = (value?: string) => senders.resolveSenderForSend({ accountId: user.accountId, value });
    const ev = collectEvents();

    const a = (await c.post('/api/sender-ids', body('Alpha'))).body;
    const b = (await c.post('/api/sender-ids', body('Beta'))).body;
    expect(a.status).toBe('requested');
    await expect(resolve('alpha')).rejects.toMatchObject({
      status: 422,
      code: 'SENDER_ID_NOT_APPROVED',
      message: 'Sender ID "Alpha" is awaiting approval and cannot be used yet.',
    });
    expect((await c.post(`/api/sender-ids/${a.id}/default`)).status).toBe(422);

    // Only admins decide.
    expect((await c.get('/api/admin/sender-ids')).status).toBe(403);
    expect((await c.post(`/api/admin/sender-ids/${a.id}/approve`)).status).toBe(403);
    expect((await rows(user.accountId)).map((r) => r.status)).toEqual(['requested', 'requested']);

    const admin = await adminClient(server);
    const queue = await admin.get('/api/admin/sender-ids?status=requested&limit=200');
    const mine = queue.body.items.filter((i: { accountId: string }) => i.accountId === user.accountId);
    expect(mine.map((i: { value: string }) => i.value)).toEqual(['Alpha', 'Beta']);
    expect(mine[0].accountName).toBe(user.name);

    const approved = await admin.post(`/api/admin/sender-ids/${a.id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      isDefault: true,
      decidedAt: expect.any(String),
    });
    expect((await admin.post(`/api/admin/sender-ids/${a.id}/approve`)).status).toBe(409);
    expect(await resolve('ALPHA')).toBe('Alpha');
    expect(await resolve()).toBe('Alpha');

    const approvedB = await admin.post(`/api/admin/sender-ids/${b.id}/approve`, { reason: 'Brand verified' });
    expect(approvedB.body).toMatchObject({ status: 'approved', reason: 'Brand verified', isDefault: false });
    const def = await c.post(`/api/sender-ids/${b.id}/default`);
    expect(def.body).toMatchObject({ value: 'Beta', isDefault: true });
    expect(await resolve()).toBe('Beta');

    const noReason = await admin.post(`/api/admin/sender-ids/${b.id}/reject`, { reason: '' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors.reason).toEqual(['Give a reason for the rejection']);
    const rejected = await admin.post(`/api/admin/sender-ids/${b.id}/reject`, {
      reason: 'Brand not verified',
    });
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      reason: 'Brand not verified',
      isDefault: false,
    });
    await expect(resolve('Beta')).rejects.toMatchObject({
      message: 'Sender ID "Beta" was rejected: Brand not verified.',
    });
    await expect(resolve('Nope')).rejects.toMatchObject({
      status: 422,
      message: 'Sender ID "Nope" is not registered on your account. Request it under Sender IDs first.',
    });
    // The account has no default any more: sends fall back to the platform sender.
    expect(await resolve()).toBe(server.ctx.config.defaultSender);
    expect(await resolve(server.ctx.config.defaultSender.toUpperCase())).toBe(
      server.ctx.config.defaultSender,
    );

    const list = await c.get('/api/sender-ids');
    expect(list.body.approval).toBe('manual');
    expect(
      list.body.items.map((s: { value: string; status: string; reason: string | null }) => [
        s.value,
        s.status,
        s.reason,
      ]),
    ).toEqual([
      ['Beta', 'rejected', 'Brand not verified'],
      ['Alpha', 'approved', null],
    ]);
    const events = await c.get('/api/me/events');
    expect(events.body.items.map((e: { kind: string }) => e.kind)).toEqual(
      expect.arrayContaining(['sender_id.requested', 'sender_id.approved', 'sender_id.rejected']),
    );

    expect((await c.delete(`/api/sender-ids/${a.id}`)).status).toBe(204);
    expect((await c.delete(`/api/sender-ids/${a.id}`)).status).toBe(404);
    ev.off();
    // requested ×2, approved ×2, default, rejected, deleted
    expect(ev.seen).toEqual(Array(7).fill(user.accountId));
  });

  it('pages the admin queue with an opaque keyset cursor', async () => {
    const c = server.client();
    await c.register();
    for (const v of ['Page1', 'Page2', 'Page3']) await c.post('/api/sender-ids', body(v));
    const admin = await adminClient(server);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `/api/admin/sender-ids?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await admin.get(q);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((i: { id: string }) => i.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    const all = await server.ctx.db
      .selectFrom('sender_ids')
      .select('id')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(seen).toEqual(all.map((r) => r.id));
    expect((await admin.get('/api/admin/sender-ids?cursor=bogus')).status).toBe(400);
  });

  it('validates hub payloads in the service (CreateSenderId)', async () => {
    const c = server.client();
    const { user } = await c.register();
    await expect(
      server.ctx.services.senderIds.createSenderId({
        accountId: user.accountId,
        value: 'TOO-LONG-SENDER',
        purpose: 'x',
        sampleMessage: '',
      }),
    ).rejects.toMatchObject({
      errors: { value: expect.any(Array), purpose: expect.any(Array), sampleMessage: expect.any(Array) },
    });
    expect(await rows(user.accountId)).toEqual([]);
  });
});

describe('auto approval (SENDER_ID_APPROVAL=auto)', () => {
  it('approves on request; the first becomes the default', async () => {
    const auto = await startServer({ SENDER_ID_APPROVAL: 'auto' });
    try {
      const c = auto.client();
      const { user } = await c.register();
      const first = await c.post('/api/sender-ids', body('Auto1'));
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        status: 'approved',
        reason: 'Approved automatically',
        isDefault: true,
      });
      const second = await c.post('/api/sender-ids', body('Auto2'));
      expect(second.body).toMatchObject({ status: 'approved', isDefault: false });
      // The list says how approval works here, so the page explains the right thing.
      expect((await c.get('/api/sender-ids')).body.approval).toBe('auto');
      const resolve = (input: { accountId: string; value?: string }) =>
        auto.ctx.services.senderIds.resolveSenderForSend(input);
      expect(await resolve({ accountId: user.accountId })).toBe('Auto1');
      expect(await resolve({ accountId: user.accountId, value: 'auto2' })).toBe('Auto2');
      // An admin can still revoke one.
      const admin = await adminClient(auto);
      const revoked = await admin.post(`/api/admin/sender-ids/${first.body.id}/reject`, {
        reason: 'Complaints',
      });
      expect(revoked.body).toMatchObject({ status: 'rejected', isDefault: false });
    } finally {
      await auto.close();
    }
  });

  it('a send right after a change sees it (the send-time lookup cache is cleared on change)', async () => {
    const auto = await startServer({ SENDER_ID_APPROVAL: 'auto' });
    try {
      const c = auto.client();
      await c.register();
      const send = (senderId?: string) =>
        c.post('/api/sms/single', { recipients: ['+14155550123'], text: 'Hello', senderId });
      const shop = await c.post('/api/sender-ids', body('CacheShop'));
      expect((await send()).body.messages[0].sender).toBe('CacheShop'); // cached now
      const news = await c.post('/api/sender-ids', body('CacheNews'));
      expect((await send('CacheNews')).status).toBe(202);
      expect((await c.post(`/api/sender-ids/${news.body.id}/default`, {})).status).toBe(200);
      expect((await send()).body.messages[0].sender).toBe('CacheNews');
      expect((await c.delete(`/api/sender-ids/${news.body.id}`)).status).toBe(204);
      const gone = await send('CacheNews');
      expect(gone.status).toBe(422);
      expect(gone.body.message).toMatch(/not registered/);
      const admin = await adminClient(auto);
      await admin.post(`/api/admin/sender-ids/${shop.body.id}/reject`, { reason: 'Complaints' });
      const rejected = await send('CacheShop');
      expect(rejected.body.message).toMatch(/was rejected: Complaints/);
    } finally {
      await auto.close();
    }
  });
});

describe('sender ID account isolation', () => {
  it('another account gets 404 on every endpoint and changes nothing', async () => {
    const a = server.client();
    const { user: ua } = await a.register();
    const created = (await a.post('/api/sender-ids', body('Owner'))).body;
    const admin = await adminClient(server);
    await admin.post(`/api/admin/sender-ids/${created.id}/approve`);
    const before = await rows(ua.accountId);

    const b = server.client();
    const { user: ub } = await b.register();
    expect((await b.get('/api/sender-ids')).body.items).toEqual([]);
    expect((await b.delete(`/api/sender-ids/${created.id}`)).status).toBe(404);
    expect((await b.post(`/api/sender-ids/${created.id}/default`)).status).toBe(404);
    expect((await b.post(`/api/admin/sender-ids/${created.id}/reject`, { reason: 'x' })).status).toBe(403);
    await expect(
      server.ctx.services.senderIds.resolveSenderForSend({ accountId: ub.accountId, value: 'Owner' }),
    ).rejects.toMatchObject({ status: 422 });
    // The same value is free for another account.
    expect((await b.post('/api/sender-ids', body('Owner'))).status).toBe(201);
    expect(await rows(ua.accountId)).toEqual(before);
  });
});
