import type { Db } from '../../platform/db';
import * as repo from './ledger-period.repository';

/**
 * The ledger's reads of a period (a monthly statement's opening balance, totals and entries), for
 * the statements module. Every read is scoped to one account; the caller passes one snapshot
 * (a REPEATABLE READ transaction) so the figures agree with each other.
 */
export const ledgerPeriodReads = {
  sumBefore: repo.sumBefore,
  totalsByKind: repo.totalsByKind,
  sumThrough: repo.sumThrough,
  entriesPage: repo.entriesPage,
  monthsWithEntries: repo.monthsWithEntries,
} satisfies Record<string, (db: Db, ...args: never[]) => Promise<unknown>>;

export type LedgerPeriodReads = typeof ledgerPeriodReads;
