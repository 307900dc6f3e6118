import { MESSAGE_STATUSES, type HubAck } from '@wren/contracts';
import { SignJWT } from 'jose';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, TEST_JWT_SECRET, type TestServer } from '../../test/harness';
import { insertCampaign, insertMessages } from '../modules/dashboard/test-fixtures';
import {
  call,
  connectErrorOf,
  connectHub,
  data,
  openHub,
  pushesSettled,
  recordPushes,
  until,
  type HubClient,
} from './test-client';

let server: TestServer;
const sockets: HubClient[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await server?.close();
});

/** A fresh user with a connected hub socket. */
async function signedIn() {
  const client = server.client();
  const login = await client.register();
  const socket = await connectHub(server.url, login.accessToken);
  sockets.push(socket);
  return { client, login, socket, accountId: login.user.accountId };
}

const zeros = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, 0]));

describe('campaign counts at scale', () => {
  it('counts a campaign of 100,000 messages once a second, however often it is asked', async () => {
    const a = await signedIn();
    const campaign = await insertCampaign(server.ctx.db, a.accountId);
    await sql`INSERT INTO messages (account_id, campaign_id, recipient, sender, body, encoding, segments,
                                    price_minor, currency, status, validity_until)
              SELECT ${a.accountId}::uuid, ${campaign.id}::uuid, '+1415' || lpad(g::text, 7, '0'), 'Wren',
                     'Hello', 'GSM-7', 1, 1, 'USD', 'sent', now() + interval '1 day'
                FROM generate_series(1, 100000) g`.execute(server.ctx.db);
    const sent = async () =>
      ((await data(a.socket, 'GetCampaignDetail', campaign.id)) as { counts: Record<string, number> }).counts;
    expect((await sent()).sent).toBe(100_000);
    await sql`UPDATE messages SET status = 'delivered'
               WHERE id IN (SELECT id FROM messages WHERE campaign_id = ${campaign.id}::uuid LIMIT 10)`.execute(
      server.ctx.db,
    );
    // Asked again at once (each open screen asks after each push): the count just taken is shared.
    expect((await sent()).sent).toBe(100_000);
    const status = await data(a.socket, 'GetCampaignDeliveryStatus', campaign.id);
    expect(status).toContainEqual({ status: 'delivered', count: 0 });
    // A second later it is counted again.
    await new Promise((r) => setTimeout(r, 1100));
    expect(await sent()).toMatchObject({ sent: 99_990, delivered: 10 });
  });
});

describe('hub authentication', () => {
  it('refuses a missing, malformed, forged or expired token with exactly "Unauthorized"', async () => {
    const { login } = await signedIn();
    expect(await connectErrorOf(server.url, {})).toBe('Unauthorized');
    expect(await connectErrorOf(server.url, { token: '' })).toBe('Unauthorized');
    expect(await connectErrorOf(server.url, { token: 'not-a-jwt' })).toBe('Unauthorized');
    expect(await connectErrorOf(server.url, { token: `${login.accessToken}x` })).toBe('Unauthorized');

    const key = new TextEncoder().encode(TEST_JWT_SECRET);
    const claims = JSON.parse(Buffer.from(login.accessToken.split('.')[1]!, 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ aid: claims.aid, sid: claims.sid, role: claims.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject(claims.sub)
      .setIssuer('wren')
      .setAudience('wren-web')
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 60)
      .sign(key);
    expect(await connectErrorOf(server.url, { token: expired })).toBe('Unauthorized');
    const forged = await new SignJWT({ aid: claims.aid, sid: claims.sid, role: claims.role })
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
      .setSubject(claims.sub)
      .setIssuer('wren')
      .setAudience('wren-web')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('another-secret-0123456789abcdef'));
    expect(await connectErrorOf(server.url, { token: forged })).toBe('Unauthorized');
  });

  it('refuses the token of a signed-out session', async () => {
    const client = server.client();
    const login = await client.register();
    expect((await client.post('/api/auth/logout')).status).toBeLessThan(300);
    expect(await connectErrorOf(server.url, { token: login.accessToken })).toBe('Unauthorized');
  });

  it('closes a socket at once when its session ends after it connected (sessions.invalidate)', async () => {
    const { client, socket } = await signedIn();
    expect((await call(socket, 'GetAccountBalance')).ok).toBe(true);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect((await client.post('/api/auth/logout')).status).toBeLessThan(300);
    expect(await closed).toBe('io server disconnect');
  });

  it('accepts the token as auth.token or as the access_token query parameter', async () => {
    const { login } = await signedIn();
    const viaQuery = openHub(server.url, { query: { access_token: login.accessToken } });
    sockets.push(viaQuery);
    await new Promise<void>((resolve, reject) => {
      viaQuery.once('connect', resolve);
      viaQuery.once('connect_error', reject);
    });
    expect((await data(viaQuery, 'GetAccountBalance')).balanceMinor).toBe(500);
  });
});

