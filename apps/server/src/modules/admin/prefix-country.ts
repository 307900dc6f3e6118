import { AsYouType, getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Calling code → its regions, the main one first (libphonenumber's metadata order). */
const regionsByCode = new Map<string, CountryCode[]>();
for (const c of getCountries()) {
  const code = getCountryCallingCode(c);
  const list = regionsByCode.get(code) ?? [];
  list.push(c);
  regionsByCode.set(code, list);
}
const MAIN_REGION: Record<string, CountryCode> = {
  '1': 'US',
  '7': 'RU',
  '44': 'GB',
  '61': 'AU',
  '39': 'IT',
  '47': 'NO',
  '212': 'MA',
  '262': 'RE',
  '290': 'SH',
  '358': 'FI',
  '590': 'GP',
  '599': 'CW',
};

/**
 * The country a price prefix stands for, from libphonenumber's metadata: the region the prefix
 * already decides (+1876 → JM, +77 → KZ), else the calling code's main region (+1 → US, +44 → GB).
 */
export function countryOfPrefix(prefix: string): { country: string | null; countryName: string | null } {
  if (!prefix) return { country: null, countryName: null };
  const typing = new AsYouType();
  typing.input(prefix);
  const code = typing.getCallingCode();
  const country =
    typing.getCountry() ?? (code ? (MAIN_REGION[code] ?? regionsByCode.get(code)?.[0]) : undefined);
  if (!country) return { country: null, countryName: null };
  return { country, countryName: regionNames.of(country) ?? country };
}
