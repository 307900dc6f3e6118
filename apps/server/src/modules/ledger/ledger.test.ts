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
});
