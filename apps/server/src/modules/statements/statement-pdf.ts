import type { StatementDto, StatementEntryDto } from '@wren/contracts';
import PDFDocument from 'pdfkit';
import { attachment } from '../../shared/csv';
import { formatMoney, localTime, monthTitle } from './statement-format';

/** The answer headers of a statement's PDF download named `fileName` (never cached). */
export const pdfDownloadHeaders = (fileName: string) => ({
  'content-type': 'application/pdf',
  'content-disposition': attachment(fileName),
  'cache-control': 'no-store',
});

const MARGIN = 48;
const ROW = 15;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const MUTED = '#555555';

/**
 * The standard PDF fonts (no font file to ship) cover Windows-1252 only: any other character is
 * shown as "?" rather than as a wrong glyph.
 */

const OUTSIDE_WINANSI = /[^\u0020-\u007e\u00a0-\u00ff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/gu;
const printable = (s: string) => s.replace(/\s+/g, ' ').replace(OUTSIDE_WINANSI, '?');

interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

/**
 * A statement as a PDF (pdfkit, A4): the account and period, the summary of balances and totals,
 * every entry in a table that continues on new pages with its header repeated, then usage by
 * country; "Page n of m" on every page. Built in memory from the entries' batches.
 */
export async function statementPdf(
  s: StatementDto,
  entries: () => AsyncGenerator<StatementEntryDto[]>,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: `Statement ${s.month} – ${printable(s.accountName)}`,
      Author: 'Wren',
      Subject: `Monthly statement for ${monthTitle(s.month)}`,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const money = (minor: number) => formatMoney(minor, s.currency);
  const left = MARGIN;
  const right = doc.page.width - MARGIN;
  const bottom = () => doc.page.height - MARGIN - 20;

  /** `text` cut with an ellipsis to fit `width` in the current font. */
  const fit = (text: string, width: number) => {
    const t = printable(text);
    if (doc.widthOfString(t) <= width) return t;
    let lo = 0;
    let hi = t.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (doc.widthOfString(`${t.slice(0, mid)}…`) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${t.slice(0, lo)}…`;
  };

  const row = (cols: Column[], cells: string[], opts: { bold?: boolean; color?: string } = {}) => {
    if (doc.y + ROW > bottom()) doc.addPage();
    const y = doc.y;
    doc
      .font(opts.bold ? BOLD : FONT)
      .fontSize(8.5)
      .fillColor(opts.color ?? 'black');
    let x = left;
    cols.forEach((c, i) => {
      doc.text(fit(cells[i] ?? '', c.width - 6), x, y, {
        width: c.width - 6,
        align: c.align ?? 'left',
        lineBreak: false,
      });
      x += c.width;
    });
    doc.x = left;
    doc.y = y + ROW;
  };

  /** A table's title, then its header row; the function returned adds a row (on a new page when full). */
  const table = (title: string, cols: Column[], continued = title) => {
    const header = () => {
      row(
        cols,
        cols.map((c) => c.title),
        { bold: true },
      );
      doc
        .moveTo(left, doc.y - 3)
        .lineTo(right, doc.y - 3)
        .lineWidth(0.5)
        .strokeColor('#999999')
        .stroke();
    };
    doc
      .font(BOLD)
      .fontSize(12)
      .fillColor('black')
      .text(title, left, doc.y + 6);
    doc.moveDown(0.4);
    header();
    return (cells: string[], opts?: { bold?: boolean; color?: string }) => {
      if (doc.y + ROW > bottom()) {
        doc.addPage();
        doc.font(BOLD).fontSize(9).fillColor(MUTED).text(`${continued} (continued)`, left, doc.y);
        doc.moveDown(0.3);
        header();
      }
      row(cols, cells, opts);
    };
  };

  // Heading: who, which month, which zone.
  doc
    .font(BOLD)
    .fontSize(18)
    .text(`Statement: ${monthTitle(s.month)}`, left, MARGIN);
  doc.font(FONT).fontSize(10).fillColor('black');
  doc.text(printable(s.accountName));
  doc.fillColor(MUTED).fontSize(9);
  doc.text(`Account ID ${s.accountId}`);
  doc.text(
    `Period ${localTime(s.periodStart, s.timeZone)} to ${localTime(s.periodEnd, s.timeZone)} (${s.timeZone}, ${s.timeZoneNote})`,
  );
  doc.text(
    s.closed
      ? `Closed month. Generated ${localTime(s.generatedAt, s.timeZone)}.`
      : `Month in progress: figures as of ${localTime(s.generatedAt, s.timeZone)}.`,
  );
  doc.moveDown(0.8);

  // Summary.
  const summary = table('Summary', [
    { title: '', width: 300 },
    { title: `Amount (${s.currency})`, width: right - left - 300, align: 'right' },
  ]);
  summary(['Opening balance', money(s.openingBalanceMinor)], { bold: true });
  for (const t of s.totals)
    summary([`${t.label} (${t.entries} ${t.entries === 1 ? 'entry' : 'entries'})`, money(t.amountMinor)]);
  summary(['Closing balance', money(s.closingBalanceMinor)], { bold: true });
  doc.moveDown(0.6);

  // Entries.
  const width = right - left;
  const entryRow = table(
    `Entries (${s.entryCount})`,
    [
      { title: 'Date', width: 86 },
      { title: 'Kind', width: 66 },
      { title: 'Reference', width: 76 },
      { title: 'Description', width: width - 86 - 66 - 76 - 72 - 72 },
      { title: 'Amount', width: 72, align: 'right' },
      { title: 'Balance', width: 72, align: 'right' },
    ],
    'Entries',
  );
  let any = false;
  for await (const batch of entries())
    for (const e of batch) {
      any = true;
      entryRow([
        localTime(e.at, s.timeZone).slice(0, 16),
        e.kindLabel,
        e.reference ?? '',
        e.description,
        money(e.amountMinor),
        money(e.balanceMinor),
      ]);
    }
  if (!any) row([{ title: '', width }], ['No entries this month.'], { color: MUTED });
  doc.moveDown(0.6);

  // Usage by country.
  const usageRow = table('Usage by country', [
    { title: 'Country', width: width - 4 * 70 - 60 },
    { title: 'Messages', width: 60, align: 'right' },
    { title: 'Parts', width: 70, align: 'right' },
    { title: 'Charged', width: 70, align: 'right' },
    { title: 'Refunded', width: 70, align: 'right' },
    { title: 'Cost', width: 70, align: 'right' },
  ]);
  for (const u of s.usage)
    usageRow([
      u.countryName,
      String(u.messages),
      String(u.parts),
      money(u.chargedMinor),
      money(u.refundedMinor),
      money(u.costMinor),
    ]);
  if (s.usage.length === 0) row([{ title: '', width }], ['No messages this month.'], { color: MUTED });

  // "Page n of m" on every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // In the bottom margin: without it pdfkit would start a new page for the footer.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font(FONT)
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        `${printable(s.accountName)} · ${s.month} · Page ${i + 1} of ${range.count}`,
        left,
        doc.page.height - MARGIN,
        { width, align: 'center', lineBreak: false },
      );
    doc.page.margins.bottom = margin;
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}
