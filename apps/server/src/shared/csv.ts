/** Cells a spreadsheet would run as a formula (CSV injection): = + - @ tab CR at the start. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A phone number in E.164: its leading + is data, not a formula. */
const E164 = /^\+[1-9]\d{5,14}$/;

/** Prefixes a cell that would start a formula with an apostrophe; an E.164 number is left as is. */
export function guardCell(value: string): string {
  return FORMULA_START.test(value) && !E164.test(value) ? `'${value}` : value;
}

/** Undoes `guardCell` (and the apostrophe older exports put before phone numbers), so an export imports back unchanged. */
export function unguardCell(value: string): string {
  return value.length > 1 && value.startsWith("'") && FORMULA_START.test(value.slice(1))
    ? value.slice(1)
    : value;
}

/**
 * One CSV cell: formula cells get an apostrophe; an E.164 number keeps its + and is quoted instead
 * (a quoted field is text to a CSV reader); cells with a quote, comma, line break or outer space are quoted.
 */
export function csvCell(value: string): string {
  const v = guardCell(value);
  return E164.test(v) || /[",\r\n]/.test(v) || v !== v.trim() ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One CSV record (RFC 4180, CRLF), every cell guarded against formula injection. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A UTF-8 byte order mark, so spreadsheet programs read non-ASCII names correctly. */
export const CSV_BOM = '\uFEFF';

/** A Content-Disposition header for a download, with an ASCII fallback name. */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\w.-]+/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The headers of a CSV download: type, attachment name, and never cached (it holds account data). */
export function csvDownloadHeaders(fileName: string): Record<string, string> {
  return {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': attachment(fileName),
    'cache-control': 'no-store',
  };
}

const minorDigits = new Map<string, number>();
/** The digits of a currency's minor unit (USD 2, JPY 0), as Intl knows them; 2 when it does not. */
export function minorDigitsOf(currency: string): number {
  let digits = minorDigits.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits;
    } catch {
      digits = 2;
    }
    minorDigits.set(currency, digits ?? 2);
  }
  return digits ?? 2;
}

/** An amount in minor units as major units of its currency, plain for a spreadsheet: 5 USD cents → "0.05". */
export function majorUnits(minor: number, currency: string): string {
  const d = minorDigitsOf(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  if (d === 0) return `${sign}${abs}`;
  const s = String(abs).padStart(d + 1, '0');
  return `${sign}${s.slice(0, -d)}.${s.slice(-d)}`;
}
