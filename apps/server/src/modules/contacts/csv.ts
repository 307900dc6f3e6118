/** Cells a spreadsheet would run as a formula (CSV injection); exports prefix them with a quote. */
const FORMULA_START = /^[=+\-@\t\r]/;

export function guardCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** Undoes `guardCell`, so an exported file imports back unchanged. */
export function unguardCell(value: string): string {
  return value.length > 1 && value.startsWith("'") && FORMULA_START.test(value.slice(1))
    ? value.slice(1)
    : value;
}

function csvCell(value: string): string {
  const v = guardCell(value);
  return /[",\r\n]/.test(v) || v !== v.trim() ? `"${v.replace(/"/g, '""')}"` : v;
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
