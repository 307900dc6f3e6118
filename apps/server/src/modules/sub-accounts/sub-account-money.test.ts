import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { waitForFinal } from '../../../test/messaging';
import { createChild, credit, ledgerMatches, operator } from './test-fixtures';

/**
 * Sub-accounts' money (issue 39 item 4) through the real server, database and simulator:
 * transfers both ways (never overdrawn, idempotent, the parallel race), a fuzzed sequence of
 * transfers, sends and refunds keeping every ledger equal to its balance, and a child's send priced
 * at the parent's price plus its markup, with the parent's margin.
 */
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startServer({ SIMULATOR_DELAY_MS: '5', SIMULATOR_MIX: 'DELIVRD=100' }, { worker: true });
  admin = await operator(server);
});
afterAll(() => server?.close());

async function reseller(balance: number) {
  const c = server.client();
  const reg = await c.register();
  // Registration's trial credit, then exactly `balance`.
  const start = (await c.get('/api/balance')).body.balanceMinor as number;
  if (balance !== start) await credit(admin, reg.user.accountId, balance - start);
  return { c, accountId: reg.user.accountId };
}

const transfer = (c: ApiClient, childId: string, body: Record<string, unknown>) =>
  c.post(`/api/sub-accounts/${childId}/transfers`, body);

