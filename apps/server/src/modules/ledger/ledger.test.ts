import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { transact } from '../../platform/db';
import { EventBus } from '../../platform/events';
import { createLedgerService } from './ledger.service';

/** The ledger's postings through the real database: one statement appends and moves the balance. */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const ledger = createLedgerService(new EventBus());

describe('ledger', () => {
  it('posts once per reference, refuses an uncovered debit, and keeps balance = sum of entries', async () => {
    const c = server.client();
    const { user } = await c.register();
    const { db } = server.ctx;
    const start = (await ledger.balance(db, user.accountId)).balanceMinor;

    const credit = { accountId: user.accountId, amountMinor: 250, kind: 'admin_credit', reference: 'ref-1' };
    expect(await transact(db, (trx) => ledger.post(trx, credit))).toEqual({
      posted: true,
      balanceMinor: start + 250,
    });
    // The same reference again: not posted, nothing moved.
    expect(await transact(db, (trx) => ledger.post(trx, credit))).toEqual({
      posted: false,
      balanceMinor: start + 250,
    });
    await expect(
      transact(db, (trx) =>
        ledger.post(trx, {
          accountId: user.accountId,
          amountMinor: -(start + 251),
          kind: 'sms_debit',
          reference: 'too-much',
          requireFunds: true,
        }),
      ),
    ).rejects.toThrow(/Insufficient balance/);

    // Charges in order: each one the balance covers is posted; the rest are refused.
    const debit = await transact(db, (trx) =>
      ledger.debitEach(trx, user.accountId, [
        { amountMinor: start + 200, kind: 'sms_debit', reference: 'd-1' },
        { amountMinor: 100, kind: 'sms_debit', reference: 'd-2' },
        { amountMinor: 50, kind: 'sms_debit', reference: 'd-3' },
      ]),
    );
    expect(debit.accepted).toEqual([true, false, true]);
    expect(debit.balanceMinor).toBe(0);
    expect(await ledger.balance(db, user.accountId)).toMatchObject({ balanceMinor: 0 });
    expect(await ledger.verify(db, user.accountId)).toEqual({ cached: 0, sum: 0 });

    // A failed transaction leaves neither an entry nor a balance change behind.
    await expect(
      transact(db, async (trx) => {
        await ledger.post(trx, {
          accountId: user.accountId,
          amountMinor: 999,
          kind: 'admin_credit',
          reference: 'r2',
        });
        throw new Error('after the posting');
      }),
    ).rejects.toThrow('after the posting');
    expect(await ledger.verify(db, user.accountId)).toEqual({ cached: 0, sum: 0 });
  });

  it('debits all charges or none in one statement, and two concurrent debits that one balance covers post once', async () => {
    const c = server.client();
    const { user } = await c.register();
    const { db } = server.ctx;
    const start = (await ledger.balance(db, user.accountId)).balanceMinor;
    const charge = (amountMinor: number, reference: string) => ({
      amountMinor,
      kind: 'sms_debit',
      reference,
    });

    // One more than the balance: nothing is written, not even the charges that would fit alone.
    expect(
      await transact(db, (trx) =>
        ledger.debitAll(trx, user.accountId, [charge(1, 'a-1'), charge(start, 'a-2')]),
      ),
    ).toBeNull();
    expect(await ledger.verify(db, user.accountId)).toEqual({ cached: start, sum: start });

    const half = Math.floor(start / 2);
    expect(
      await transact(db, (trx) =>
        ledger.debitAll(trx, user.accountId, [charge(half, 'b-1'), charge(1, 'b-2')]),
      ),
    ).toEqual({ startMinor: start, balanceMinor: start - half - 1, currency: expect.any(String) });

    // What is left covers one of these two, not both: the second waits for the first's lock and
    // re-checks the balance on the row the first committed.
    const left = start - half - 1;
    const results = await Promise.all(
      ['c-1', 'c-2'].map((ref) =>
        transact(db, async (trx) => {
          const r = await ledger.debitAll(trx, user.accountId, [charge(left - 1, ref)]);
          await new Promise((resolve) => setTimeout(resolve, 50));
          return r;
        }),
      ),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await ledger.verify(db, user.accountId)).toEqual({ cached: 1, sum: 1 });
    const entries = await db
      .selectFrom('ledger_entries')
      .select(['reference', 'amount_minor'])
      .where('account_id', '=', user.accountId)
      .where('kind', '=', 'sms_debit')
      .orderBy('reference')
      .execute();
    expect(entries.map((e) => [e.reference, Number(e.amount_minor)])).toEqual([
      ['b-1', -half],
      ['b-2', -1],
      [results[0] ? 'c-1' : 'c-2', -(left - 1)],
    ]);
  });
});
