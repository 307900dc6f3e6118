import { ErrorCode } from '@wren/contracts';
import type { RawBuilder } from 'kysely';
import { afterCommit, type Db } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import * as repo from './ledger.repository';
import { transferBetween, type TransferInput } from './ledger-transfer';

export interface Posting extends repo.LedgerEntryInput {
  /**
   * A send's debit: it fails with INSUFFICIENT_BALANCE instead of taking the balance below zero, and
   * with ACCOUNT_LOCKED when an operator has locked the account.
   */
  requireFunds?: boolean;
}

/** A send refused because an operator locked the account (checked under the account row lock). */
export const accountLockedError = () =>
  new AppError(
    ErrorCode.ACCOUNT_LOCKED,
    'This account is locked by an operator: it cannot send. Contact support.',
  );

export interface PostingResult {
  posted: boolean;
  balanceMinor: number;
}

/**
 * The only writer of money. Every posting appends one entry and moves the cached balance in the
 * caller's transaction, under the account row lock. A posting with a reference is idempotent:
 * the same (account, kind, reference) is applied once.
 */
export function createLedgerService(events: EventBus) {
  return {
    async post(trx: Db, p: Posting): Promise<PostingResult> {
      const account = await repo.lockAccount(trx, p.accountId);
      if (!account) throw notFound('Account');
      if (p.requireFunds && account.locked_at) throw accountLockedError();
      if (p.requireFunds && p.amountMinor < 0 && account.balance_minor + p.amountMinor < 0) {
        throw new AppError(
          ErrorCode.INSUFFICIENT_BALANCE,
          `Insufficient balance: this costs ${format(-p.amountMinor, account.currency)} and your balance is ${format(account.balance_minor, account.currency)}.`,
        );
      }
      const moved = await repo.postEntry(trx, { ...p, currency: account.currency });
      if (!moved) return { posted: false, balanceMinor: account.balance_minor };
      const { balance_minor } = moved;
      afterCommit(trx, () => events.publish('balance.changed', { accountId: p.accountId }));
      return { posted: true, balanceMinor: balance_minor };
    },

    /**
     * Credits many references at once (refunds): per account, one row lock, one insert that skips
     * references already credited, and one balance update by what was actually inserted. Returns
     * the references credited now.
     */
    async creditEach(
      trx: Db,
      credits: { accountId: string; amountMinor: number; kind: string; reference: string; note?: string }[],
    ): Promise<Set<string>> {
      const byAccount = new Map<string, typeof credits>();
      for (const c of credits) {
        if (c.amountMinor <= 0) continue;
        const list = byAccount.get(c.accountId) ?? [];
        list.push(c);
        byAccount.set(c.accountId, list);
      }
      const credited = new Set<string>();
      // A stable lock order, so two refund batches cannot deadlock on each other's accounts.
      for (const accountId of [...byAccount.keys()].sort()) {
        const account = await repo.lockAccount(trx, accountId);
        if (!account) throw notFound('Account');
        const inserted = await repo.insertNewEntries(trx, byAccount.get(accountId) ?? [], account.currency);
        if (inserted.length === 0) continue;
        const total = inserted.reduce((sum, e) => sum + Number(e.amount_minor), 0);
        await repo.addToBalance(trx, accountId, total);
        for (const e of inserted) if (e.reference) credited.add(e.reference);
        afterCommit(trx, () => events.publish('balance.changed', { accountId }));
      }
      return credited;
    },

    /**
     * `debitAll` as CTEs for the caller's own statement (the send batcher's one-statement send):
     * `debited` has a row only if the account was debited. `debited()` once that statement
     * returned a row (it has committed).
     */
    debitAllCtes(
      accountId: string,
      charges: { amountMinor: number; kind: string; reference: string; note?: string }[],
    ) {
      const total = charges.reduce((sum, c) => sum + c.amountMinor, 0);
      return {
        /** The CTEs, debiting once `after` is evaluated (debitAllOrNothingCtes). */
        ctes: (after: RawBuilder<unknown>) =>
          repo.debitAllOrNothingCtes(accountId, charges.map(asDebitEntry), total, after),
        debited: () => events.publish('balance.changed', { accountId }),
      };
    },

    /**
     * Debits all `charges` of one account or none, in one statement (the send batcher's optimistic
     * path): `null` when the balance does not cover their sum, and nothing was written.
     */
    async debitAll(
      trx: Db,
      accountId: string,
      charges: { amountMinor: number; kind: string; reference: string; note?: string }[],
    ) {
      const total = charges.reduce((sum, c) => sum + c.amountMinor, 0);
      const debited = await repo.debitAllOrNothing(trx, accountId, charges.map(asDebitEntry), total);
      if (!debited) return null;
      afterCommit(trx, () => events.publish('balance.changed', { accountId }));
      return {
        startMinor: debited.startMinor,
        balanceMinor: debited.startMinor - total,
        currency: debited.currency,
      };
    },

    /**
     * Debits several charges of one account under a single row lock, in order: each charge that the
     * balance covers is posted, each that it does not is refused. Used by the send batcher. A locked
     * account's charges are all refused (`locked`).
     */
    async debitEach(
      trx: Db,
      accountId: string,
      charges: { amountMinor: number; kind: string; reference: string; note?: string }[],
    ) {
      const account = await repo.lockAccount(trx, accountId);
      if (!account) throw notFound('Account');
      let balance = account.balance_minor;
      const locked = account.locked_at !== null;
      const accepted: boolean[] = [];
      const entries: repo.LedgerEntryInput[] = [];
      for (const c of charges) {
        const ok = !locked && c.amountMinor <= balance;
        accepted.push(ok);
        if (!ok) continue;
        balance -= c.amountMinor;
        entries.push({
          accountId,
          amountMinor: -c.amountMinor,
          kind: c.kind,
          reference: c.reference,
          note: c.note,
        });
      }
      if (entries.length) {
        await repo.appendAndAddToBalance(
          trx,
          accountId,
          entries,
          account.currency,
          balance - account.balance_minor,
        );
        afterCommit(trx, () => events.publish('balance.changed', { accountId }));
      }
      return {
        accepted,
        locked,
        balanceMinor: balance,
        currency: account.currency,
        startMinor: account.balance_minor,
      };
    },

    /**
     * Moves money between two accounts: two entries with one reference, both rows locked in id
     * order, `from` never overdrawn, posted once per reference (ledger-transfer.ts). Sub-accounts'
     * transfers between a parent and its child.
     */
    transfer(trx: Db, t: TransferInput) {
      return transferBetween(trx, events, t);
    },

    async balance(db: Db, accountId: string) {
      const row = await repo.getBalance(db, accountId);
      if (!row) throw notFound('Account');
      return { balanceMinor: row.balance_minor, currency: row.currency };
    },

    /** Ledger invariant check: the cached balance equals the sum of the entries. */
    async verify(db: Db, accountId: string) {
      const [cached, sum] = await Promise.all([
        repo.getBalance(db, accountId),
        repo.sumEntries(db, accountId),
      ]);
      return { cached: cached?.balance_minor ?? 0, sum };
    },
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;

/**
 * Takes the account's row lock, the one every posting takes (FOR NO KEY UPDATE, held until the
 * caller's transaction ends), and returns the account's cached balance, currency and operator lock:
 * no balance change interleaves with the caller's work after it. The ledger's only public read of
 * its lock (ledger.repository.ts stays private to the module), for the modules that must order it
 * against their own locks or read the balance under it: admin's adjustment (admin-ledger.ts: the
 * overdraft check), campaigns' cancel of an account's campaigns (campaign-lifecycle.ts) and
 * messages' cancel of waiting messages (cancel-waiting.ts), which take it before any message's
 * refund so that they cannot deadlock with a cancel or a send.
 */
export function lockAccount(trx: Db, accountId: string) {
  return repo.lockAccount(trx, accountId);
}

/** Formats minor units as money, e.g. 540 USD → $5.40. */
export function format(minor: number, currency: string) {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(minor / 100);
}

/** A charge as the (negative) ledger entry of a debit. */
function asDebitEntry(c: { amountMinor: number; kind: string; reference: string; note?: string }) {
  return { amountMinor: -c.amountMinor, kind: c.kind, reference: c.reference, note: c.note };
}
