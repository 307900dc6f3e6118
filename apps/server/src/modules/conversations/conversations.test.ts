import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { joinAs } from '../members/test-fixtures';

/**
 * Conversations (issue 40 item 1) through the real HTTP server and PostgreSQL: an inbound message
 * to an account's number starts a thread; the thread holds both directions in time order (the
 * account's earlier messages to that handset from that number too); unread counts, read, search by
 * number, contact name and text, archive (a new message brings it back), assign to a member, and a
 * reply priced and debited like any send. Another account and a role without the permission cannot
 * read or change a thread.
 */
let server: TestServer;
let owner: ApiClient;
let accountId: string;
let other: ApiClient;
let number: string;
const handset = '+14155550142';

async function mo(text: string, from = handset, to = number) {
  return server.ctx.services.inbound.receive({
    connection: 'simulator',
    from: from.slice(1),
    to: to.slice(1),
    text,
    receivedAt: new Date(),
  });
}

beforeAll(async () => {
  server = await startServer({ TRIAL_BALANCE_MINOR: '1000' });
  const admin = server.client();
  const reg = await admin.register();
  await server.ctx.services.users.promote(reg.user.username);
  admin.useSession(
    (await admin.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
  );
  owner = server.client();
  accountId = (await owner.register()).user.accountId;
  other = server.client();
  await other.register();
  const n = await admin.post('/api/admin/numbers', {
    number: '+447700900321',
    kind: 'long',
    country: 'GB',
    connection: null,
    monthlyPriceMinor: 0,
  });
  number = n.body.number;
  expect((await admin.post(`/api/admin/numbers/${n.body.id}/assignment`, { accountId })).status).toBe(200);
}, 60_000);
afterAll(() => server.close());

const threads = async (c: ApiClient, query = '') => (await c.get(`/api/conversations${query}`)).body;

describe('conversations', () => {
  let id: string;

  it('an inbound message starts a thread with both directions in time order, unread until read', async () => {
    // The account wrote to the handset from its number before the handset answered.
    const first = await owner.post('/api/sms/single', {
      recipients: [handset],
      text: 'Your appointment is at 10:00 tomorrow. Reply YES to confirm.',
      senderId: number,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect((await threads(owner)).items).toEqual([]); // no thread from a send alone
    await new Promise((r) => setTimeout(r, 5));
    expect((await mo('YES')).accountId).toBe(accountId);
    await mo('See you then');

    const list = await threads(owner);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      remote: handset,
      local: number.slice(1),
      lastText: 'See you then',
      lastDirection: 'in',
      unread: 2,
      archived: false,
    });
    expect(list.unreadTotal).toBe(2);
    id = list.items[0].id;

    const thread = (await owner.get(`/api/conversations/${id}/messages`)).body;
    expect(thread.items.map((m: { direction: string; text: string }) => [m.direction, m.text])).toEqual([
      ['out', 'Your appointment is at 10:00 tomorrow. Reply YES to confirm.'],
      ['in', 'YES'],
      ['in', 'See you then'],
    ]);
    expect((await owner.post(`/api/conversations/${id}/read`)).body.unread).toBe(0);
    expect((await threads(owner)).unreadTotal).toBe(0);
  });

  it('a reply goes from the thread’s number, priced and debited like any send', async () => {
    const before = (await owner.get('/api/billing')).body.balanceMinor as number;
    const res = await owner.post(`/api/conversations/${id}/reply`, { text: 'Great, thank you!' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const sent = res.body.messages[0];
    expect(sent).toMatchObject({ recipient: handset, sender: number.slice(1) });
    expect((await owner.get('/api/billing')).body.balanceMinor).toBe(before - sent.priceMinor);
    const thread = (await owner.get(`/api/conversations/${id}/messages`)).body.items;
    expect(thread.at(-1)).toMatchObject({ direction: 'out', text: 'Great, thank you!' });
    expect((await threads(owner)).items[0]).toMatchObject({
      lastDirection: 'out',
      lastText: 'Great, thank you!',
    });

    const empty = await owner.post(`/api/conversations/${id}/reply`, { text: '' });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('Write a reply');
  });

  it('finds threads by number, contact name and text', async () => {
    const g = await owner.post('/api/groups', { name: 'Patients' });
    await owner.post(`/api/groups/${g.body.id}/contacts`, { phone: handset, name: 'Maria Lopez' });
    await mo('Another person', '+14155550999');
    expect((await threads(owner, '?q=Maria')).items.map((t: { remote: string }) => t.remote)).toEqual([
      handset,
    ]);
    expect((await threads(owner, '?q=0999')).items.map((t: { remote: string }) => t.remote)).toEqual([
      '+14155550999',
    ]);
    expect((await threads(owner, '?q=thank')).items.map((t: { remote: string }) => t.remote)).toEqual([
      handset,
    ]);
    expect((await threads(owner)).items.find((t: { remote: string }) => t.remote === handset).name).toBe(
      'Maria Lopez',
    );
  });

  it('archives a thread; a new message from the handset brings it back', async () => {
    expect(
      (await owner.request('PUT', `/api/conversations/${id}/archive`, { archived: true })).body.archived,
    ).toBe(true);
    expect((await threads(owner)).items.map((t: { id: string }) => t.id)).not.toContain(id);
    expect((await threads(owner, '?status=archived')).items.map((t: { id: string }) => t.id)).toEqual([id]);
    await mo('One more question');
    expect((await threads(owner)).items.map((t: { id: string }) => t.id)).toContain(id);
  });

  it('assigns a thread to a member only, and lists "mine"', async () => {
    const { client: sender, userId } = await joinAs(server, owner, 'sender');
    expect(
      (await owner.request('PUT', `/api/conversations/${id}/assignee`, { userId })).body.assigneeId,
    ).toBe(userId);
    expect((await threads(sender, '?mine=1')).items.map((t: { id: string }) => t.id)).toEqual([id]);
    const stranger = (await other.get('/api/me')).body.id as string;
    const refused = await owner.request('PUT', `/api/conversations/${id}/assignee`, { userId: stranger });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('Choose a member of this account');
  });

  it('another account gets 404 on every thread route and its own list is empty; a role without the permission gets 403', async () => {
    expect((await threads(other)).items).toEqual([]);
    for (const [method, path, body] of [
      ['GET', `/api/conversations/${id}`, undefined],
      ['GET', `/api/conversations/${id}/messages`, undefined],
      ['POST', `/api/conversations/${id}/read`, undefined],
      ['PUT', `/api/conversations/${id}/archive`, { archived: true }],
      ['PUT', `/api/conversations/${id}/assignee`, { userId: null }],
      ['POST', `/api/conversations/${id}/reply`, { text: 'not yours' }],
    ] as const) {
      expect((await other.request(method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await owner.get(`/api/conversations/${id}`)).body.archived).toBe(false);
    const { client: billing } = await joinAs(server, owner, 'billing');
    expect((await billing.get('/api/conversations')).status).toBe(403);
    const { client: analyst } = await joinAs(server, owner, 'analyst');
    expect((await analyst.get(`/api/conversations/${id}/messages`)).status).toBe(200);
    expect((await analyst.post(`/api/conversations/${id}/reply`, { text: 'no' })).status).toBe(403);
  });
});
