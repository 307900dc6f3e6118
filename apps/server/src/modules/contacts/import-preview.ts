import { ErrorCode, IMPORT_PREVIEW_ROWS } from '@wren/contracts';
import type { ContactImportOptions, StoredMapping } from '../../db/schema-directory';
import { AppError } from '../../platform/errors';
import { unguardCell } from './csv';
import { notAWorkbook, sniffImportFile } from './import-file';
import { readHeader, suggestMapping } from './import-mapping';
import { csvRows, detectDelimiter, loadExcel, xlsxRows, type FileRow } from './import-rows';
import { checkXlsxZip } from './import-zip-guard';

/** XLSX rows counted exactly at upload; beyond this the count is estimated from bytes read. */
const XLSX_ROWS_TO_COUNT = 100_000;
/** Time the upload may spend reading an XLSX preview. */
const XLSX_PREVIEW_BUDGET_MS = 20_000;

export interface FilePreview {
  fileType: 'csv' | 'xlsx';
  options: ContactImportOptions;
  columns: string[];
  previewRows: string[][];
  rowCountGuess: number;
  suggestedMapping: StoredMapping;
}

/**
 * Non-blank lines: the record count of a CSV without quoted line breaks. Lines end in LF or CRLF,
 * or in CR alone in a file without any LF (classic Mac OS, some Excel "CSV (Macintosh)" exports).
 */
function countLines(text: string): number {
  const eol = text.includes('\n') ? '\n' : '\r';
  let n = 0;
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf(eol, start);
    if (end < 0) end = text.length;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 13) {
        n += 1;
        break;
      }
    }
    start = end + 1;
  }
  return n;
}

async function take(rows: AsyncGenerator<FileRow>, n: number): Promise<FileRow[]> {
  const out: FileRow[] = [];
  for await (const r of rows) {
    out.push(r);
    if (out.length >= n) break;
  }
  return out;
}

/**
 * Reads what the mapping step needs from an upload: its type (by content), columns, the first
 * rows, a row count and a suggested mapping. Throws a 4xx for an empty, unreadable or row-less file.
 */
export async function previewImportFile(bytes: Buffer, defaultCountry: string): Promise<FilePreview> {
  const sniffed = sniffImportFile(bytes);
  let head: FileRow[];
  let records: number;
  let options: ContactImportOptions;
  if (sniffed.type === 'csv') {
    const delimiter = detectDelimiter(sniffed.text);
    head = await take(csvRows(sniffed.text, delimiter), IMPORT_PREVIEW_ROWS + 1);
    records = countLines(sniffed.text);
    options = { delimiter, encoding: sniffed.encoding, hasHeader: true };
  } else {
    // Sizes, ratios and text runs first: a zip bomb is refused before any XML is parsed.
    await checkXlsxZip(bytes);
    await loadExcel();
    head = [];
    let bytesRead = 0;
    let counted = 0;
    const deadline = Date.now() + XLSX_PREVIEW_BUDGET_MS;
    try {
      for await (const r of xlsxRows(bytes, { progress: (n) => (bytesRead = n), deadline })) {
        if (head.length <= IMPORT_PREVIEW_ROWS) head.push(r);
        counted += 1;
        if (counted >= XLSX_ROWS_TO_COUNT) break;
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw notAWorkbook();
    }
    records =
      counted < XLSX_ROWS_TO_COUNT ? counted : Math.round((counted * bytes.length) / Math.max(1, bytesRead));
    options = { hasHeader: true };
  }
  const first = head[0];
  if (!first) throw new AppError(ErrorCode.UNPROCESSABLE, 'The file has no rows');
  const widest = Math.max(...head.map((r) => r.cells.length));
  const { hasHeader, columns } = readHeader(first.cells, widest, defaultCountry);
  options.hasHeader = hasHeader;
  const data = (hasHeader ? head.slice(1) : head).slice(0, IMPORT_PREVIEW_ROWS);
  const rowCountGuess = Math.max(0, records - (hasHeader ? 1 : 0));
  if (data.length === 0 || rowCountGuess === 0) {
    throw new AppError(ErrorCode.UNPROCESSABLE, 'The file has a header but no contact rows');
  }
  const previewRows = data.map((r) => columns.map((_, i) => unguardCell((r.cells[i] ?? '').trim())));
  return {
    fileType: sniffed.type,
    options,
    columns,
    previewRows,
    rowCountGuess,
    suggestedMapping: suggestMapping(columns, previewRows, defaultCountry),
  };
}