describe('hub requests', () => {
  it('replies with balance, delivery status and performance data for a new account', async () => {
    const { socket } = await signedIn();
    expect(await call(socket, 'GetAccountBalance')).toEqual({
      ok: true,
      data: { balanceMinor: 500, currency: 'USD' },
    });

    const status = await data(socket, 'GetDeliveryStatus');
    expect(status.timezone).toBe('UTC');
    expect(status.periods).toEqual({ today: zeros, week: zeros, month: zeros });
    expect(status.since.today).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);

    const perf = await data(socket, 'GetPerformanceData');
    expect(perf).toHaveLength(30);
    expect(perf.at(-1)).toEqual({
      date: new Date().toISOString().slice(0, 10),
      sent: 0,
      delivered: 0,
      failed: 0,
      deliveryRate: 0,
    });
    expect(perf.every((p: { sent: number }) => p.sent === 0)).toBe(true);
  });

  it("counts the account's messages by status and period", async () => {
    const { socket, accountId } = await signedIn();
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);
    await insertMessages(server.ctx.db, accountId, [
      { status: 'delivered' },
      { status: 'delivered' },
      { status: 'undelivered' },
      { status: 'queued' },
      { status: 'delivered', createdAt: daysAgo(3) },
      { status: 'expired', createdAt: daysAgo(20) },
      { status: 'delivered', createdAt: daysAgo(40) },
    ]);
    const { periods } = await data(socket, 'GetDeliveryStatus');
    expect(periods.today).toEqual({ ...zeros, delivered: 2, undelivered: 1, queued: 1 });
    expect(periods.week).toEqual({ ...zeros, delivered: 3, undelivered: 1, queued: 1 });
    expect(periods.month).toEqual({ ...zeros, delivered: 3, undelivered: 1, queued: 1, expired: 1 });

    const perf = await data(socket, 'GetPerformanceData');
    expect(perf.at(-1)).toMatchObject({ sent: 3, delivered: 2, failed: 1, deliveryRate: 0.6667 });
    expect(perf.reduce((n: number, p: { sent: number }) => n + p.sent, 0)).toBe(5);
  });

  it("lists the account's sender IDs, templates and groups", async () => {
    const { client, socket } = await signedIn();
    expect(await data(socket, 'GetSenderIdList')).toEqual([]);
    expect(await data(socket, 'GetSmsTemplates')).toEqual([]);
    expect(await data(socket, 'GetGroupList')).toEqual([]);

    expect((await client.post('/api/templates', { name: 'Welcome', text: 'Hi {{name}}' })).status).toBe(201);
    expect((await client.post('/api/groups', { name: 'VIP' })).status).toBe(201);
    const sender = await client.post('/api/sender-ids', {
      value: 'ACME',
      purpose: 'Order updates',
      sampleMessage: 'Your order shipped',
    });
    expect(sender.status).toBe(201);

    expect((await data(socket, 'GetSmsTemplates')).map((t: { name: string }) => t.name)).toEqual(['Welcome']);
    expect((await data(socket, 'GetGroupList')).map((g: { name: string }) => g.name)).toEqual(['VIP']);
    expect((await data(socket, 'GetSenderIdList')).map((s: { value: string }) => s.value)).toEqual(['ACME']);

    const other = await signedIn();
    expect(await data(other.socket, 'GetSmsTemplates')).toEqual([]);
    expect(await data(other.socket, 'GetGroupList')).toEqual([]);
    expect(await data(other.socket, 'GetSenderIdList')).toEqual([]);
  });

  it("replies with a campaign's status and detail to its account only", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const campaign = await insertCampaign(server.ctx.db, a.accountId);
    await insertMessages(server.ctx.db, a.accountId, [
      { status: 'delivered', campaignId: campaign.id, priceMinor: 2 },
      { status: 'delivered', campaignId: campaign.id, priceMinor: 2 },
      { status: 'sent', campaignId: campaign.id, priceMinor: 2 },
      { status: 'rejected', campaignId: campaign.id, priceMinor: 2 },
      { status: 'delivered' },
    ]);

    const status = await data(a.socket, 'GetCampaignDeliveryStatus', campaign.id);
    expect(status).toEqual(
      MESSAGE_STATUSES.map((s) => ({
        status: s,
        count: { delivered: 2, sent: 1, rejected: 1 }[s as string] ?? 0,
      })),
    );
    expect(await data(a.socket, 'GetCampaignDetail', campaign.id)).toEqual({
      id: campaign.id,
      kind: 'bulk',
      name: 'Spring sale',
      createdAt: new Date(campaign.created_at).toISOString(),
      total: 4,
      priceMinor: 8,
      currency: 'USD',
      counts: { ...zeros, delivered: 2, sent: 1, rejected: 1 },
    });

    expect(await call(b.socket, 'GetCampaignDeliveryStatus', campaign.id)).toEqual({ ok: true, data: [] });
    expect(await call(b.socket, 'GetCampaignDetail', campaign.id)).toEqual({ ok: true, data: {} });
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await data(a.socket, 'GetCampaignDeliveryStatus', unknown)).toEqual([]);
    expect(await data(a.socket, 'GetCampaignDetail', unknown)).toEqual({});
    expect(await data(a.socket, 'GetCampaignDetail', 'not-an-id')).toEqual({});
    expect(await data(a.socket, 'GetCampaignDetail', { $ne: null })).toEqual({});
    expect(await data(a.socket, 'GetCampaignDeliveryStatus')).toEqual([]);
  });

  it('pushes HubError when a request comes without an acknowledgement', async () => {
    const { socket } = await signedIn();
    const rec = recordPushes(socket);
    (socket.emit as (...a: unknown[]) => void)('GetAccountBalance');
    await until(() => rec.errors.length > 0, 5000, 'HubError');
    expect(rec.errors[0]).toMatchObject({ method: 'GetAccountBalance', code: 'VALIDATION' });
  });
});

