const formats = new Map<string, Intl.NumberFormat>();

/** The default currency of the built-in locale (SPEC.md §9: English (US), USD). */
export const DEFAULT_CURRENCY = 'USD';

/**
 * An amount in minor units as en-US currency: 1234 USD → "$12.34", 500 JPY → "¥500".
 * The currency's own number of decimals decides the divisor; no currency means USD.
 */
export function formatMoney(minor: number, currency: string = DEFAULT_CURRENCY): string {
  const code = currency || DEFAULT_CURRENCY;
  let format = formats.get(code);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: code });
    formats.set(code, format);
  }
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
