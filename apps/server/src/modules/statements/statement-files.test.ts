import { inflateSync } from 'node:zlib';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, type TestServer } from '../../../test/harness';
import { insertSent, postAt } from './test-fixtures';

/** A statement's CSV and PDF downloads, checked for their content. */
let server: TestServer;
let owner: ApiClient;
let accountId: string;

const MANY = 130;

beforeAll(async () => {
  server = await startServer();
  owner = server.client();
  // A name a spreadsheet would run as a formula.
  const reg = await owner.register({ name: '=HYPERLINK("http://evil")' });
  accountId = reg.user.accountId;
  await postAt(server.ctx.db, accountId, [
    { at: '2025-06-02T08:00:00Z', amountMinor: 1000, kind: 'topup', reference: 'pay:1' },
    { at: '2025-06-03T08:00:00Z', amountMinor: -1500, kind: 'adjustment', note: '-overdraft, agreed' },
    ...Array.from({ length: MANY }, (_, i) => ({
      at: new Date(Date.parse('2025-06-04T00:00:00Z') + i * 60_000).toISOString(),
      amountMinor: -5,
      kind: 'sms_debit',
      reference: `send:${i}`,
      note: i === 0 ? '@SUM(A1:A9)' : `Send ${i}`,
    })),
  ]);
  await insertSent(server.ctx.db, accountId, [
    { to: '+447400123456', at: '2025-06-04T10:00:00Z', segments: 2, priceMinor: 8 },
  ]);
});
afterAll(async () => {
  await server?.close();
});

/** The text a PDF shows: every (Flate) content stream inflated, the hex strings of its TJ arrays decoded. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    let body: string;
    try {
      body = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const tj of body.matchAll(/\[(.*?)\]\s*TJ/g))
      out.push(
        [...tj[1]!.matchAll(/<([0-9a-fA-F]*)>/g)]
          .map((h) => Buffer.from(h[1]!, 'hex').toString('latin1'))
          .join(''),
      );
  }
  return out.join('\n');
}

describe('statement files', () => {
  it('CSV: summary, every entry with credit, debit and running balance, usage; formulas guarded', async () => {
    const res = await owner.get('/api/statements/2025-06/csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('wren-statement-2025-06.csv');
    const text = (res.body as string).replace(/^\uFEFF/, '');
    const sections = text.split('\r\n\r\n');
    expect(sections).toHaveLength(3);
    const summary = Object.fromEntries(
      Papa.parse<string[]>(sections[0]!.trim()).data.map((r) => [r[0], r[1]]),
    );
    expect(summary).toMatchObject({
      Statement: 'June 2025',
      Account: `'=HYPERLINK("http://evil")`,
      'Opening balance': '0.00',
      'Top-ups and credits': '10.00',
      Adjustments: '-15.00',
      'SMS charges': '-6.50',
      'Closing balance': '-11.50',
      Entries: String(MANY + 2),
      'Time zone': 'UTC (UTC: the account owner has no time zone set)',
    });
    const entries = Papa.parse<string[]>(sections[1]!.trim()).data;
    expect(entries[0]).toEqual(['Date', 'Kind', 'Reference', 'Description', 'Credit', 'Debit', 'Balance']);
    expect(entries).toHaveLength(MANY + 3);
    expect(entries[1]).toEqual(['2025-06-02 08:00:00', 'Top-up', 'pay:1', 'Top-up', '10.00', '', '10.00']);
    // A note starting with - or @ is text; a negative balance stays a number.
    expect(entries[2]).toEqual([
      '2025-06-03 08:00:00',
      'Adjustment',
      '',
      "'-overdraft, agreed",
      '',
      '15.00',
      '-5.00',
    ]);
    expect(entries[3]![3]).toBe("'@SUM(A1:A9)");
    expect(entries.at(-1)).toEqual([
      '2025-06-04 02:09:00',
      'SMS charge',
      `send:${MANY - 1}`,
      `Send ${MANY - 1}`,
      '',
      '0.05',
      '-11.50',
    ]);
    const usage = Papa.parse<string[]>(sections[2]!.trim()).data;
    expect(usage).toEqual([
      ['Country', 'Country name', 'Messages', 'Parts', 'Charged', 'Refunded', 'Cost'],
      ['GB', 'United Kingdom (GB)', '1', '2', '0.08', '0.00', '0.08'],
    ]);
  });

  it('PDF: a real PDF with the account, the totals, every entry over several pages, and usage', async () => {
    const res = await fetch(`${server.url}/api/statements/2025-06/pdf`, {
      headers: { authorization: `Bearer ${owner.accessToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain('wren-statement-2025-06.pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toMatch(/%%EOF/);
    const pages = pdf.toString('latin1').match(/\/Type \/Page\b/g) ?? [];
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const text = pdfText(pdf);
    expect(text).toContain('Statement: June 2025');
    expect(text).toContain('=HYPERLINK("http://evil")');
    expect(text).toContain('Closing balance');
    expect(text).toContain('-$11.50');
    expect(text).toContain('Entries (continued)');
    expect(text).toContain(`Send ${MANY - 1}`);
    expect(text).toContain('United Kingdom (GB)');
    expect(text).toContain(`Page ${pages.length} of ${pages.length}`);
  });

  it('PDF and CSV of an empty month say there is nothing', async () => {
    const csv = await owner.get('/api/statements/2025-02/csv');
    expect(csv.status).toBe(200);
    const sections = (csv.body as string).split('\r\n\r\n');
    expect(sections[1]!.trim().split('\r\n')).toHaveLength(1);
    const res = await fetch(`${server.url}/api/statements/2025-02/pdf`, {
      headers: { authorization: `Bearer ${owner.accessToken}` },
    });
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain('No entries this month.');
    expect(text).toContain('No messages this month.');
  });
});