describe('hub commands (fire-and-forget)', () => {
  it('SaveSmsTemplate saves, pushes SmsTemplatesUpdated, and reports a bad one as HubError', async () => {
    const { socket } = await signedIn();
    const rec = recordPushes(socket);
    socket.emit('SaveSmsTemplate', 'Reminder', 'See you at {{time}}');
    await until(() => rec.count('SmsTemplatesUpdated') === 1, 5000, 'SmsTemplatesUpdated');
    expect((await data(socket, 'GetSmsTemplates')).map((t: { name: string }) => t.name)).toEqual([
      'Reminder',
    ]);

    socket.emit('SaveSmsTemplate', '', '   ');
    await until(() => rec.errors.length === 1, 5000, 'HubError');
    expect(rec.errors[0]).toMatchObject({ method: 'SaveSmsTemplate', code: 'VALIDATION' });
    expect(Object.keys(rec.errors[0]!.errors ?? {}).sort()).toEqual(['name', 'text']);
    (socket.emit as (...a: unknown[]) => void)('SaveSmsTemplate', 42);
    await until(() => rec.errors.length === 2, 5000, 'second HubError');
    expect(rec.errors[1]).toMatchObject({ method: 'SaveSmsTemplate', code: 'VALIDATION' });
  });

  it('CreateSenderId requests one, pushes SenderIdUpdated, and reports errors as HubError', async () => {
    const { socket } = await signedIn();
    const rec = recordPushes(socket);
    const payload = {
      value: 'WRENCO',
      purpose: 'Delivery notices',
      sampleMessage: 'Your parcel is on its way',
    };
    socket.emit('CreateSenderId', payload);
    await until(() => rec.count('SenderIdUpdated') === 1, 5000, 'SenderIdUpdated');
    expect(await data(socket, 'GetSenderIdList')).toMatchObject([{ value: 'WRENCO', status: 'requested' }]);

    socket.emit('CreateSenderId', payload); // the same value again
    socket.emit('CreateSenderId', { value: 'TOO-LONG-SENDER-NAME', purpose: 'x' } as never);
    (socket.emit as (...a: unknown[]) => void)('CreateSenderId');
    await until(() => rec.errors.length === 3, 5000, 'three HubErrors');
    expect(rec.errors.map((e) => [e.method, e.code])).toEqual(
      expect.arrayContaining([
        ['CreateSenderId', 'CONFLICT'],
        ['CreateSenderId', 'VALIDATION'],
        ['CreateSenderId', 'VALIDATION'],
      ]),
    );
    expect(rec.errors.every((e) => typeof e.message === 'string' && e.message.length > 0)).toBe(true);
  });

  it('acknowledges a command too when the client asks for it', async () => {
    const { socket } = await signedIn();
    const ok: HubAck<{ name: string }> = await call(socket, 'SaveSmsTemplate', 'Acked', 'Text');
    expect(ok).toMatchObject({ ok: true, data: { name: 'Acked' } });
    expect(await call(socket, 'SaveSmsTemplate', 'Acked', '')).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
  });
});

