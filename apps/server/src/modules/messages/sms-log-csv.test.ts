import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvLine, majorUnits } from '../../shared/csv';
import { smsLogCsvHeader, smsLogCsvRows, type SmsLogCsvRow } from './sms-log-csv';

/** The export as every other CSV writes a record: csvLine over all 13 cells (the reference). */
const reference = (m: SmsLogCsvRow) =>
  csvLine([
    m.createdAt,
    m.recipient,
    m.sender,
    m.status,
    m.text,
    m.encoding,
    String(m.segments),
    majorUnits(m.priceMinor, m.currency),
    m.currency,
    m.error ?? '',
    m.submittedAt ?? '',
    m.doneAt ?? '',
    m.id,
  ]);

const base: SmsLogCsvRow = {
  id: '0190f3a2-1c2b-7d3e-8f4a-000000000001',
  createdAt: '2026-05-01T10:00:00.123Z',
  recipient: '+14155550123',
  sender: 'Wren',
  status: 'delivered',
  text: 'Your code is 123456',
  encoding: 'GSM-7',
  segments: 1,
  priceMinor: 5,
  currency: 'USD',
  error: null,
  submittedAt: '2026-05-01T10:00:00.200Z',
  doneAt: null,
};

/** Cells that need the guard or quotes, and near misses that must be left alone. */
const TRICKY = [
  '',
  'plain',
  '=SUM(A1:A2)',
  '+1',
  '+14155550123',
  '+0123456789',
  '-5',
  '@cmd',
  '\tindent',
  '\rstart',
  'a "quoted" word',
  'one, two',
  'line\nbreak',
  'cr\rinside',
  ' leading space',
  'trailing space ',
  '\u00a0nbsp',
  'nbsp\u00a0',
  '\u3000ideographic',
  'ends in emoji 🙂',
  'Ünïcödé start',
  'ok=fine+inside-@',
  "'already quoted",
  '\ufeffbom',
  'x',
  ',',
  '"',
];

describe('SMS log CSV', () => {
  it('writes exactly what csvLine writes for every tricky cell in every free column', () => {
    const rows: SmsLogCsvRow[] = [];
    for (const v of TRICKY) {
      rows.push(
        { ...base, recipient: v },
        { ...base, sender: v },
        { ...base, text: v },
        { ...base, error: v },
      );
    }
    for (const priceMinor of [0, 5, -5, 12345, -1]) rows.push({ ...base, priceMinor });
    rows.push({ ...base, priceMinor: 7, currency: 'JPY' }, { ...base, priceMinor: 7, currency: 'USD' });
    rows.push({ ...base, doneAt: '2026-05-01T10:00:03.000Z', error: 'UNDELIV', status: 'undelivered' });
    rows.push({ ...base, submittedAt: null, segments: 3, encoding: 'UCS-2' });

    expect(smsLogCsvRows(rows)).toBe(rows.map(reference).join(''));
    // One at a time too (the cost cache carries over between calls).
    for (const r of rows) expect(smsLogCsvRows([r])).toBe(reference(r));
  });

  it('reads back as the same cells, with the formula guard and the E.164 number quoted', () => {
    const rows = [
      { ...base, text: '=HYPERLINK("http://x")', sender: '@Evil', error: '-1+1' },
      { ...base, text: 'multi\nline, "quoted"', priceMinor: -250 },
    ];
    const csv = smsLogCsvHeader() + smsLogCsvRows(rows);
    expect(csv).toContain(',"+14155550123",');
    const parsed = Papa.parse<string[]>(csv.trimEnd(), { newline: '\r\n' }).data;
    expect(parsed[0]).toEqual([
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
    ]);
    expect(parsed[1]).toEqual([
      base.createdAt,
      '+14155550123',
      "'@Evil",
      'delivered',
      `'=HYPERLINK("http://x")`,
      'GSM-7',
      '1',
      '0.05',
      'USD',
      "'-1+1",
      base.submittedAt,
      '',
      base.id,
    ]);
    expect(parsed[2]![4]).toBe('multi\nline, "quoted"');
    expect(parsed[2]![7]).toBe("'-2.50");
  });
});
