import type { StatementDto, StatementEntryDto } from '@wren/contracts';
import { CSV_BOM, csvCell, majorUnits } from '../../shared/csv';
import { localTime, monthTitle } from './statement-format';

/**
 * A statement as CSV, in three sections separated by a blank line: the summary (one label and value
 * a row), the entries (a header row, then one row per entry, oldest first, with the running
 * balance), and usage by country. Amounts are plain major units of the currency (5 cents → 0.05);
 * times are the statement's time zone's wall clock. Every text cell is guarded against formula
 * injection (shared/csv.ts), so an account name or a note starting with = or - is text; a cell that
 * is a plain number (-1.50) is written as it is, so a negative balance stays a number.
 */
const NUMBER = /^-?\d+(\.\d+)?$/;

/** One CSV record (CRLF): numbers as they are, every other cell through csvCell's guard. */
const csvLine = (cells: readonly string[]) =>
  `${cells.map((c) => (NUMBER.test(c) ? c : csvCell(c))).join(',')}\r\n`;

export async function statementCsv(
  s: StatementDto,
  entries: () => AsyncGenerator<StatementEntryDto[]>,
): Promise<string> {
  const m = (minor: number) => majorUnits(minor, s.currency);
  const out: string[] = [CSV_BOM];
  out.push(csvLine(['Statement', monthTitle(s.month)]));
  out.push(csvLine(['Account', s.accountName]));
  out.push(csvLine(['Account ID', s.accountId]));
  out.push(csvLine(['Period start', localTime(s.periodStart, s.timeZone)]));
  out.push(csvLine(['Period end', localTime(s.periodEnd, s.timeZone)]));
  out.push(csvLine(['Time zone', `${s.timeZone} (${s.timeZoneNote})`]));
  out.push(csvLine(['Currency', s.currency]));
  out.push(csvLine(['Opening balance', m(s.openingBalanceMinor)]));
  for (const t of s.totals) out.push(csvLine([t.label, m(t.amountMinor)]));
  out.push(csvLine(['Closing balance', m(s.closingBalanceMinor)]));
  out.push(csvLine(['Entries', String(s.entryCount)]));
  out.push(
    csvLine([
      'Status',
      s.closed ? 'Closed' : `Open (month in progress, as of ${localTime(s.generatedAt, s.timeZone)})`,
    ]),
  );
  out.push('\r\n');
  out.push(csvLine(['Date', 'Kind', 'Reference', 'Description', 'Credit', 'Debit', 'Balance']));
  for await (const batch of entries())
    for (const e of batch)
      out.push(
        csvLine([
          localTime(e.at, s.timeZone),
          e.kindLabel,
          e.reference ?? '',
          e.description,
          e.amountMinor > 0 ? m(e.amountMinor) : '',
          e.amountMinor < 0 ? m(-e.amountMinor) : '',
          m(e.balanceMinor),
        ]),
      );
  out.push('\r\n');
  out.push(csvLine(['Country', 'Country name', 'Messages', 'Parts', 'Charged', 'Refunded', 'Cost']));
  for (const u of s.usage)
    out.push(
      csvLine([
        u.country ?? '',
        u.countryName,
        String(u.messages),
        String(u.parts),
        m(u.chargedMinor),
        m(u.refundedMinor),
        m(u.costMinor),
      ]),
    );
  return out.join('');
}
