import { ErrorCode } from '@wren/contracts';
import { afterCommit, type Db } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import * as repo from './ledger.repository';

export interface TransferInput {
  fromAccountId: string;
  toAccountId: string;
  /** Positive, integer minor units. */
  amountMinor: number;
  /** The two entries' kind and their shared reference ((account, kind, reference) is unique). */
  kind: string;
  reference: string;
  note?: string | null;
  /** Refusal message when `from` cannot cover the amount (the caller knows whose balance it is). */
  insufficient: (balance: string, amount: string) => string;
}

export interface TransferResult {
  /** False when this reference was posted before: nothing moved this time. */
  posted: boolean;
  fromBalanceMinor: number;
  toBalanceMinor: number;
  currency: string;
}

/**
 * Moves money between two accounts in the caller's transaction: two entries (a debit on `from`, a
 * credit on `to`) with the same kind and reference, under both accounts' row locks taken in a fixed
 * order (by account id), so two transfers between the same accounts, in either direction, cannot
 * deadlock. `from` is never overdrawn: its balance is read under its lock. A reference posted
 * before is not posted again (idempotent); the second answer says `posted: false`.
 */
export async function transferBetween(trx: Db, events: EventBus, t: TransferInput): Promise<TransferResult> {
  if (!Number.isSafeInteger(t.amountMinor) || t.amountMinor <= 0) {
    throw new AppError(ErrorCode.VALIDATION, 'A transfer moves a positive whole number of minor units');
  }
  if (t.fromAccountId === t.toAccountId) throw new AppError(ErrorCode.CONFLICT, 'Cannot transfer to itself');
  const locked = new Map<string, NonNullable<Awaited<ReturnType<typeof repo.lockAccount>>>>();
  for (const id of [t.fromAccountId, t.toAccountId].sort()) {
    const row = await repo.lockAccount(trx, id);
    if (!row) throw notFound('Account');
    locked.set(id, row);
  }
  const from = locked.get(t.fromAccountId)!;
  const to = locked.get(t.toAccountId)!;
  if (from.currency !== to.currency) {
    throw new AppError(ErrorCode.CONFLICT, 'Both accounts must have the same currency');
  }
  const entries: repo.LedgerEntryInput[] = [
    {
      accountId: t.fromAccountId,
      amountMinor: -t.amountMinor,
      kind: t.kind,
      reference: t.reference,
      note: t.note,
    },
    {
      accountId: t.toAccountId,
      amountMinor: t.amountMinor,
      kind: t.kind,
      reference: t.reference,
      note: t.note,
    },
  ];
  // Idempotent: the debit's entry already there means this transfer was posted (both, atomically).
  const debit = await repo.insertNewEntries(trx, [entries[0]], from.currency);
  if (debit.length === 0) {
    return {
      posted: false,
      fromBalanceMinor: Number(from.balance_minor),
      toBalanceMinor: Number(to.balance_minor),
      currency: from.currency,
    };
  }
  if (Number(from.balance_minor) < t.amountMinor) {
    throw new AppError(
      ErrorCode.INSUFFICIENT_BALANCE,
      t.insufficient(format(Number(from.balance_minor), from.currency), format(t.amountMinor, from.currency)),
    );
  }
  const credit = await repo.insertNewEntries(trx, [entries[1]], to.currency);
  if (credit.length !== 1)
    throw new Error(`transfer ${t.reference}: the credit was posted without its debit`);
  const fromAfter = await repo.addToBalance(trx, t.fromAccountId, -t.amountMinor);
  const toAfter = await repo.addToBalance(trx, t.toAccountId, t.amountMinor);
  afterCommit(trx, () => {
    events.publish('balance.changed', { accountId: t.fromAccountId });
    events.publish('balance.changed', { accountId: t.toAccountId });
  });
  return {
    posted: true,
    fromBalanceMinor: Number(fromAfter.balance_minor),
    toBalanceMinor: Number(toAfter.balance_minor),
    currency: from.currency,
  };
}

function format(minor: number, currency: string) {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(minor / 100);
}
