import { sql } from 'kysely';
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
    // The rejected default handed the default on to the other approved sender ID.
    expect(await resolve()).toBe('Alpha');
    expect(await resolve(server.ctx.config.defaultSender.toUpperCase())).toBe(
      server.ctx.config.defaultSender,
    );

    const list = await c.get('/api/sender-ids');
    expect(list.body.approval).toBe('manual');
    expect(list.body.platformSender).toBe('Wren'); // DEFAULT_SENDER's default
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
    // No approved sender ID is left: sends that name none go from the platform's sender.
    expect(await resolve()).toBe(server.ctx.config.defaultSender);
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
    const auto = await startServer({ SENDER_ID_APPROVAL: 'auto', DEFAULT_SENDER: 'AcmeCloud' });
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
      // And which shared sender this server has (DEFAULT_SENDER), which no one may request.
      expect((await c.get('/api/sender-ids')).body.platformSender).toBe('AcmeCloud');
      expect((await c.post('/api/sender-ids', body('acmecloud'))).status).toBe(409);
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

/** A client whose account has these sender IDs approved (requested and approved in this order). */
async function withApproved(...values: string[]) {
  const c = server.client();
  const { user } = await c.register();
  const admin = await adminClient(server);
  const ids: Record<string, string> = {};
  for (const v of values) {
    const created = await c.post('/api/sender-ids', body(v));
    expect(created.status).toBe(201);
    expect((await admin.post(`/api/admin/sender-ids/${created.body.id}/approve`)).status).toBe(200);
    ids[v] = created.body.id;
  }
  return { c, user, admin, ids };
}

const defaults = async (accountId: string) =>
  (await rows(accountId)).filter((r) => r.is_default).map((r) => r.value);

const otpService = (c: ApiClient, name: string, senderId: string) =>
  c.post('/api/otp-services', { name, senderId, template: 'Your {{service}} code is {{code}}.' });

describe('deleting the default sender ID', () => {
  it('hands the default to the oldest approved sender ID, then to the platform sender', async () => {
    const c = server.client();
    const { user } = await c.register();
    const admin = await adminClient(server);
    // Oldest of all, but only requested: never the default.
    const pending = (await c.post('/api/sender-ids', body('Pending'))).body;
    const ids: Record<string, string> = {};
    for (const v of ['Older', 'Middle', 'Newest']) {
      ids[v] = (await c.post('/api/sender-ids', body(v))).body.id;
    }
    // Approved newest first: the rule goes by request time, not by approval order.
    for (const v of ['Newest', 'Middle', 'Older']) {
      await admin.post(`/api/admin/sender-ids/${ids[v]}/approve`);
    }
    expect(await defaults(user.accountId)).toEqual(['Newest']);
    const resolve = () => server.ctx.services.senderIds.resolveSenderForSend({ accountId: user.accountId });
    expect(await resolve()).toBe('Newest');

    expect((await c.delete(`/api/sender-ids/${ids.Newest}`)).status).toBe(204);
    expect(await defaults(user.accountId)).toEqual(['Older']);
    expect(await resolve()).toBe('Older');
    const list = (await c.get('/api/sender-ids')).body.items as { value: string; isDefault: boolean }[];
    expect(list.filter((s) => s.isDefault).map((s) => s.value)).toEqual(['Older']);

    // Deleting one that is not the default leaves the default alone.
    expect((await c.delete(`/api/sender-ids/${ids.Middle}`)).status).toBe(204);
    expect(await defaults(user.accountId)).toEqual(['Older']);

    expect((await c.delete(`/api/sender-ids/${ids.Older}`)).status).toBe(204);
    // Only the pending one is left: no default, sends go from the platform's sender.
    expect(await defaults(user.accountId)).toEqual([]);
    expect((await rows(user.accountId)).map((r) => r.id)).toEqual([pending.id]);
    expect(await resolve()).toBe(server.ctx.config.defaultSender);
    const send = await c.post('/api/sms/single', { recipients: ['+14155550123'], text: 'Hello' });
    expect(send.status).toBe(202);
    expect(send.body.messages[0].sender).toBe(server.ctx.config.defaultSender);

    const events = (await c.get('/api/me/events')).body.items as { kind: string; message: string }[];
    expect(events.filter((e) => e.kind === 'sender_id.deleted').map((e) => e.message)).toEqual([
      `Sender ID "Older" was deleted; messages that name no sender now go from the platform's sender "${server.ctx.config.defaultSender}"`,
      'Sender ID "Middle" was deleted',
      'Sender ID "Newest" was deleted; "Older" is now the default sender ID',
    ]);
  });

  it('a rejected default hands the default on too', async () => {
    const { user, admin, ids } = await withApproved('RejFirst', 'RejSecond');
    expect(await defaults(user.accountId)).toEqual(['RejFirst']);
    await admin.post(`/api/admin/sender-ids/${ids.RejFirst}/reject`, { reason: 'Not your brand' });
    expect(await defaults(user.accountId)).toEqual(['RejSecond']);
  });

  it('promotes under the account lock: parallel deletes leave exactly one default', async () => {
    const { c, user, ids } = await withApproved('Par1', 'Par2', 'Par3', 'Par4');
    const results = await Promise.all(['Par1', 'Par2'].map((v) => c.delete(`/api/sender-ids/${ids[v]}`)));
    expect(results.map((r) => r.status)).toEqual([204, 204]);
    expect(await defaults(user.accountId)).toEqual(['Par3']);
  });
});