describe('transfers', () => {
  it('moves balance to and from a child in two entries with one reference; never overdraws either side', async () => {
    const p = await reseller(1_000);
    const child = await createChild(server, p.c);
    const out = await transfer(p.c, child.id, { direction: 'to_child', amountMinor: 600 });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body).toMatchObject({
      posted: true,
      parentBalanceMinor: 400,
      childBalanceMinor: 600,
      currency: 'USD',
    });
    const entries = await server.ctx.db
      .selectFrom('ledger_entries')
      .select(['account_id', 'amount_minor', 'kind', 'reference'])
      .where('reference', '=', out.body.reference)
      .execute();
    expect(entries.map((e) => [e.account_id, Number(e.amount_minor), e.kind]).sort()).toEqual(
      [
        [p.accountId, -600, 'subaccount_transfer'],
        [child.id, 600, 'subaccount_transfer'],
      ].sort(),
    );
    expect((await child.owner.get('/api/balance')).body.balanceMinor).toBe(600);

    const short = await transfer(p.c, child.id, { direction: 'to_child', amountMinor: 401 });
    expect(short.status).toBe(402);
    expect(short.body.code).toBe('INSUFFICIENT_BALANCE');
    expect(short.body.message).toMatch(/Your balance \(\$4\.00\) does not cover this transfer of \$4\.01/);
    const back = await transfer(p.c, child.id, { direction: 'from_child', amountMinor: 601 });
    expect(back.status).toBe(402);
    expect(back.body.message).toMatch(/sub-account's balance \(\$6\.00\)/);
    const ok = await transfer(p.c, child.id, { direction: 'from_child', amountMinor: 250, note: 'Refund' });
    expect(ok.body).toMatchObject({ parentBalanceMinor: 650, childBalanceMinor: 350 });

    for (const bad of [
      { amountMinor: 0 },
      { amountMinor: 1.5 },
      { amountMinor: -5 },
      { direction: 'sideways' },
    ]) {
      const res = await transfer(p.c, child.id, { direction: 'to_child', amountMinor: 10, ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    // The same idempotency key twice: posted once.
    const key = randomUUID();
    const first = await transfer(p.c, child.id, {
      direction: 'to_child',
      amountMinor: 50,
      idempotencyKey: key,
    });
    const again = await transfer(p.c, child.id, {
      direction: 'to_child',
      amountMinor: 50,
      idempotencyKey: key,
    });
    expect([first.body.posted, again.body.posted]).toEqual([true, false]);
    expect(again.body).toMatchObject({ parentBalanceMinor: 600, childBalanceMinor: 400 });
    const detail = await p.c.get(`/api/sub-accounts/${child.id}`);
    expect(detail.body.transfers.map((t: { amountMinor: number }) => t.amountMinor)).toEqual([50, -250, 600]);
    await ledgerMatches(server, [p.accountId, child.id]);
  });

  it('two parallel transfers from a parent with just enough for one: exactly one succeeds', async () => {
    for (let round = 0; round < 3; round++) {
      const p = await reseller(700);
      const a = await createChild(server, p.c);
      const b = await createChild(server, p.c);
      // To two children (and to one child twice): different rows locked, in id order, no deadlock.
      const results = await Promise.all([
        transfer(p.c, a.id, { direction: 'to_child', amountMinor: 500 }),
        transfer(p.c, b.id, { direction: 'to_child', amountMinor: 500 }),
        transfer(p.c, a.id, { direction: 'to_child', amountMinor: 500 }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 402, 402]);
      expect((await p.c.get('/api/balance')).body.balanceMinor).toBe(200);
      await ledgerMatches(server, [p.accountId, a.id, b.id]);
    }
  });

  it('parallel transfers in both directions between a parent and its child do not deadlock', async () => {
    const p = await reseller(10_000);
    const child = await createChild(server, p.c);
    await transfer(p.c, child.id, { direction: 'to_child', amountMinor: 5_000 });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        transfer(p.c, child.id, { direction: i % 2 ? 'to_child' : 'from_child', amountMinor: 100 }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect((await p.c.get('/api/balance')).body.balanceMinor).toBe(5_000);
    await ledgerMatches(server, [p.accountId, child.id]);
  });

  it('a fuzzed sequence of transfers, sends and refunds: every ledger sum equals its balance', async () => {
    const p = await reseller(20_000);
    const kids = [await createChild(server, p.c), await createChild(server, p.c)];
    let seed = 39;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return (seed >>> 16) % n;
    };
    const scheduled: { owner: ApiClient; id: string }[] = [];
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const counts = { transfer: 0, refused: 0, send: 0, refund: 0 };
    for (let step = 0; step < 60; step++) {
      const kid = kids[rand(kids.length)]!;
      const op = rand(4);
      if (op <= 1) {
        const res = await transfer(p.c, kid.id, {
          direction: op === 0 ? 'to_child' : 'from_child',
          amountMinor: 1 + rand(3_000),
        });
        expect([200, 402]).toContain(res.status);
        counts[res.status === 200 ? 'transfer' : 'refused'] += 1;
      } else if (op === 2) {
        // A scheduled send: debited now, refundable by canceling it.
        const res = await kid.owner.post('/api/sms/single', {
          recipients: ['+14155550123', '+447911123456'].slice(0, 1 + rand(2)),
          text: 'Fuzz',
          scheduleAt: later,
        });
        expect([202, 402]).toContain(res.status);
        if (res.status === 202) {
          counts.send += 1;
          for (const m of res.body.messages as { id: string }[])
            scheduled.push({ owner: kid.owner, id: m.id });
        }
      } else if (scheduled.length) {
        const m = scheduled.splice(rand(scheduled.length), 1)[0]!;
        const res = await m.owner.post(`/api/sms/log/${m.id}/cancel`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        counts.refund += 1;
      }
    }
    expect(counts.transfer).toBeGreaterThan(5);
    expect(counts.send).toBeGreaterThan(3);
    expect(counts.refund).toBeGreaterThan(1);
    await ledgerMatches(server, [p.accountId, ...kids.map((k) => k.id)]);
    const total = await server.ctx.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.sum<string>('balance_minor').as('s'))
      .where('id', 'in', [p.accountId, ...kids.map((k) => k.id)])
      .executeTakeFirstOrThrow();
    const debits = await server.ctx.db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.sum<string>('amount_minor').as('s'))
      .where('account_id', 'in', [p.accountId, ...kids.map((k) => k.id)])
      .where('kind', 'in', ['sms_debit', 'sms_refund'])
      .executeTakeFirstOrThrow();
    // Transfers move money, never make or lose it: the family's total is the credit less net sends.
    expect(Number(total.s)).toBe(20_000 + Number(debits.s));
  });
});

describe("a child's prices", () => {
  it('prices a real send at the parent price plus the markup (per country, rounded up) and reports the margin', async () => {
    const p = await reseller(10_000);
    const child = await createChild(server, p.c);
    await transfer(p.c, child.id, { direction: 'to_child', amountMinor: 1_000 });
    // The default plan: +1 (US/CA) 1, +44 (GB) 4 per segment.
    const bad = await p.c.request('PUT', `/api/sub-accounts/${child.id}/pricing`, {
      markupBp: 2_500,
      countries: [{ country: 'XX', markupBp: 10 }],
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/no prices for XX/);
    expect((await p.c.request('PUT', `/api/sub-accounts/${child.id}/pricing`, { markupBp: -1 })).status).toBe(
      400,
    );
    expect(
      (await p.c.request('PUT', `/api/sub-accounts/${child.id}/pricing`, { markupBp: 12.5 })).status,
    ).toBe(400);
    const set = await p.c.request('PUT', `/api/sub-accounts/${child.id}/pricing`, {
      markupBp: 2_500,
      countries: [{ country: 'GB', markupBp: 5_000 }],
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const price = (prefix: string) => set.body.prices.find((x: { prefix: string }) => x.prefix === prefix);
    // ceil(1 * 1.25) = 2; ceil(4 * 1.5) = 6.
    expect(price('+1')).toMatchObject({ parentPriceMinor: 1, childPriceMinor: 2 });
    expect(price('+44')).toMatchObject({ parentPriceMinor: 4, childPriceMinor: 6 });
    expect((await p.c.get(`/api/sub-accounts/${child.id}/pricing`)).body).toEqual(set.body);

    const sent = await child.owner.post('/api/sms/single', {
      recipients: ['+14155550123', '+447911123456'],
      text: 'Hi',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    expect(sent.body.messages.map((m: { priceMinor: number }) => m.priceMinor).sort()).toEqual([2, 6]);
    const done = await waitForFinal(
      child.owner,
      sent.body.messages.map((m: { id: string }) => m.id),
    );
    expect(done.map((m) => m.status)).toEqual(['delivered', 'delivered']);
    expect((await child.owner.get('/api/balance')).body.balanceMinor).toBe(992);
    // The parent's own price is unchanged by its child's markup.
    const own = await p.c.post('/api/sms/single', { recipients: ['+447911123456'], text: 'Hi' });
    expect(own.body.messages[0].priceMinor).toBe(4);

    const today = new Date().toISOString().slice(0, 10);
    const usage = await p.c.get(`/api/sub-accounts/${child.id}/usage?from=${today}&to=${today}`);
    expect(usage.status, JSON.stringify(usage.body)).toBe(200);
    expect(usage.body).toMatchObject({
      messages: 2,
      byStatus: { delivered: 2 },
      spendMinor: 8,
      parentCostMinor: 5,
      marginMinor: 3,
      currency: 'USD',
    });
    const empty = await p.c.get(`/api/sub-accounts/${child.id}/usage?from=2020-01-01&to=2020-01-31`);
    expect(empty.body).toMatchObject({ messages: 0, spendMinor: 0, marginMinor: 0 });
    expect((await p.c.get(`/api/sub-accounts/${child.id}/usage?from=2024-02-01&to=2024-01-01`)).status).toBe(
      400,
    );
    expect((await p.c.get(`/api/sub-accounts/${child.id}/usage?from=2020-01-01&to=2024-01-01`)).status).toBe(
      400,
    );
    const audit = await server.ctx.db
      .selectFrom('audit_log')
      .select('message')
      .where('account_id', '=', p.accountId)
      .where('kind', '=', 'subaccount.pricing_changed')
      .execute();
    expect(audit.map((a) => a.message)).toEqual([expect.stringMatching(/\+ 25 %; GB 50 %/)]);

    // Back to the parent's own prices: the next send costs what the parent pays.
    await p.c.request('PUT', `/api/sub-accounts/${child.id}/pricing`, { markupBp: 0 });
    const plain = await child.owner.post('/api/sms/single', { recipients: ['+447911123456'], text: 'Hi' });
    expect(plain.body.messages[0].priceMinor).toBe(4);
    await ledgerMatches(server, [p.accountId, child.id]);
  });
});
