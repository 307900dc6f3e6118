import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createGroup, importFile } from './test-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

const contactsOf = async (c: ReturnType<TestServer['client']>, groupId: string) => {
  const items = (await c.get(`/api/groups/${groupId}/contacts?limit=200&sort=name`)).body.items as {
    phone: string;
    name: string;
    fields: Record<string, string>;
  }[];
  return items
    .map(({ phone, name, fields }) => ({ phone, name, fields }))
    .sort((a, b) => a.phone.localeCompare(b.phone));
};

describe('group export', () => {
  it('streams CSV guarded against formula injection, and round-trips through an import', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c, 'Export me');
    const people = [
      { phone: '+14155550101', name: 'Smith, "Bob"', fields: { city: 'London' } },
      { phone: '+14155550102', name: '=HYPERLINK("http://evil.example","click")', fields: { note: '=1+2' } },
      { phone: '+14155550103', name: '+1+1', fields: { note: '\tcmd', city: 'Zürich' } },
      { phone: '+14155550104', name: '-2', fields: { note: '@SUM(A1)' } },
      { phone: '+447911000005', name: 'Line\nbreak', fields: {} },
      { phone: '+447911000006', name: '', fields: { city: "'quoted" } },
    ];
    for (const p of people) expect((await c.post(`/api/groups/${g.id}/contacts`, p)).status).toBe(201);

    const res = await c.get(`/api/groups/${g.id}/contacts/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Export_me.csv"; filename*=UTF-8''Export%20me.csv`,
    );
    const rows = Papa.parse<string[]>(res.body as string, { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Phone', 'Name', 'city', 'note']);
    const byPhone = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byPhone.get('+14155550101')).toEqual(['+14155550101', 'Smith, "Bob"', 'London', '']);
    expect(byPhone.get('+14155550102')).toEqual([
      '+14155550102',
      `'=HYPERLINK("http://evil.example","click")`,
      '',
      "'=1+2",
    ]);
    expect(byPhone.get('+14155550103')).toEqual(['+14155550103', "'+1+1", 'Zürich', "'\tcmd"]);
    expect(byPhone.get('+14155550104')).toEqual(['+14155550104', "'-2", '', "'@SUM(A1)"]);
    expect(byPhone.get('+447911000005')?.[1]).toBe('Line\nbreak');
    // No cell starts with a formula character, except a phone number's +, which is data (quoted).
    for (const r of rows) for (const cell of r.slice(1)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(res.body as string).toContain('\r\n"+14155550101",');

    const copy = await createGroup(c, 'Copy');
    const { upload, result } = await importFile(c, copy.id, 'export.csv', `\uFEFF${res.body as string}`);
    expect(upload.suggestedMapping).toEqual({
      phone: 'Phone',
      name: 'Name',
      fields: { city: 'city', note: 'note' },
    });
    expect(result).toMatchObject({
      status: 'completed',
      processed: 6,
      inserted: 6,
      invalid: 0,
      duplicates: 0,
    });
    expect(await contactsOf(c, copy.id)).toEqual(await contactsOf(c, g.id));
  });

  it('a field named like an Object method (constructor, toString) is a plain column, empty where a contact lacks it', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c, 'Proto names');
    const people: { phone: string; name: string; fields: Record<string, string> }[] = [
      { phone: '+442079460002', name: 'Has them', fields: { constructor: 'y', toString: 'z', valueOf: 'v' } },
      { phone: '+442079460003', name: 'Has none', fields: {} },
    ];
    for (const p of people) expect((await c.post(`/api/groups/${g.id}/contacts`, p)).status).toBe(201);
    const res = await c.get(`/api/groups/${g.id}/contacts/export`);
    expect(res.status).toBe(200);
    const rows = Papa.parse<string[]>(res.body as string, { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Phone', 'Name', 'constructor', 'toString', 'valueOf']);
    const byPhone = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byPhone.get('+442079460002')).toEqual(['+442079460002', 'Has them', 'y', 'z', 'v']);
    expect(byPhone.get('+442079460003')).toEqual(['+442079460003', 'Has none', '', '', '']);
  });

  it('exports just the header for an empty group', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c, 'Empty');
    const res = await c.get(`/api/groups/${g.id}/contacts/export`);
    expect(res.status).toBe(200);
    expect(res.body).toBe('Phone,Name\r\n');
  });
});
