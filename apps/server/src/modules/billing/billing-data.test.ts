import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { transact } from '../../platform/db';
import { joinAs } from '../members/test-fixtures';
import { postAt } from '../statements/test-fixtures';

/**
 * The account's own billing data (issue 47 item 1) through the real HTTP server and PostgreSQL:
 * prices by country (search, CSV), the ledger (filters, paging, CSV) and the low-balance alert
 * (fired once per crossing, by email and in the activity feed, re-armed above the threshold).
 */
let server: TestServer;
let owner: ApiClient;
let accountId: string;
let ownerEmail: string;
const mails: { to: string; subject: string; text: string }[] = [];

beforeAll(async () => {
  server = await startServer();
  const mailer = server.ctx.mailer as {
    send: (m: { to: string; subject: string; text: string }) => Promise<void>;
  };
  mailer.send = async (m) => {
    mails.push(m);
  };
  owner = server.client();
  const reg = await owner.register();
  accountId = reg.user.accountId;
  ownerEmail = reg.user.email;
});
afterAll(async () => {
  await server?.close();
});

const post = (amountMinor: number, kind = amountMinor < 0 ? 'sms_debit' : 'adjustment') =>
  transact(server.ctx.db, (trx) =>
    server.ctx.services.ledger.post(trx, { accountId, amountMinor, kind, reference: `t:${Math.random()}` }),
  );
const settle = () => new Promise((r) => setTimeout(r, 600));
const alerts = () => mails.filter((m) => m.to === ownerEmail && /balance is below/.test(m.subject));

describe('prices by country', () => {
  it('lists the rate plan with country names, searches by name, code and prefix, and downloads CSV', async () => {
    const all = await owner.get('/api/billing/prices');
    expect(all.status).toBe(200);
    expect(all.body.currency).toBe('USD');
    expect(all.body.total).toBe(all.body.items.length);
    expect(all.body.items).toContainEqual({
      prefix: '+44',
      country: 'GB',
      countryName: 'United Kingdom',
      priceMinor: 4,
    });
    const byName = await owner.get('/api/billing/prices?q=kingdom');
    expect(byName.body.items.map((p: { prefix: string }) => p.prefix)).toEqual(['+44']);
    expect(
      (await owner.get('/api/billing/prices?q=de')).body.items.map((p: { prefix: string }) => p.prefix),
    ).toEqual(['+49']);
    expect(
      (await owner.get('/api/billing/prices?q=%2B23')).body.items.map((p: { prefix: string }) => p.prefix),
    ).toEqual(['+234']);
    expect((await owner.get('/api/billing/prices?q=canada')).body.items[0].countryName).toBe(
      'United States / Canada',
    );
    expect((await owner.get('/api/billing/prices?q=atlantis')).body.items).toEqual([]);
    const csv = await owner.get('/api/billing/prices/export');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect(csv.body).toContain("GB,United Kingdom,'+44,0.04,USD"); // '+: the CSV formula guard
    expect((csv.body as string).trim().split(/\r?\n/).at(-1)).toBe(',All other destinations,,0.05,USD');
  });
});