describe('hub pushes', () => {
  it("maps domain events to pushes for the account's sockets only", async () => {
    const a = await signedIn();
    const a2 = await connectHub(server.url, a.login.accessToken); // a second tab of the same account
    sockets.push(a2);
    const b = await signedIn();
    const [ra, ra2, rb] = [recordPushes(a.socket), recordPushes(a2), recordPushes(b.socket)];
    const { events } = server.ctx;
    events.publish('balance.changed', { accountId: a.accountId });
    events.publish('sender.changed', { accountId: a.accountId });
    events.publish('group.changed', { accountId: a.accountId, groupId: 'x' });
    events.publish('template.changed', { accountId: a.accountId });
    events.publish('messages.changed', { accountId: a.accountId, campaignIds: ['c1', 'c2'] });
    const expected = [
      'BulkSmsUpdated',
      'BulkSmsUpdated',
      'GroupListUpdated',
      'SenderIdUpdated',
      'SmsTemplatesUpdated',
      'UserAccountUpdated',
      'UserSmsDeliveryUpdated',
    ];
    await until(
      () => ra.pushes.length === expected.length && ra2.pushes.length === expected.length,
      5000,
      'pushes',
    );
    expect(ra.pushes.map((p) => p.event).sort()).toEqual(expected);
    expect(
      ra.pushes
        .filter((p) => p.event === 'BulkSmsUpdated')
        .map((p) => p.args[0])
        .sort(),
    ).toEqual(['c1', 'c2']);
    await pushesSettled(server.app); // trailing edges would have gone out by now; there were none to send
    expect(ra.pushes).toHaveLength(expected.length);
    expect(rb.pushes).toEqual([]);
  });

  it("keeps pushes caused by one account's HTTP calls away from another account", async () => {
    const a = await signedIn();
    const b = await signedIn();
    const [ra, rb] = [recordPushes(a.socket), recordPushes(b.socket)];
    // B's own sign-up push (trial credit) may trail by one coalescing window: let it pass.
    await pushesSettled(server.app);
    rb.clear();
    expect((await a.client.post('/api/templates', { name: 'Only A', text: 'Hello' })).status).toBe(201);
    expect((await a.client.post('/api/groups', { name: 'Only A' })).status).toBe(201);
    await until(
      () => ra.count('SmsTemplatesUpdated') === 1 && ra.count('GroupListUpdated') === 1,
      5000,
      'A pushes',
    );
    await pushesSettled(server.app);
    expect(rb.pushes).toEqual([]);
  });

  it('coalesces a storm into at most one push per account and event per 500 ms', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const [ra, rb] = [recordPushes(a.socket), recordPushes(b.socket)];
    for (let i = 0; i < 1000; i += 1) {
      server.ctx.events.publish('messages.changed', { accountId: a.accountId, campaignIds: ['camp-1'] });
    }
    await pushesSettled(server.app); // the storm's windows have closed: every push it caused is out
    const n = ra.count('UserSmsDeliveryUpdated');
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThanOrEqual(3);
    // The leading push and the trailing one that carries the storm's end.
    expect(n).toBeGreaterThanOrEqual(2);
    expect(ra.count('BulkSmsUpdated')).toBeGreaterThanOrEqual(2);
    expect(ra.count('BulkSmsUpdated')).toBeLessThanOrEqual(3);
    expect(rb.pushes).toEqual([]);

    // Once the window has closed, the next event is pushed at once (leading edge).
    ra.clear();
    server.ctx.events.publish('balance.changed', { accountId: a.accountId });
    await until(() => ra.count('UserAccountUpdated') === 1, 300, 'an immediate push');
  });
});

describe('GET /api/dashboard/summary', () => {
  it('returns balance, delivery status and performance for the caller', async () => {
    const { client, accountId } = await signedIn();
    await insertMessages(server.ctx.db, accountId, [{ status: 'delivered' }, { status: 'failed' }]);
    const res = await client.get('/api/dashboard/summary');
    expect(res.status).toBe(200);
    expect(res.body.balance).toEqual({ balanceMinor: 500, currency: 'USD' });
    expect(res.body.deliveryStatus.periods.today).toEqual({ ...zeros, delivered: 1, failed: 1 });
    expect(res.body.performance).toHaveLength(30);
    expect(res.body.performance.at(-1)).toMatchObject({ sent: 1, delivered: 1, failed: 1, deliveryRate: 1 });

    const anonymous = server.client();
    expect((await anonymous.get('/api/dashboard/summary')).status).toBe(401);
  });
});

describe('frame limit', () => {
  it('closes only the socket that sends a frame over 64 KB; the user’s other socket keeps answering', async () => {
    const a = await signedIn();
    const other = await connectHub(server.url, a.login.accessToken);
    sockets.push(other);
    const closed = new Promise<string>((resolve) => a.socket.on('disconnect', (reason) => resolve(reason)));
    (a.socket as unknown as { emit(ev: string, ...args: unknown[]): void }).emit(
      'GetAccountBalance',
      'x'.repeat(70 * 1024),
    );
    expect(await closed).toBe('transport close');
    const ack = await call(other, 'GetAccountBalance');
    expect(ack.ok).toBe(true);
  });
});
