import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { format as formatNumber } from 'numfmt';
import { ErrorCode } from '@wren/contracts';
import { AppError } from '../../platform/errors';

/** One record of an import file: its row number in the file (1-based) and its cells as text. */
export interface FileRow {
  row: number;
  /** Each cell as the sheet shows it (an XLSX number with its number format applied). */
  cells: string[];
  /** XLSX: a number cell's plain number, where its format shows something else ("$1,234.50"). */
  numbers?: (string | undefined)[];
}

/**
 * Cell `i` read as a phone number: what the sheet shows when that is the number with only leading
 * zeros or punctuation added ("07911000031", "(212) 555-0131"), else the number itself: a phone
 * number under a "0.00" or scientific format shows "7911000031.00" or "7.91E+09", which is not it.
 */
export function phoneCell(r: FileRow, i: number): string {
  const shown = r.cells[i] ?? '';
  const plain = r.numbers?.[i];
  if (plain === undefined) return shown;
  return shown.replace(/\D/g, '').replace(/^0+/, '') === plain ? shown : plain;
}

const CHUNK = 64 * 1024;

function* slices<T extends string | Uint8Array>(whole: T, onSlice?: (end: number) => void): Generator<T> {
  for (let i = 0; i < whole.length; i += CHUNK) {
    onSlice?.(Math.min(whole.length, i + CHUNK));
    yield whole.slice(i, i + CHUNK) as T;
  }
}

/** The delimiter papaparse detects in the start of the text (comma when there is none). */
export function detectDelimiter(text: string): string {
  const result = Papa.parse<string[]>(text.slice(0, CHUNK), {
    preview: 20,
    delimitersToGuess: [',', ';', '\t', '|'],
    // Without it the empty line after the last record counts as a row of one field, and a short
    // file's two columns lose to "one column per line" (`Phone;Name` read as a single column).
    skipEmptyLines: true,
  });
  return result.meta.delimiter || ',';
}

/**
 * Cuts CSV text into pieces of about `size` characters that end on a record boundary: a line
 * break outside quotes (RFC 4180 quotes are doubled, so an even count means "outside").
 */
function* recordChunks(text: string, size: number): Generator<string> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      let quotes = 0;
      for (let i = start; i < end; i++) if (text.charCodeAt(i) === 34) quotes += 1;
      while (end < text.length) {
        const c = text.charCodeAt(end);
        end += 1;
        if (c === 34) quotes += 1;
        else if (c === 10 && quotes % 2 === 0) break;
      }
    }
    yield text.slice(start, end);
    start = end;
  }
}

/**
 * Streams CSV records: papaparse parses one ~256 KB piece at a time, so memory holds a piece's
 * records, not the file's. Blank lines are skipped but counted, so row numbers match the file.
 */
export async function* csvRows(text: string, delimiter: string): AsyncGenerator<FileRow> {
  let row = 0;
  for (const piece of recordChunks(text, 4 * CHUNK)) {
    const records = Papa.parse<string[]>(piece, { delimiter, skipEmptyLines: false }).data;
    // A piece ends with a line break, which papaparse reads as one more (empty) record.
    if (/\n$/.test(piece) && records.length && records[records.length - 1].join('') === '') records.pop();
    for (const cells of records) {
      row += 1;
      if (cells.length === 1 && cells[0] === '') continue;
      yield { row, cells };
    }
  }
}

/**
 * A number as the sheet shows it: its number format applied (numfmt), so "$1,234.50", "12.50%" and a
 * number kept with its leading zero by a format of zeros ("07911123456", ZIP "02134") read as they
 * look. Under the General format (or none), the whole number: Excel shows a 12-digit phone number
 * in General as "4.47911E+11", which no one means.
 */
function numberText(v: number, numFmt: string | undefined): string {
  if (numFmt && numFmt !== 'General' && numFmt !== '@') {
    try {
      return formatNumber(numFmt, v);
    } catch {
      // A format numfmt cannot read: the number itself.
    }
  }
  return Number.isInteger(v) ? v.toFixed(0) : String(v);
}

function cellText(v: ExcelJS.CellValue, numFmt?: string): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v, numFmt);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  // A date cell (styles are read, so a number formatted as a date arrives as a Date, in UTC as Excel
  // has no zones): its day, and its time of day when it has one.
  if (v instanceof Date) {
    const iso = v.toISOString();
    return iso.slice(11, 19) === '00:00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
  }
  if ('richText' in v) return v.richText.map((t) => t.text).join('');
  if ('error' in v) return '';
  if ('formula' in v || 'sharedFormula' in v)
    return cellText((v as { result?: ExcelJS.CellValue }).result ?? null, numFmt);
  if ('text' in v) return typeof v.text === 'string' ? v.text : cellText(v.text);
  return '';
}

