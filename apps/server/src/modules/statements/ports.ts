import type { Db } from '../../platform/db';
import type { LedgerPeriodReads } from '../ledger/ledger-period';
import type { CountryUsage } from '../messages/usage-by-country';
import type { AccountProfile } from '../users/account-profile';

/**
 * What a statement is made from, each read through the module that owns the data (ledger, messages,
 * users): app/context.ts wires them. A statement for any account id (a reseller's child too) is
 * built from the same reads.
 */
export interface StatementSources {
  account(db: Db, accountId: string): Promise<AccountProfile | null>;
  ledger: LedgerPeriodReads;
  usageByCountry(db: Db, accountId: string, from: Date, to: Date): Promise<CountryUsage[]>;
}
