import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { joinAs } from '../members/test-fixtures';

/**
 * Numbers (issue 40 item 0) through the real HTTP server and PostgreSQL: the operator's inventory
 * (validation field by field, search, pages), assignment with its first month charged once through
 * the ledger (refused whole on a short balance), the number as the account's sender, inbound to it
 * attributed to its account, monthly renewal (charged once a period, past due, released after the
 * grace), release, and what another account and a role without sender-ids:read cannot see or do.
 */
let server: TestServer;
let admin: ApiClient;
let owner: ApiClient;
let ownerAccount: string;
let other: ApiClient;
let otherAccount: string;

beforeAll(async () => {
  server = await startServer({ TRIAL_BALANCE_MINOR: '1000' });
  admin = server.client();
  const reg = await admin.register();
  await server.ctx.services.users.promote(reg.user.username);
  admin.useSession(
    (await admin.post('/api/auth/login', { username: reg.user.username, password: reg.password })).body,
  );
  owner = server.client();
  ownerAccount = (await owner.register()).user.accountId;
  other = server.client();
  otherAccount = (await other.register()).user.accountId;
}, 60_000);
afterAll(() => server.close());

let seq = 0;
const freshNumber = () => `+4477009${String(10_000 + seq++).slice(-5)}`;

async function addNumber(more: Record<string, unknown> = {}) {
  const res = await admin.post('/api/admin/numbers', {
    number: freshNumber(),
    kind: 'long',
    country: 'GB',
    connection: null,
    monthlyPriceMinor: 300,
    ...more,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; number: string };
}

const balance = async (c: ApiClient) => (await c.get('/api/billing')).body.balanceMinor as number;
const rentals = (accountId: string) =>
  server.ctx.db
    .selectFrom('ledger_entries')
    .select(['amount_minor', 'reference'])
    .where('account_id', '=', accountId)
    .where('kind', '=', 'number_rental')
    .orderBy('id')
    .execute();

describe('the inventory', () => {
  it('refuses bad input field by field, and a number already there', async () => {
    const bad = await admin.post('/api/admin/numbers', {
      number: 'call us',
      kind: 'long',
      country: 'Britain',
      connection: 'no such one!',
      monthlyPriceMinor: -1,
    });
    expect(bad.status).toBe(400);
    const fields = JSON.stringify(bad.body);
    expect(fields).toContain('Write a long code in international form');
    expect(fields).toContain('Choose the country');
    expect(fields).toContain('The monthly price cannot be negative');

    const short = await admin.post('/api/admin/numbers', {
      number: '+447700900001',
      kind: 'short',
      country: 'GB',
      connection: null,
      monthlyPriceMinor: 0,
    });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body)).toContain('A long code starts with +; a short code has digits only');

    const unknownConnection = await admin.post('/api/admin/numbers', {
      number: freshNumber(),
      kind: 'long',
      country: 'GB',
      connection: 'carrier-x',
      monthlyPriceMinor: 0,
    });
    expect(unknownConnection.status).toBe(400);
    expect(JSON.stringify(unknownConnection.body)).toContain('There is no connection named carrier-x');

    const n = await addNumber({ number: '+44 (7700) 900-555' });
    expect(n.number).toBe('+447700900555');
    const again = await admin.post('/api/admin/numbers', {
      number: '+447700900555',
      kind: 'long',
      country: 'GB',
      connection: null,
      monthlyPriceMinor: 1,
    });
    expect(again.status).toBe(400);
    expect(JSON.stringify(again.body)).toContain('+447700900555 is already in the inventory');
  });

  it('lists by status and text, a page at a time, and a short code is a number too', async () => {
    await addNumber({ number: '72345', kind: 'short', country: 'US' });
    const found = await admin.get('/api/admin/numbers?q=72345');
    expect(found.body.items.map((n: { number: string }) => n.number)).toEqual(['72345']);
    for (let i = 0; i < 51; i++) await addNumber();
    const first = await admin.get('/api/admin/numbers?status=free');
    expect(first.body.items).toHaveLength(50);
    expect(first.body.nextCursor).toBeTruthy();
    const second = await admin.get(
      `/api/admin/numbers?status=free&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    const numbers = [...first.body.items, ...second.body.items].map((n: { number: string }) => n.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers).toEqual([...numbers].sort());
  });

  it('is the operator’s only: a customer gets 403 on every inventory route', async () => {
    const n = await addNumber();
    for (const [method, path, body] of [
      ['GET', '/api/admin/numbers', undefined],
      [
        'POST',
        '/api/admin/numbers',
        { number: freshNumber(), kind: 'long', country: 'GB', monthlyPriceMinor: 0 },
      ],
      ['PUT', `/api/admin/numbers/${n.id}`, { monthlyPriceMinor: 1 }],
      ['DELETE', `/api/admin/numbers/${n.id}`, undefined],
      ['POST', `/api/admin/numbers/${n.id}/assignment`, { accountId: ownerAccount }],
    ] as const) {
      expect((await owner.request(method, path, body)).status, `${method} ${path}`).toBe(403);
    }
    const row = await server.ctx.db
      .selectFrom('phone_numbers')
      .selectAll()
      .where('id', '=', n.id)
      .executeTakeFirstOrThrow();
    expect(row.account_id).toBeNull();
    expect(Number(row.monthly_price_minor)).toBe(300);
  });
});

describe('assigning a number', () => {
  it('charges the first month once, makes it a sender of the account, and only that account sees it', async () => {
    const n = await addNumber({ monthlyPriceMinor: 250 });
    const before = await balance(owner);
    const res = await admin.post(`/api/admin/numbers/${n.id}/assignment`, { accountId: ownerAccount });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ accountId: ownerAccount, pastDueSince: null });
    expect(new Date(res.body.paidUntil).getTime() - new Date(res.body.assignedAt).getTime()).toBeGreaterThan(
      27 * 86_400_000,
    );
    // Assigning it again to the same account charges nothing more.
    expect(
      (await admin.post(`/api/admin/numbers/${n.id}/assignment`, { accountId: ownerAccount })).status,
    ).toBe(200);
    expect(await balance(owner)).toBe(before - 250);
    expect(
      (await rentals(ownerAccount)).filter((r) => r.reference?.startsWith(`number:${n.id}:`)),
    ).toHaveLength(1);

    const mine = await owner.get('/api/numbers');
    expect(mine.body.items.map((x: { number: string }) => x.number)).toContain(n.number);
    expect((await other.get('/api/numbers')).body.items).toEqual([]);
    const senders = await owner.get('/api/sender-ids');
    expect(JSON.stringify(senders.body)).toContain(`"${n.number.slice(1)}"`);

    // It sends from it; another account cannot.
    const sent = await owner.post('/api/sms/single', {
      recipients: ['+14155550123'],
      text: 'From our number',
      senderId: n.number,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    const stolen = await other.post('/api/sms/single', {
      recipients: ['+14155550123'],
      text: 'Not ours',
      senderId: n.number,
    });
    expect(stolen.status).toBe(422);
    expect(JSON.stringify(stolen.body)).toContain('is not registered on your account');

    // Taken: not given to another account while assigned.
    const clash = await admin.post(`/api/admin/numbers/${n.id}/assignment`, { accountId: otherAccount });
    expect(clash.status).toBe(409);
    const removed = await admin.request('DELETE', `/api/admin/numbers/${n.id}`);
    expect(removed.status).toBe(409);
  });

  it('is refused whole when the balance does not cover the first month', async () => {
    const n = await addNumber({ monthlyPriceMinor: 1_000_000 });
    const before = await balance(other);
    const res = await admin.post(`/api/admin/numbers/${n.id}/assignment`, { accountId: otherAccount });
    expect(res.status).toBe(402);
    expect(JSON.stringify(res.body)).toContain('Insufficient balance');
    expect(await balance(other)).toBe(before);
    const row = await server.ctx.db
      .selectFrom('phone_numbers')
      .select('account_id')
      .where('id', '=', n.id)
      .executeTakeFirstOrThrow();
    expect(row.account_id).toBeNull();
    expect(JSON.stringify((await other.get('/api/sender-ids')).body)).not.toContain(n.number.slice(1));
  });

  it('an inbound message to it goes to its account, though another account sent to that handset last', async () => {
    const n = await addNumber({ monthlyPriceMinor: 0 });
    await admin.post(`/api/admin/numbers/${n.id}/assignment`, { accountId: ownerAccount });
    const handset = '+14155550177';
    expect(
      (await other.post('/api/sms/single', { recipients: [handset], text: 'Hello from other' })).status,
    ).toBe(202);
    const mo = await server.ctx.services.inbound.receive({
      connection: 'simulator',
      from: handset.slice(1),
      to: n.number.slice(1), // carriers often drop the +
      text: 'Yes, see you at 10',
      receivedAt: new Date(),
    });
    expect(mo.accountId).toBe(ownerAccount);
  });

  it('a role without sender-ids:read cannot list the account’s numbers', async () => {
    const { client: billing } = await joinAs(server, owner, 'billing');
    expect((await billing.get('/api/numbers')).status).toBe(403);
    const { client: analyst } = await joinAs(server, owner, 'analyst');
    expect((await analyst.get('/api/numbers')).status).toBe(200);
  });
});

describe('renewal and release', () => {
  const due = (id: string, at = "now() - interval '1 minute'") =>
    sql`UPDATE phone_numbers SET paid_until = ${sql.raw(at)} WHERE id = ${id}::uuid`.execute(server.ctx.db);

  it('charges each month once however often it runs, past due when short, released after the grace', async () => {
    const c = server.client();
    const account = (await c.register()).user.accountId;
    const n = await addNumber({ monthlyPriceMinor: 400 });
    await admin.post(`/api/admin/numbers/${n.id}/assignment`, { accountId: account });
    await due(n.id);
    const numbers = server.ctx.services.numbers;
    const [a, b] = await Promise.all([numbers.renewDue(), numbers.renewDue()]);
    expect(a.renewed + b.renewed).toBe(1);
    expect((await rentals(account)).map((r) => Number(r.amount_minor))).toEqual([-400, -400]);
    expect(await balance(c)).toBe(1000 - 800);

    // Next month the balance (200) is short: past due, kept, charged nothing.
    await due(n.id);
    expect(await numbers.renewDue()).toMatchObject({ pastDue: 1, renewed: 0 });
    const mine = (await c.get('/api/numbers')).body.items;
    expect(mine[0].pastDueSince).toBeTruthy();
    expect(await balance(c)).toBe(200);

    // Eight days later, still short: released, its sender ID gone.
    await sql`UPDATE phone_numbers SET past_due_since = now() - interval '8 days' WHERE id = ${n.id}::uuid`.execute(
      server.ctx.db,
    );
    expect(await numbers.renewDue()).toMatchObject({ released: 1 });
    expect((await c.get('/api/numbers')).body.items).toEqual([]);
    expect(JSON.stringify((await c.get('/api/sender-ids')).body)).not.toContain(n.number.slice(1));
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select('kind')
      .where('resource_id', '=', n.id)
      .orderBy('id')
      .execute();
    expect(audit.map((x) => x.kind)).toEqual([
      'admin.number_created',
      'admin.number_assigned',
      'number.past_due',
      'admin.number_released',
    ]);
  });

  it('an operator releases a number: off the account, free to assign again, then removable', async () => {
    const n = await addNumber({ monthlyPriceMinor: 0 });
    await admin.post(`/api/admin/numbers/${n.id}/assignment`, { accountId: ownerAccount });
    const released = await admin.request('DELETE', `/api/admin/numbers/${n.id}/assignment`);
    expect(released.status).toBe(200);
    expect(released.body.accountId).toBeNull();
    expect((await owner.get('/api/numbers')).body.items.map((x: { id: string }) => x.id)).not.toContain(n.id);
    expect((await admin.request('DELETE', `/api/admin/numbers/${n.id}`)).status).toBe(204);
    expect((await admin.request('DELETE', `/api/admin/numbers/${n.id}`)).status).toBe(404);
  });
});