const isFormula = (v: ExcelJS.CellValue) =>
  typeof v === 'object' && v !== null && !(v instanceof Date) && ('formula' in v || 'sharedFormula' in v);

/** Excel's own sheet limits: 1,048,576 rows and 16,384 columns (XFD). */
export const XLSX_MAX_ROWS = 1_048_576;
export const XLSX_MAX_COLUMNS = 16_384;
/** Excel's limit on the characters of one cell. */
export const XLSX_MAX_CELL_CHARS = 32_767;

const overLimit = (what: string) =>
  new AppError(ErrorCode.PAYLOAD_TOO_LARGE, `This workbook is too large to import (${what})`);

let excelModule: Promise<typeof ExcelJS> | undefined;

/**
 * exceljs, loaded on the first XLSX read rather than at start (it is about 22 MB of a node's
 * memory). Callers that turn a parse failure into "not a workbook" load it first, so a failure to
 * load the library itself stays a server error instead of blaming the user's file.
 */
export function loadExcel(): Promise<typeof ExcelJS> {
  excelModule ??= import('exceljs').then((m) => m.default);
  excelModule.catch(() => (excelModule = undefined));
  return excelModule;
}

export interface XlsxReadOptions {
  /** Reports how many of the file's bytes have been handed to the unzipper (for estimates). */
  progress?: (bytesRead: number) => void;
  /** Epoch ms after which reading stops with a 413 (a time budget). */
  deadline?: number;
}

/**
 * Streams the rows of the first worksheet of an XLSX workbook, within Excel's own limits (rows,
 * columns, characters a cell) and an optional time budget; past one it throws a 413. The zip
 * itself is checked before (import-zip-guard.ts), so no shared string or cell can be huge here.
 */
export async function* xlsxRows(bytes: Uint8Array, opts: XlsxReadOptions = {}): AsyncGenerator<FileRow> {
  for (let attempt = 1; ; attempt++) {
    let yielded = false;
    try {
      for await (const row of readXlsxRows(bytes, opts)) {
        yielded = true;
        yield row;
      }
      return;
    } catch (err) {
      if (yielded || attempt >= XLSX_READ_ATTEMPTS || !isReaderRace(err)) throw err;
    }
  }
}

/** Reads of one workbook at most, when exceljs's streaming reader loses the race below. */
const XLSX_READ_ATTEMPTS = 3;

/**
 * exceljs's streaming reader sometimes parses a deferred worksheet before `xl/workbook.xml` (which
 * exceljs itself writes last), and fails on the workbook it has not read yet
 * (github.com/exceljs/exceljs/issues/3064). On a busy machine 5 of 2,000 reads of one valid
 * workbook failed so, and the upload was refused as "not a valid XLSX workbook". No row has come
 * out by then, so the read is simply started again.
 */
const isReaderRace = (err: unknown) => err instanceof TypeError && err.message.includes("reading 'sheets'");

async function* readXlsxRows(bytes: Uint8Array, opts: XlsxReadOptions): AsyncGenerator<FileRow> {
  const excel = await loadExcel();
  const source = Readable.from(slices(bytes, opts.progress));
  const reader = new excel.stream.xlsx.WorkbookReader(source, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    // Read, so a date cell arrives as a Date rather than Excel's day number ("33010" for 17 May
    // 1990). 100,000 rows of three columns: 12.6–15.0 µs of CPU a row, against 14.7–16.4 ignored.
    styles: 'cache',
    entries: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      for await (const r of sheet) {
        if (r.number > XLSX_MAX_ROWS) throw overLimit(`more than ${XLSX_MAX_ROWS} rows`);
        if (opts.deadline !== undefined && Date.now() > opts.deadline) {
          throw overLimit('it takes too long to read');
        }
        const values = Array.isArray(r.values) ? r.values : [];
        if (values.length > XLSX_MAX_COLUMNS + 1) throw overLimit(`more than ${XLSX_MAX_COLUMNS} columns`);
        const cells: string[] = [];
        let numbers: (string | undefined)[] | undefined;
        for (let i = 1; i < values.length; i++) {
          const value = values[i];
          const numeric = typeof value === 'number' || isFormula(value);
          const text = cellText(value, numeric ? r.getCell(i).numFmt : undefined).trim();
          if (text.length > XLSX_MAX_CELL_CHARS) throw overLimit('a cell holds too much text');
          cells.push(text);
          if (numeric) {
            const plain = cellText(value);
            if (plain !== text) (numbers ??= [])[i - 1] = plain;
          }
        }
        if (cells.every((c) => c === '')) continue;
        yield numbers ? { row: r.number, cells, numbers } : { row: r.number, cells };
      }
      return; // the first worksheet only
    }
  } finally {
    source.destroy();
  }
}
