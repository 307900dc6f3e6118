import type { MessageDto } from '@wren/contracts';
import { csvLine, majorUnits } from '../../shared/csv';

/** The SMS log export's columns: the SMS log's own names, money in major units, the id last. */
const COLUMNS: [string, (m: MessageDto) => string][] = [
  ['Date', (m) => m.createdAt],
  ['Recipient', (m) => m.recipient],
  ['Sender', (m) => m.sender],
  ['Status', (m) => m.status],
  ['Message', (m) => m.text],
  ['Encoding', (m) => m.encoding],
  ['Segments', (m) => String(m.segments)],
  ['Cost', (m) => majorUnits(m.priceMinor, m.currency)],
  ['Currency', (m) => m.currency],
  ['Error', (m) => m.error ?? ''],
  ['Submitted', (m) => m.submittedAt ?? ''],
  ['Done', (m) => m.doneAt ?? ''],
  ['Message ID', (m) => m.id],
];

/** The header record of the SMS log CSV (ends with CRLF). */
export const smsLogCsvHeader = (): string => csvLine(COLUMNS.map(([name]) => name));

/** SMS log rows as CSV records (each ends with CRLF), guarded against formula injection. */
export const smsLogCsvRows = (items: readonly MessageDto[]): string =>
  items.map((m) => csvLine(COLUMNS.map(([, value]) => value(m)))).join('');
