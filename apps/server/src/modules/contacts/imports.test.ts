import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createGroup, importFile, ukMobiles, upload } from './test-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const reportOf = async (c: ReturnType<TestServer['client']>, groupId: string, importId: string) => {
  const res = await c.get(`/api/groups/${groupId}/imports/${importId}/report`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".*-report\.csv"/);
  return Papa.parse<string[]>(res.body as string, { skipEmptyLines: true }).data;
};

const tally = (rows: string[][]) => {
  const t: Record<string, number> = {};
  for (const r of rows.slice(1)) t[r[3]!] = (t[r[3]!] ?? 0) + 1;
  return t;
};

describe('CSV import of 100k rows', () => {
  it('imports with exact counts and report, stays responsive, and keeps the group count right', async () => {
    const c = server.client();
    const { user } = await c.register();
    const g = await createGroup(c, 'Big');
    const numbers = ukMobiles(99_000);
    // 300 of them are already in the group.
    const seed = await importFile(c, g.id, 'seed.csv', `phone\n${numbers.slice(0, 300).join('\n')}\n`);
    expect(seed.result).toMatchObject({ status: 'completed', inserted: 300 });

    const lines = ['Phone,Name,City'];
    let invalid = 0;
    let missing = 0;
    let dups = 0;
    for (let i = 0; i < numbers.length; i++) {
      lines.push(`${numbers[i]},Contact ${i},City ${i % 50}`);
      if (i % 198 === 0 && invalid < 400) {
        lines.push(`12345${i},Bad ${i},X`);
        invalid += 1;
      }
      if (i % 990 === 500 && missing < 100) {
        lines.push(`,No phone ${i},X`);
        missing += 1;
      }
      if (i % 198 === 100 && dups < 500) {
        lines.push(`${numbers[i - 50]},Again ${i},X`);
        dups += 1;
      }
    }
    while (dups < 500) {
      lines.push(`${numbers[dups]},Again,X`);
      dups += 1;
    }
    while (invalid < 400) {
      lines.push(`+1 000,Bad,X`);
      invalid += 1;
    }
    expect([lines.length - 1, invalid, missing, dups]).toEqual([100_000, 400, 100, 500]);
    const csv = `${lines.join('\r\n')}\r\n`;

    const t0 = Date.now();
    const up = await upload(c, g.id, 'big.csv', csv);
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({
      fileType: 'csv',
      columns: ['Phone', 'Name', 'City'],
      hasHeader: true,
      rowCountGuess: 100_000,
      suggestedMapping: { phone: 'Phone', name: 'Name', fields: { City: 'City' } },
    });
    expect(up.body.previewRows[0]).toEqual([numbers[0], 'Contact 0', 'City 0']);
    const commit = await c.post(`/api/groups/${g.id}/imports/${up.body.importId}/commit`, {
      mapping: { phone: 'Phone', name: 'Name', fields: { city: 'City' } },
    });
    expect(commit.status).toBe(202);
    expect(commit.body.status).toBe('running');
    expect((await c.post(`/api/groups/${g.id}/imports/${up.body.importId}/commit`)).status).toBe(409);

    // The server keeps answering while the import runs.
    let slowest = 0;
    let polls = 0;
    let result;
    for (;;) {
      const s = Date.now();
      const groups = await c.get('/api/groups');
      const status = await c.get(`/api/groups/${g.id}/imports/${up.body.importId}`);
      slowest = Math.max(slowest, Date.now() - s);
      polls += 1;
      expect(groups.status).toBe(200);
      if (status.body.status !== 'running') {
        result = status.body;
        break;
      }
      expect(status.body.processed).toBeLessThanOrEqual(100_000);
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (Date.now() - t0) / 1000;
    console.log(`100k CSV import: ${seconds.toFixed(1)} s, ${polls} polls, slowest poll ${slowest} ms`);
    expect(result).toMatchObject({
      status: 'completed',
      processed: 100_000,
      inserted: 99_000 - 300,
      invalid: 500,
      duplicates: 500 + 300,
      error: null,
      finishedAt: expect.any(String),
    });
    expect(polls).toBeGreaterThan(1);
    expect(slowest).toBeLessThan(3000);

    const report = await reportOf(c, g.id, up.body.importId);
    expect(report[0]).toEqual(['Row', 'Phone', 'Name', 'Reason']);
    expect(tally(report)).toEqual({
      'Invalid phone number': 400,
      'Missing phone number': 100,
      'Duplicate in the file': 500,
      'Already in the group': 300,
    });
    expect(report.find((r) => r[3] === 'Invalid phone number')).toEqual([
      '3',
      '123450',
      'Bad 0',
      'Invalid phone number',
    ]);

    const group = (await c.get(`/api/groups/${g.id}`)).body;
    expect(group.contactCount).toBe(99_000);
    const counted = await server.ctx.db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', g.id)
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBe(99_000);
    const sample = await c.get(`/api/groups/${g.id}/contacts?q=${encodeURIComponent('Contact 98765')}`);
    expect(sample.body.items).toEqual([
      expect.objectContaining({ phone: numbers[98_765], name: 'Contact 98765', fields: { city: 'City 15' } }),
    ]);
    const file = await server.ctx.db
      .selectFrom('contact_imports')
      .select('file_base64')
      .where('id', '=', up.body.importId)
      .executeTakeFirstOrThrow();
    expect(file.file_base64).toBeNull();
    expect((await c.get('/api/me/events')).body.items[0].kind).toBe('contacts.imported');

    // The export streams all of them.
    const exported = await c.get(`/api/groups/${g.id}/contacts/export`);
    expect(exported.status).toBe(200);
    expect((exported.body as string).split('\r\n').filter(Boolean)).toHaveLength(99_001);
    expect(user.accountId).toBeDefined();
  });
});

describe('XLSX import', () => {
  it('reads numbers, rich text and formulas from the first sheet, with exact counts', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    await c.post(`/api/groups/${g.id}/contacts`, { phone: '+447911000003', name: 'Existing' });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Contacts');
    ws.addRow(['Mobile', 'Full Name', 'Company', 'Notes']);
    ws.addRow([447911000001, 'Number Cell', 'Acme', 'stored as a number']); // 2 ok
    ws.addRow([
      '+44 7911 000002',
      { richText: [{ text: 'Rich ' }, { text: 'Text', font: { bold: true } }] },
      'Acme',
      '',
    ]); // 3 ok
    ws.addRow(['+447911000003', 'Already there', '', '']); // 4 in group
    ws.addRow([]); // 5 blank: skipped
    ws.addRow(['not a phone', 'Bad', '', '']); // 6 invalid
    ws.addRow(['+447911000001', 'Again', '', '']); // 7 in-file duplicate
    ws.addRow(['+447911000004', 'Formula', { formula: 'UPPER("acme")', result: 'ACME' }, 42]); // 8 ok
    ws.addRow(['', 'No phone', '', '']); // 9 missing
    wb.addWorksheet('Ignored').addRow(['+447911000009']);
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    const { upload: up, result } = await importFile(
      c,
      g.id,
      'contacts.xlsx',
      bytes,
      undefined,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(up).toMatchObject({
      fileType: 'xlsx',
      columns: ['Mobile', 'Full Name', 'Company', 'Notes'],
      rowCountGuess: 7,
      suggestedMapping: {
        phone: 'Mobile',
        name: 'Full Name',
        fields: { Company: 'Company', Notes: 'Notes' },
      },
    });
    expect(up.previewRows[0]).toEqual(['447911000001', 'Number Cell', 'Acme', 'stored as a number']);
    expect(result).toMatchObject({
      status: 'completed',
      processed: 7,
      inserted: 3,
      invalid: 2,
      duplicates: 2,
    });
    const report = await reportOf(c, g.id, up.importId);
    expect(report.slice(1)).toEqual([
      // Report cells are guarded against formula injection like the export; a phone number's + is data.
      ['4', '+447911000003', 'Already there', 'Already in the group'],
      ['6', 'not a phone', 'Bad', 'Invalid phone number'],
      ['7', '+447911000001', 'Again', 'Duplicate in the file'],
      ['9', '', 'No phone', 'Missing phone number'],
    ]);
    const list = (await c.get(`/api/groups/${g.id}/contacts?sort=name`)).body.items;
    expect(
      list.map((x: { phone: string; name: string; fields: object }) => [x.phone, x.name, x.fields]),
    ).toEqual([
      ['+447911000003', 'Existing', {}],
      ['+447911000004', 'Formula', { Company: 'ACME', Notes: '42' }],
      ['+447911000001', 'Number Cell', { Company: 'Acme', Notes: 'stored as a number' }],
      ['+447911000002', 'Rich Text', { Company: 'Acme' }],
    ]);
  });
});

describe('XLSX dates', () => {
  it("a date cell reads as its date (and time), not as Excel's day number", async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Contacts');
    ws.addRow(['Phone', 'Name', 'Born', 'Appointment']);
    ws.addRow([
      '+447911000021',
      'Ann',
      new Date(Date.UTC(1990, 4, 17)),
      new Date(Date.UTC(2026, 11, 2, 14, 30)),
    ]);
    ws.getColumn(3).numFmt = 'yyyy-mm-dd';
    ws.getColumn(4).numFmt = 'dd/mm/yyyy hh:mm';
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    const { upload, result } = await importFile(
      c,
      g.id,
      'dates.xlsx',
      bytes,
      { phone: 'Phone', name: 'Name', fields: { born: 'Born', appointment: 'Appointment' } },
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(upload.previewRows[0]).toEqual(['+447911000021', 'Ann', '1990-05-17', '2026-12-02 14:30']);
    expect(result).toMatchObject({ inserted: 1 });
    const [ann] = (await c.get(`/api/groups/${g.id}/contacts`)).body.items;
    expect(ann.fields, JSON.stringify(ann.fields)).toEqual({
      born: '1990-05-17',
      appointment: '2026-12-02 14:30',
    });
  });
});

describe('XLSX number formats', () => {
  it('a number reads as the sheet shows it: currency, percent, leading zeros; General keeps the whole number', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Contacts');
    ws.addRow(['Phone', 'Name', 'Balance', 'Discount', 'Zip', 'Account', 'Total', 'Euro', 'Ref']);
    // A US number kept as a number and shown by a phone format; a UK mobile kept as a number with
    // its leading zero shown by a format of eleven zeros.
    ws.addRow([
      2125550131,
      'Ann',
      1234.5,
      0.125,
      2134,
      447911000099,
      { formula: 'C2*2', result: 2469 },
      12.5,
      7911000031,
    ]);
    ws.addRow([2125550132, 'Bob', -5.5, 1, 90210, 12, { formula: 'C3*2', result: -11 }, 1000, 7911000032]);
    // Phone numbers under formats that change their digits as shown: read as the numbers they are.
    ws.addRow([2125550133, 'Cy']);
    ws.getColumn(1).numFmt = '(000) 000-0000';
    ws.getCell('A3').numFmt = '#,##0.00';
    ws.getCell('A4').numFmt = '0.00E+00';
    ws.getColumn(3).numFmt = '"£"#,##0.00;[Red]-"£"#,##0.00';
    ws.getColumn(4).numFmt = '0.0%';
    ws.getColumn(5).numFmt = '00000';
    ws.getColumn(7).numFmt = '$#,##0';
    ws.getColumn(8).numFmt = '[$€-407]#,##0.00';
    ws.getColumn(9).numFmt = '00000000000';
    const bytes = new Uint8Array(await wb.xlsx.writeBuffer());
    const { upload, result } = await importFile(
      c,
      g.id,
      'numbers.xlsx',
      bytes,
      {
        phone: 'Phone',
        name: 'Name',
        fields: {
          balance: 'Balance',
          discount: 'Discount',
          zip: 'Zip',
          account: 'Account',
          total: 'Total',
          euro: 'Euro',
          ref: 'Ref',
        },
      },
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(upload.previewRows).toEqual([
      [
        '(212) 555-0131',
        'Ann',
        '£1,234.50',
        '12.5%',
        '02134',
        '447911000099',
        '$2,469',
        '€12,50',
        '07911000031',
      ],
      ['2,125,550,132.00', 'Bob', '-£5.50', '100.0%', '90210', '12', '-$11', '€1.000,00', '07911000032'],
      ['2.13E+09', 'Cy', '', '', '', '', '', '', ''],
    ]);
    expect(result, JSON.stringify(result)).toMatchObject({ inserted: 3, invalid: 0 });
    const contacts = (await c.get(`/api/groups/${g.id}/contacts`)).body.items as {
      phone: string;
      name: string;
      fields: Record<string, string>;
    }[];
    const ann = contacts.find((x) => x.name === 'Ann')!;
    // The formatted number reads as a US number (the default country); so do the numbers whose
    // format shows other digits.
    expect(ann.phone).toBe('+12125550131');
    expect(contacts.find((x) => x.name === 'Bob')!.phone).toBe('+12125550132');
    expect(contacts.find((x) => x.name === 'Cy')!.phone).toBe('+12125550133');
    expect(ann.fields, JSON.stringify(ann.fields)).toEqual({
      balance: '£1,234.50',
      discount: '12.5%',
      zip: '02134',
      account: '447911000099',
      total: '$2,469',
      euro: '€12,50',
      ref: '07911000031',
    });
  });
});

describe('other file shapes', () => {
  it('reads a headerless .txt list, a semicolon CSV in Windows-1252, and a CSV named .xlsx', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    const txt = await importFile(
      c,
      g.id,
      'numbers.txt',
      '+14155550101\n\n(415) 555-0102\n+14155550103\n',
      undefined,
      'text/plain',
    );
    expect(txt.upload).toMatchObject({
      hasHeader: false,
      columns: ['Column 1'],
      suggestedMapping: { phone: 'Column 1' },
    });
    expect(txt.result).toMatchObject({ processed: 3, inserted: 3 });

    const g2 = await createGroup(c);
    const latin1 = Buffer.from('Tel;Nom;Ville\n+33612345678;Zoé;Orléans\n', 'latin1');
    const semi = await importFile(c, g2.id, 'fr.csv', latin1, {
      phone: 'Tel',
      name: 'Nom',
      fields: { ville: 'Ville' },
    });
    expect(semi.upload.columns).toEqual(['Tel', 'Nom', 'Ville']);
    expect(semi.result).toMatchObject({ inserted: 1 });
    const [zoe] = (await c.get(`/api/groups/${g2.id}/contacts`)).body.items;
    expect(zoe).toMatchObject({ phone: '+33612345678', name: 'Zoé', fields: { ville: 'Orléans' } });

    // Short two-column files in each separator, ending in a line break (the empty last line must not
    // make "one column" win), and CR-only line endings.
    const dialects: [string, string][] = [
      ['semicolon', 'Phone;Name\n+14155558001;Ann\n'],
      ['tab', 'Phone\tName\n+14155558001\tAnn\n'],
      ['pipe', 'Phone|Name\n+14155558001|Ann\n'],
      ['semicolon crlf', 'Phone;Name\r\n+14155558001;Ann\r\n+14155558002;Bob\r\n'],
      ['comma cr only', 'Phone,Name\r+14155558001,Ann\r+14155558002,Bob\r'],
    ];
    for (const [label, text] of dialects) {
      const gd = await createGroup(c);
      const rows = text.split(/\r\n|\r|\n/).filter(Boolean).length - 1;
      const d = await importFile(c, gd.id, `${label}.csv`, text, {
        phone: 'Phone',
        name: 'Name',
        fields: {},
      });
      expect(d.upload.columns, label).toEqual(['Phone', 'Name']);
      expect(d.result, label).toMatchObject({ inserted: rows, invalid: 0 });
      const items = (await c.get(`/api/groups/${gd.id}/contacts?sort=name`)).body.items as { name: string }[];
      expect(items.map((i) => i.name).sort(), label).toEqual(['Ann', 'Bob'].slice(0, rows));
    }

    const g3 = await createGroup(c);
    const renamed = await importFile(c, g3.id, 'really-a-csv.xlsx', 'phone\n+14155550199\n');
    expect(renamed.upload.fileType).toBe('csv');
    expect(renamed.result.inserted).toBe(1);
  });
});
