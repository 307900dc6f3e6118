import type { MessageDto } from '@wren/contracts';
import { csvCell, csvLine, majorUnits } from '../../shared/csv';

/** What the SMS log CSV shows of a message (streamLog selects exactly these). */
export type SmsLogCsvRow = Pick<
  MessageDto,
  | 'id'
  | 'createdAt'
  | 'recipient'
  | 'sender'
  | 'status'
  | 'text'
  | 'encoding'
  | 'segments'
  | 'priceMinor'
  | 'currency'
  | 'error'
  | 'submittedAt'
  | 'doneAt'
>;

/** The SMS log export's columns: the SMS log's own names, money in major units, the id last. */
const HEADER = [
  'Date',
  'Recipient',
  'Sender',
  'Status',
  'Message',
  'Encoding',
  'Segments',
  'Cost',
  'Currency',
  'Error',
  'Submitted',
  'Done',
  'Message ID',
];

/**
 * Whether csvCell could change a cell: it starts with a formula character (which covers an E.164
 * number's +), starts or ends with white space (anything up to ' ', and any non-ASCII character,
 * which covers the rest of what trim() strips), or holds a quote, comma or line break. Character
 * codes and indexOf (a native scan) instead of csvCell's four regular expressions: almost every
 * cell is written as it is.
 */
function needsCare(v: string): boolean {
  const first = v.charCodeAt(0);
  const last = v.charCodeAt(v.length - 1);
  return (
    first <= 32 ||
    first >= 127 ||
    first === 61 || // =
    first === 43 || // +
    first === 45 || // -
    first === 64 || // @
    last <= 32 ||
    last >= 127 ||
    v.indexOf('"') !== -1 ||
    v.indexOf(',') !== -1 ||
    v.indexOf('\n') !== -1 ||
    v.indexOf('\r') !== -1
  );
}
const cell = (v: string): string => (v.length !== 0 && needsCare(v) ? csvCell(v) : v);

/** csv.ts's E.164 rule: such a number keeps its + and is quoted (a quoted field is text to a reader). */
const E164 = /^\+[1-9]\d{5,14}$/;
const recipientCell = (v: string): string => (E164.test(v) ? `"${v}"` : cell(v));

/** The cost in major units; consecutive rows mostly repeat one price. */
let lastCost = { minor: NaN, currency: '', text: '' };
function cost(minor: number, currency: string): string {
  if (minor !== lastCost.minor || currency !== lastCost.currency) {
    lastCost = { minor, currency, text: cell(majorUnits(minor, currency)) };
  }
  return lastCost.text;
}

/**
 * One record. Columns whose values cannot start a formula or need quoting are written as they are:
 * ISO times and ids (digits, letters, '-', ':', '.'), the status, encoding and currency (fixed
 * words), the segment count (a number). The others (free text, numbers, names, the cost, which is
 * negative for a refund) go through the same guard as every other CSV (shared/csv.ts).
 */
const record = (m: SmsLogCsvRow): string =>
  `${m.createdAt},${recipientCell(m.recipient)},${cell(m.sender)},${m.status},${cell(m.text)},${m.encoding},${m.segments},` +
  `${cost(m.priceMinor, m.currency)},${m.currency},${m.error === null ? '' : cell(m.error)},` +
  `${m.submittedAt ?? ''},${m.doneAt ?? ''},${m.id}\r\n`;

/** The header record of the SMS log CSV (ends with CRLF), with `extra` columns after the id. */
export const smsLogCsvHeader = (extra: readonly string[] = []): string => csvLine([...HEADER, ...extra]);

/** SMS log rows as CSV records (each ends with CRLF), guarded against formula injection. */
export function smsLogCsvRows(items: readonly SmsLogCsvRow[]): string {
  let out = '';
  for (let i = 0; i < items.length; i += 1) out += record(items[i]);
  return out;
}

/** SMS log rows with `extra(row)` cells after the id (smsLogCsvHeader's `extra` names them). */
export function smsLogCsvRowsWith<T extends SmsLogCsvRow>(
  items: readonly T[],
  extra: (row: T) => readonly string[],
): string {
  let out = '';
  for (const m of items) out += `${record(m).slice(0, -2)},${extra(m).map(csvCell).join(',')}\r\n`;
  return out;
}