describe('a sender ID used by an OTP service', () => {
  it('cannot be deleted: 409 names the services (any case, numbers in any format)', async () => {
    const { c, user, ids } = await withApproved('OtpBrand', '+44 7911 123456', 'Spare');
    const login = await otpService(c, 'Login codes', 'otpbrand');
    expect(login.status, JSON.stringify(login.body)).toBe(201);
    expect((await otpService(c, 'Signup', 'OTPBRAND')).status).toBe(201);
    const phone = await otpService(c, 'Phone check', '+447911123456');
    expect(phone.status, JSON.stringify(phone.body)).toBe(201);
    expect((await otpService(c, 'Default sender', '')).status).toBe(201);
    const before = await rows(user.accountId);

    const refused = await c.delete(`/api/sender-ids/${ids.OtpBrand}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 'CONFLICT',
      message:
        'Sender ID "OtpBrand" is used by the OTP services "Login codes" and "Signup". Choose another sender for them first, then delete this sender ID.',
    });
    // The web app shows the Application-Error header's text.
    expect(decodeURIComponent(refused.headers.get('application-error') ?? '')).toBe(refused.body.message);
    const number = await c.delete(`/api/sender-ids/${ids['+44 7911 123456']}`);
    expect(number.status).toBe(409);
    expect(number.body.message).toBe(
      'Sender ID "447911123456" is used by the OTP service "Phone check". Choose another sender for it first, then delete this sender ID.',
    );
    expect(await rows(user.accountId)).toEqual(before);

    // Not used by any service (one naming no sender uses the default, whichever it is): deletable.
    expect((await c.delete(`/api/sender-ids/${ids.Spare}`)).status).toBe(204);
    // Once the services name another sender, it can go.
    await c.patch(`/api/otp-services/${login.body.id}`, { senderId: '' });
    const signup = (await c.get('/api/otp-services')).body.items.find(
      (s: { name: string }) => s.name === 'Signup',
    );
    await c.patch(`/api/otp-services/${signup.id}`, { senderId: server.ctx.config.defaultSender });
    expect((await c.delete(`/api/sender-ids/${ids.OtpBrand}`)).status).toBe(204);
  });

  it('a delete waits for an OTP service being saved with it, then sees it (409)', async () => {
    const { c, user, ids } = await withApproved('RaceSave');
    const trx = await server.ctx.db.startTransaction().execute();
    let settled = false;
    let pending: Promise<{ status: number; body: { message: string } }> | undefined;
    try {
      // What an OTP service's save does first: check the sender and hold it.
      await server.ctx.services.senderIds.lockSenderForUse(trx, {
        accountId: user.accountId,
        value: 'racesave',
      });
      pending = c.delete(`/api/sender-ids/${ids.RaceSave}`);
      void pending.then(() => (settled = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      // The rest of the save (the table's defaults fill the settings it leaves out).
      await sql`INSERT INTO otp_services (account_id, name, sender_id, template)
                VALUES (${user.accountId}, 'Saved meanwhile', 'RaceSave', 'Code {{code}}')`.execute(trx);
      await trx.commit().execute();
    } catch (err) {
      await trx.rollback().execute();
      throw err;
    }
    const res = await pending!;
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/used by the OTP service "Saved meanwhile"/);
    expect((await rows(user.accountId)).map((r) => r.value)).toEqual(['RaceSave']);
  });

  it('an OTP service saved while its sender ID is being deleted waits, then is refused (400)', async () => {
    const { c, user, ids } = await withApproved('RaceDel');
    const { body: kept } = await otpService(c, 'Kept', '');
    const trx = await server.ctx.db.startTransaction().execute();
    let created: Promise<{ status: number; body: any }>;
    let updated: Promise<{ status: number; body: any }>;
    try {
      // A delete in flight: the row is gone once it commits.
      await trx.deleteFrom('sender_ids').where('id', '=', ids.RaceDel!).execute();
      created = otpService(c, 'Too late', 'RaceDel');
      updated = c.patch(`/api/otp-services/${kept.id}`, { senderId: 'RaceDel' });
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      await trx.commit().execute();
    }
    const message =
      'Sender ID "RaceDel" is not registered on your account. Request it under Sender IDs first.';
    for (const res of [await created, await updated]) {
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ senderId: [message] });
    }
    const services = (await c.get('/api/otp-services')).body.items;
    expect(services.map((s: { name: string; senderId: string }) => [s.name, s.senderId])).toEqual([
      ['Kept', ''],
    ]);
    expect(await rows(user.accountId)).toEqual([]);
  });
});

describe("the platform's shared sender ID", () => {
  it('cannot be requested (409, nothing stored): every account may already send from it', async () => {
    const shared = server.ctx.config.defaultSender;
    const c = server.client();
    const { user } = await c.register();
    const message = `"${shared}" is the platform's shared sender ID: every account can already send from it, without a request. Request a name of your own.`;
    for (const value of [shared, shared.toUpperCase(), ` ${shared.toLowerCase()} `]) {
      const res = await c.post('/api/sender-ids', body(value));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: 'CONFLICT', message });
    }
    // The hub's CreateSenderId goes through the same check.
    await expect(
      server.ctx.services.senderIds.createSenderId({ accountId: user.accountId, ...body(shared) }),
    ).rejects.toMatchObject({ status: 409, message });
    expect(await rows(user.accountId)).toEqual([]);
    // It is sent from at once, named or not, and an OTP service can name it.
    const send = await c.post('/api/sms/single', {
      recipients: ['+14155550123'],
      text: 'Hello',
      senderId: shared,
    });
    expect(send.status).toBe(202);
    expect(send.body.messages[0].sender).toBe(shared);
    expect((await otpService(c, 'Shared', shared.toLowerCase())).status).toBe(201);
  });

  it('a request of it made before the refusal does not hold back sends naming it', async () => {
    const shared = server.ctx.config.defaultSender;
    const c = server.client();
    const { user } = await c.register();
    await server.ctx.db
      .insertInto('sender_ids')
      .values({
        account_id: user.accountId,
        value: shared,
        kind: 'alphanumeric',
        purpose: 'Old request',
        sample_message: 'Hello',
        status: 'requested',
        updated_at: new Date(),
      })
      .execute();
    const send = await c.post('/api/sms/single', {
      recipients: ['+14155550123'],
      text: 'Hello',
      senderId: shared,
    });
    expect(send.status, JSON.stringify(send.body)).toBe(202);
    expect(send.body.messages[0].sender).toBe(shared);
    // An OTP service naming it uses the shared sender, so the old request can still be deleted.
    expect((await otpService(c, 'Shared', shared)).status).toBe(201);
    const [old] = await rows(user.accountId);
    expect((await c.delete(`/api/sender-ids/${old!.id}`)).status).toBe(204);
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

  it('another account cannot delete the default (no promotion), and its OTP services do not block a delete', async () => {
    const a = await withApproved('IsoFirst', 'IsoSecond');
    const b = await withApproved('IsoFirst', 'IsoOnlyB');
    const before = await rows(a.user.accountId);
    expect((await b.c.delete(`/api/sender-ids/${a.ids.IsoFirst}`)).status).toBe(404);
    expect(await rows(a.user.accountId)).toEqual(before);
    // B's OTP service names B's own "IsoFirst"; A's is used by none of A's services.
    expect((await otpService(b.c, 'B login', 'IsoFirst')).status).toBe(201);
    // A's service cannot name B's sender ID, nor hold it.
    const foreign = await otpService(a.c, 'A login', 'IsoOnlyB');
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors.senderId[0]).toMatch(/not registered on your account/);
    expect((await a.c.delete(`/api/sender-ids/${a.ids.IsoFirst}`)).status).toBe(204);
    expect(await defaults(a.user.accountId)).toEqual(['IsoSecond']);
    expect(await defaults(b.user.accountId)).toEqual(['IsoFirst']);
    // B's sender ID is still held by B's service.
    expect((await b.c.delete(`/api/sender-ids/${b.ids.IsoFirst}`)).status).toBe(409);
  });
});
