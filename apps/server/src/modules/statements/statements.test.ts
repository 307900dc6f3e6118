import type { StatementDto, StatementEntryDto } from '@wren/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { joinAs } from '../members/test-fixtures';
import { monthOf } from './statement-month';
import { insertSent, ledgerSumBefore, postAt, setTimeZone } from './test-fixtures';

/**
 * Monthly statements through the real HTTP server and PostgreSQL: the numbers reconcile with the
 * ledger across month boundaries, in the owner's time zone, and stay within the caller's account.
 */
let server: TestServer;
let owner: ApiClient;
let accountId: string;
let userId: string;

// Europe/Berlin is UTC+1 in November 2025 (summer time ended on 26 October).
const ENTRIES = [
  {
    at: '2025-10-10T10:00:00Z',
    amountMinor: 5000,
    kind: 'adjustment',
    reference: 'adj:a',
    note: 'Top-up by bank transfer',
  },
  { at: '2025-10-31T23:30:00Z', amountMinor: -120, kind: 'sms_debit', reference: 'send:1' }, // Berlin: 1 Nov 00:30
  { at: '2025-11-15T09:00:00Z', amountMinor: 40, kind: 'sms_refund', reference: 'msg:1' },
  {
    at: '2025-11-20T09:00:00Z',
    amountMinor: -500,
    kind: 'adjustment',
    reference: 'adj:b',
    note: 'Correction',
  },
  { at: '2025-11-30T22:59:59Z', amountMinor: -300, kind: 'sms_debit', reference: 'send:2' }, // Berlin: 30 Nov 23:59:59
  { at: '2025-11-30T23:00:00Z', amountMinor: 300, kind: 'sms_refund', reference: 'msg:2' }, // Berlin: 1 Dec 00:00
  { at: '2025-12-05T12:00:00Z', amountMinor: 2000, kind: 'topup', reference: 'pay:1' },
];

beforeAll(async () => {
  server = await startServer();
  owner = server.client();
  const reg = await owner.register({ name: 'Statement Owner' });
  accountId = reg.user.accountId;
  userId = reg.user.id;
  await postAt(server.ctx.db, accountId, ENTRIES);
  await setTimeZone(server.ctx.db, userId, 'Europe/Berlin');
  await insertSent(server.ctx.db, accountId, [
    { to: '+447400123456', at: '2025-11-03T10:00:00Z', segments: 2, priceMinor: 8 },
    { to: '+447400123457', at: '2025-11-03T10:00:01Z', priceMinor: 4, refunded: true },
    { to: '+14155550100', at: '2025-11-04T10:00:00Z', segments: 3, priceMinor: 3 },
    { to: '+18765551234', at: '2025-11-05T10:00:00Z', priceMinor: 5 }, // +1 too, but Jamaica
    { to: '+4915112345678', at: '2025-11-30T23:30:00Z', priceMinor: 6 }, // Berlin: December
  ]);
});
afterAll(async () => {
  await server?.close();
});

const get = (month: string) => owner.get<StatementDto>(`/api/statements/${month}`);

