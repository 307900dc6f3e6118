import type { RatePlanDetail } from '@wren/contracts';
import { translate } from '@/lib/i18n';
import { toMinor } from './amount';

/** One editable line of a rate plan's price table (prices as typed, in major units). */
export interface PriceRow {
  key: number;
  prefix: string;
  price: string;
  countryName: string | null;
}

let rowKey = 0;

export const toRows = (plan: RatePlanDetail): PriceRow[] =>
  plan.prices.map((p) => ({
    key: ++rowKey,
    prefix: p.prefix,
    price: (p.priceMinor / 100).toFixed(2),
    countryName: p.countryName,
  }));

export const newRow = (): PriceRow => ({ key: ++rowKey, prefix: '', price: '0.00', countryName: null });

/** The rows as the API takes them, or the first row's problem. */
export function toPrices(
  rows: PriceRow[],
): { prices: { prefix: string; priceMinor: number }[] } | { error: string } {
  const prices = [];
  for (const [i, r] of rows.entries()) {
    const minor = toMinor(r.price, 7);
    if (minor === null)
      return {
        error: translate('Row {{row}}: "{{price}}" is not a price (e.g. 0.05)', {
          row: i + 1,
          price: r.price,
        }),
      };
    if (r.prefix && !/^\+[1-9]\d{0,14}$/.test(r.prefix.trim()))
      return { error: translate('Row {{row}}: a prefix is + and digits, e.g. +44', { row: i + 1 }) };
    prices.push({ prefix: r.prefix.trim(), priceMinor: minor });
  }
  return { prices };
}
