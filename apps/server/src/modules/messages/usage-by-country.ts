import type { Db } from '../../platform/db';
import { countryLabel, countryOf } from './account-limits';
import { usageByPrefix } from './usage.repository';

export interface CountryUsage {
  /** ISO 3166 code; null when the number's country cannot be told (e.g. a non-geographic number). */
  country: string | null;
  countryName: string;
  messages: number;
  parts: number;
  chargedMinor: number;
  refundedMinor: number;
  costMinor: number;
}

/**
 * The account's messages created in [from, to) by destination country: messages, parts (segments),
 * the price charged, what of it was refunded (whenever the refund was posted) and the net cost.
 * Most messages first.
 */
export async function usageByCountry(db: Db, accountId: string, from: Date, to: Date) {
  const groups = await usageByPrefix(db, accountId, from, to);
  const byCountry = new Map<string | null, CountryUsage>();
  for (const g of groups) {
    const country = countryOf(g.sample);
    const row = byCountry.get(country) ?? {
      country,
      countryName: country ? countryLabel(country) : 'Unknown country',
      messages: 0,
      parts: 0,
      chargedMinor: 0,
      refundedMinor: 0,
      costMinor: 0,
    };
    row.messages += g.messages;
    row.parts += g.parts;
    row.chargedMinor += g.chargedMinor;
    row.refundedMinor += g.refundedMinor;
    row.costMinor = row.chargedMinor - row.refundedMinor;
    byCountry.set(country, row);
  }
  return [...byCountry.values()].sort(
    (a, b) => b.messages - a.messages || a.countryName.localeCompare(b.countryName),
  );
}