describe('monthly statements', () => {
  it('reconcile with the ledger across month boundaries, in the owner time zone', async () => {
    const months = ['2025-09', '2025-10', '2025-11', '2025-12'];
    const statements: StatementDto[] = [];
    for (const m of months) {
      const res = await get(m);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      statements.push(res.body);
    }
    const [sep, oct, nov, dec] = statements;
    expect(oct!.timeZone).toBe('Europe/Berlin');
    expect(oct!.periodStart).toBe('2025-09-30T22:00:00.000Z'); // CEST, UTC+2
    expect(oct!.periodEnd).toBe('2025-10-31T23:00:00.000Z'); // CET, UTC+1
    expect(sep).toMatchObject({ openingBalanceMinor: 0, closingBalanceMinor: 0, entryCount: 0 });
    // The debit at 23:30 UTC on 31 October is November in Berlin.
    expect(oct!.entries.items.map((e) => e.amountMinor)).toEqual([5000]);
    expect(nov!.entries.items.map((e) => e.amountMinor)).toEqual([-120, 40, -500, -300]);
    expect(dec!.entries.items.map((e) => e.amountMinor)).toEqual([300, 2000]);
    for (const s of statements) {
      const sum = s.entries.items.reduce((n, e) => n + e.amountMinor, 0);
      expect(s.openingBalanceMinor + sum).toBe(s.closingBalanceMinor);
      expect(s.closingBalanceMinor).toBe(await ledgerSumBefore(server.ctx.db, accountId, s.periodEnd));
      expect(s.openingBalanceMinor).toBe(await ledgerSumBefore(server.ctx.db, accountId, s.periodStart));
      expect(s.totals.reduce((n, t) => n + t.amountMinor, 0)).toBe(sum);
      expect(s.creditsMinor + s.debitsMinor).toBe(sum);
      expect(s.entries.items.at(-1)?.balanceMinor ?? s.openingBalanceMinor).toBe(s.closingBalanceMinor);
      expect(s.closed).toBe(true);
    }
    for (let i = 1; i < statements.length; i++)
      expect(statements[i]!.openingBalanceMinor).toBe(statements[i - 1]!.closingBalanceMinor);
    expect(nov).toMatchObject({ openingBalanceMinor: 5000, closingBalanceMinor: 4120 });
    const total = (s: StatementDto, c: string) => s.totals.find((t) => t.category === c)?.amountMinor;
    expect([total(nov!, 'charges'), total(nov!, 'refunds'), total(nov!, 'adjustments')]).toEqual([
      -420, 40, -500,
    ]);
    expect([total(dec!, 'topups'), total(dec!, 'refunds')]).toEqual([2000, 300]);
    expect(nov!.entries.items.map((e) => [e.kindLabel, e.description])).toEqual([
      ['SMS charge', 'SMS charge'],
      ['SMS refund', 'SMS refund'],
      ['Adjustment', 'Correction'],
      ['SMS charge', 'SMS charge'],
    ]);
  });

  it('the current month ends at the cached balance, and the months list the activity', async () => {
    const current = monthOf(new Date(), 'Europe/Berlin');
    const res = await get(current);
    expect(res.status).toBe(200);
    expect(res.body.closed).toBe(false);
    const { balanceMinor } = await server.ctx.services.ledger.balance(server.ctx.db, accountId);
    expect(res.body.closingBalanceMinor).toBe(balanceMinor);
    // The trial credit of registration is this month's.
    expect(res.body.entries.items.map((e) => e.kind)).toEqual(['trial_credit']);
    const months = await owner.get('/api/statements');
    expect(months.status).toBe(200);
    expect(months.body.timeZone).toBe('Europe/Berlin');
    expect(months.body.currentMonth).toBe(current);
    expect(months.body.items).toEqual([
      { month: current, entries: 1 },
      { month: '2025-12', entries: 2 },
      { month: '2025-11', entries: 4 },
      { month: '2025-10', entries: 1 },
    ]);
  });

  it('is cut in UTC when the owner has no time zone, and says so', async () => {
    await setTimeZone(server.ctx.db, userId, 'UTC');
    try {
      const oct = (await get('2025-10')).body;
      expect(oct.timeZone).toBe('UTC');
      expect(oct.timeZoneNote).toMatch(/UTC/);
      expect(oct.entries.items.map((e) => e.amountMinor)).toEqual([5000, -120]);
      expect(oct.closingBalanceMinor).toBe(4880);
    } finally {
      await setTimeZone(server.ctx.db, userId, 'Europe/Berlin');
    }
  });

  it('totals usage by country from the messages of the month', async () => {
    const nov = (await get('2025-11')).body;
    expect(nov.usage).toEqual([
      {
        country: 'GB',
        countryName: 'United Kingdom (GB)',
        messages: 2,
        parts: 3,
        chargedMinor: 12,
        refundedMinor: 4,
        costMinor: 8,
      },
      {
        country: 'JM',
        countryName: 'Jamaica (JM)',
        messages: 1,
        parts: 1,
        chargedMinor: 5,
        refundedMinor: 0,
        costMinor: 5,
      },
      {
        country: 'US',
        countryName: 'United States (US)',
        messages: 1,
        parts: 3,
        chargedMinor: 3,
        refundedMinor: 0,
        costMinor: 3,
      },
    ]);
    const dec = (await get('2025-12')).body;
    expect(dec.usage.map((u) => [u.country, u.messages])).toEqual([['DE', 1]]);
  });

  it('pages the entries with a running balance that continues from page to page', async () => {
    const first = await owner.get('/api/statements/2025-11/entries?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(3);
    expect(first.body.nextAfter).toBe(Number(first.body.items[2].id));
    const next = await owner.get(`/api/statements/2025-11/entries?limit=3&after=${first.body.nextAfter}`);
    expect(next.body.nextAfter).toBeNull();
    const all: StatementEntryDto[] = [...first.body.items, ...next.body.items];
    expect(all.map((e) => e.balanceMinor)).toEqual([4880, 4920, 4420, 4120]);
    const bad = await owner.get('/api/statements/2025-11/entries?after=abc');
    expect(bad.status).toBe(400);
  });

  it('refuses a month that is not one, or has not started, with a clear 400', async () => {
    for (const m of ['2025-13', '2025-1', 'abc', '1999-12', '2025-00'])
      expect((await owner.get(`/api/statements/${m}`)).body.errors.month, m).toEqual([
        'Give the month as YYYY-MM, for example 2026-03',
      ]);
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 1));
    const future = next.toISOString().slice(0, 7);
    const res = await owner.get(`/api/statements/${future}`);
    expect(res.status).toBe(400);
    expect(res.body.errors.month[0]).toMatch(/has not started yet/);
    for (const path of [`/api/statements/${future}/csv`, `/api/statements/${future}/pdf`])
      expect((await owner.get(path)).status).toBe(400);
  });

  it('shows another account only its own statement, and needs billing:read', async () => {
    const other = server.client();
    const reg = await other.register({ name: 'Someone Else' });
    const res = await other.get<StatementDto>('/api/statements/2025-11');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      accountId: reg.user.accountId,
      accountName: 'Someone Else',
      entryCount: 0,
      usage: [],
    });
    expect(res.body.openingBalanceMinor).toBe(0);
    const csv = await other.get('/api/statements/2025-11/csv');
    expect(csv.body).not.toContain('Statement Owner');
    const months = await other.get('/api/statements');
    expect(months.body.items.map((m: { month: string }) => m.month)).not.toContain('2025-11');

    const billing = await joinAs(server, owner, 'billing');
    const seen = await billing.client.get<StatementDto>('/api/statements/2025-11');
    expect(seen.status).toBe(200);
    expect(seen.body.accountId).toBe(accountId);
    const analyst = await joinAs(server, owner, 'analyst');
    for (const path of [
      '/api/statements',
      '/api/statements/2025-11',
      '/api/statements/2025-11/csv',
      '/api/statements/2025-11/pdf',
    ])
      expect((await analyst.client.get(path)).status, path).toBe(403);
  });
});
