import { ErrorCode, priceInputSchema, type ImportResult, type RatePlanDetail } from '@wren/contracts';
import Papa from 'papaparse';
import { AppError } from '../../platform/errors';
import { CSV_BOM, csvLine, majorUnits, unguardCell } from '../../shared/csv';

/** Parses a price in major units ("0.05", "5") to minor units, exactly (no floating point). */
export function parseMajor(text: string, currency: string): number | null {
  const digits =
    new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
    2;
  const m = /^(\d{1,7})(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > digits) return null;
  return Number(m[1]) * 10 ** digits + Number(frac.padEnd(digits, '0') || '0');
}

/**
 * A rate plan's prices read from CSV: a header row with `prefix` and `price` (major units of
 * `currency`, e.g. 0.05); any other column (country) is ignored. Every bad row is in `rejected`
 * with its line; a file without those columns is refused.
 */
export function parsePriceCsv(text: string, currency: string) {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const rows = parsed.data;
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const prefixCol = header.indexOf('prefix');
  const priceCol = header.findIndex((h) => h === 'price' || h === 'price_per_segment');
  if (prefixCol < 0 || priceCol < 0) {
    throw new AppError(
      ErrorCode.UNPROCESSABLE,
      'The first row must name the columns, with "prefix" and "price" among them',
    );
  }
  const rejected: ImportResult['rejected'] = [];
  const prices: { prefix: string; priceMinor: number }[] = [];
  const lineOf = new Map<string, number>();
  rows.slice(1).forEach((cells, i) => {
    const line = i + 2;
    const rawPrefix = unguardCell((cells[prefixCol] ?? '').trim());
    const rawPrice = unguardCell((cells[priceCol] ?? '').trim());
    const value = `${rawPrefix},${rawPrice}`;
    const priceMinor = parseMajor(rawPrice, currency);
    const check = priceInputSchema.safeParse({ prefix: rawPrefix, priceMinor: priceMinor ?? -1 });
    if (priceMinor === null) {
      rejected.push({
        line,
        value,
        message: `"${rawPrice}" is not a price in ${currency} (e.g. 0.05)`,
      });
    } else if (!check.success) {
      rejected.push({ line, value, message: check.error.issues[0]?.message ?? 'Invalid row' });
    } else if (lineOf.has(check.data.prefix)) {
      rejected.push({
        line,
        value,
        message: `The prefix ${check.data.prefix || '(empty)'} is already on line ${lineOf.get(check.data.prefix)}`,
      });
    } else {
      lineOf.set(check.data.prefix, line);
      prices.push(check.data);
    }
  });
  if (rows.length < 2) rejected.push({ line: 1, value: '', message: 'The file has no prices' });
  return { rejected, prices };
}

/** A plan's prices as the CSV an import reads back (prefix, country, price in major units). */
export function priceListCsv(plan: RatePlanDetail) {
  let body = CSV_BOM + csvLine(['prefix', 'country', 'price']);
  for (const p of plan.prices)
    body += csvLine([p.prefix, p.country ?? '', majorUnits(p.priceMinor, plan.currency)]);
  return body;
}