describe('the account ledger', () => {
  it('filters by kind and date range, pages by keyset, and exports the filtered CSV', async () => {
    await postAt(server.ctx.db, accountId, [
      { at: '2026-03-01T10:00:00Z', amountMinor: 1000, kind: 'topup', reference: 'l:1' },
      { at: '2026-03-02T10:00:00Z', amountMinor: -3, kind: 'sms_debit', reference: 'l:2' },
      { at: '2026-03-03T10:00:00Z', amountMinor: -4, kind: 'sms_debit', reference: 'l:3' },
      { at: '2026-03-04T23:59:00Z', amountMinor: -5, kind: 'sms_debit', reference: 'l:4' },
      {
        at: '2026-03-05T00:00:00Z',
        amountMinor: 2,
        kind: 'sms_refund',
        reference: 'l:5',
        note: 'Undelivered',
      },
    ]);
    const debits = await owner.get('/api/billing/ledger?kind=sms_debit');
    expect(debits.body.items.map((e: { amountMinor: number }) => e.amountMinor)).toEqual([-5, -4, -3]);
    const range = await owner.get('/api/billing/ledger?from=2026-03-02&to=2026-03-04');
    expect(range.body.items.map((e: { amountMinor: number }) => e.amountMinor)).toEqual([-5, -4, -3]);
    const p1 = await owner.get('/api/billing/ledger?from=2026-03-01&to=2026-03-05&limit=2');
    expect(p1.body.items.map((e: { amountMinor: number }) => e.amountMinor)).toEqual([2, -5]);
    const p2 = await owner.get(
      `/api/billing/ledger?from=2026-03-01&to=2026-03-05&limit=2&cursor=${p1.body.nextCursor}`,
    );
    expect(p2.body.items.map((e: { amountMinor: number }) => e.amountMinor)).toEqual([-4, -3]);
    const p3 = await owner.get(
      `/api/billing/ledger?from=2026-03-01&to=2026-03-05&limit=2&cursor=${p2.body.nextCursor}`,
    );
    expect(p3.body.items.map((e: { amountMinor: number }) => e.amountMinor)).toEqual([1000]);
    expect(p3.body.nextCursor).toBeNull();
    for (const bad of ['kind=bogus', 'from=2026-3-1', 'cursor=%25%25', 'limit=0']) {
      expect((await owner.get(`/api/billing/ledger?${bad}`)).status, bad).toBe(400);
    }
    const csv = await owner.get('/api/billing/ledger/export?kind=sms_refund');
    expect(csv.status).toBe(200);
    const rows = (csv.body as string).trim().split(/\r?\n/);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/,sms_refund,0\.02,,USD,Undelivered$/);
  });
});

describe('low-balance alerts', () => {
  it('fires once when the balance crosses below the threshold, and again only after it went back above', async () => {
    const start = (await owner.get('/api/billing')).body.balanceMinor as number;
    const threshold = start - 100;
    const set = await owner.request('PUT', '/api/billing/low-balance', { thresholdMinor: threshold });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ thresholdMinor: threshold, below: false, firedAt: null });

    await post(-50); // still above
    await settle();
    expect(alerts()).toHaveLength(0);
    await post(-60); // crosses below
    await settle();
    expect(alerts()).toHaveLength(1);
    expect(alerts()[0]!.text).toContain('/billing/balance');
    await post(-5); // still below: no second alert
    await post(-5);
    await settle();
    expect(alerts()).toHaveLength(1);
    const state = (await owner.get('/api/billing/low-balance')).body;
    expect(state.below).toBe(true);
    expect(state.firedAt).not.toBeNull();
    // In the app: the account's activity feed has it.
    const events = await owner.get('/api/me/events');
    expect(JSON.stringify(events.body)).toContain('Low balance');

    await post(500); // back above: re-armed
    await settle();
    expect(alerts()).toHaveLength(1);
    await post(-500); // below again: a second alert
    await settle();
    expect(alerts()).toHaveLength(2);

    const offRes = await owner.request('PUT', '/api/billing/low-balance', { thresholdMinor: null });
    expect(offRes.body.thresholdMinor).toBeNull();
    expect((await owner.request('PUT', '/api/billing/low-balance', { thresholdMinor: 0 })).status).toBe(400);
  });
});

describe('billing data access', () => {
  it('another account sees only its own ledger; roles without the permission cannot read or set', async () => {
    const other = server.client();
    await other.register();
    const theirs = await other.get('/api/billing/ledger?kind=sms_debit');
    expect(theirs.body.items).toEqual([]);
    expect((await other.get('/api/billing/ledger/export?kind=topup')).body).not.toContain('topup');
    const analyst = (await joinAs(server, owner, 'analyst')).client;
    for (const path of [
      '/api/billing/prices',
      '/api/billing/prices/export',
      '/api/billing/ledger',
      '/api/billing/ledger/export',
      '/api/billing/low-balance',
    ])
      expect((await analyst.get(path)).status, path).toBe(403);
    const sender = (await joinAs(server, owner, 'sender')).client;
    expect((await sender.request('PUT', '/api/billing/low-balance', { thresholdMinor: 100 })).status).toBe(
      403,
    );
    const billing = (await joinAs(server, owner, 'billing')).client;
    expect((await billing.request('PUT', '/api/billing/low-balance', { thresholdMinor: 100 })).status).toBe(
      200,
    );
    expect((await other.get('/api/billing/low-balance')).body.thresholdMinor).toBeNull();
  });
});
