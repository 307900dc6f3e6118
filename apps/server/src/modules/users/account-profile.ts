import type { Db } from '../../platform/db';
import { postgresTimeZone } from '../../shared/time-zones';
import { accountProfile } from './account-profile.repository';

export interface AccountProfile {
  id: string;
  name: string;
  currency: string;
  /** The first owner's time zone when PostgreSQL knows it and it is not UTC; else null (UTC). */
  ownerTimeZone: string | null;
}

/** An account's name, currency and time zone (its first owner's), for documents such as statements. */
export async function readAccountProfile(db: Db, accountId: string): Promise<AccountProfile | null> {
  const row = await accountProfile(db, accountId);
  if (!row) return null;
  const zone = row.timezone ? await postgresTimeZone(db, row.timezone) : null;
  return {
    id: row.id,
    name: row.name,
    currency: row.currency.trim(),
    ownerTimeZone: zone && zone !== 'UTC' ? zone : null,
  };
}
