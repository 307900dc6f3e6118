import { currentLocale } from './i18n';

const formats = new Map<string, Intl.NumberFormat>();

/** The default currency of the built-in locale (SPEC.md §9: English (US), USD). */
export const DEFAULT_CURRENCY = 'USD';

/**
 * An amount in minor units in the app's language (en-US by default): 1234 USD → "$12.34", 500 JPY →
 * "¥500"; in Spanish 1234 USD → "12,34 US$".
 * The currency's own number of decimals decides the divisor; no currency means USD.
 */
export function formatMoney(minor: number, currency: string = DEFAULT_CURRENCY): string {
  const code = currency || DEFAULT_CURRENCY;
  const locale = currentLocale();
  let format = formats.get(`${locale}|${code}`);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency: code });
    formats.set(`${locale}|${code}`, format);
  }
  return format.format(minor / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}
