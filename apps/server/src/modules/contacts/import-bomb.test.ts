import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { checkXlsxZip, XLSX_LIMITS, zipEntries } from './import-zip-guard';
import { createGroup, importFile, snapshot, upload } from './test-fixtures';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A minimal zip writer (deflate, no data descriptors): enough to build a hostile workbook. */
function zip(files: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const raw = typeof content === 'string' ? Buffer.from(content) : content;
    const data = deflateRawSync(raw, { level: 9 });
    const nameBuf = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 14); // crc: unused by the readers under test
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, data);
    centrals.push(central, nameBuf);
    offset += 30 + nameBuf.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** The shared-strings bomb of finding 3: one phone row whose name is a `size`-byte shared string. */
async function sharedStringBomb(size: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Contacts');
  ws.addRow(['phone', 'name']);
  ws.addRow(['+14155550100', 'A'.repeat(size)]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('XLSX bombs (finding 3) get a 413 before parsing and import nothing', () => {
  it('refuses a shared-strings bomb (was accepted and imported)', async () => {
    const c = server.client();
    const { user } = await c.register();
    const g = await createGroup(c);
    const before = await snapshot(server.ctx.db, user.accountId);
    const bomb = await sharedStringBomb(16 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const started = Date.now();
    const res = await upload(c, g.id, 'bomb.xlsx', bomb, XLSX_TYPE);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.message).toMatch(/^This workbook is too large to import/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await snapshot(server.ctx.db, user.accountId)).toEqual(before);
  });

  it('refuses a hand-made workbook whose sheet is a ratio bomb, and one with a huge inline cell', async () => {
    const c = server.client();
    const { user } = await c.register();
    const g = await createGroup(c);
    const before = await snapshot(server.ctx.db, user.accountId);
    const shell = {
      '[Content_Types].xml':
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
      'xl/workbook.xml':
        '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets><sheet name="a" sheetId="1"/></sheets></workbook>',
    };
    const manyRows = `<sheetData>${'<row><c t="inlineStr"><is><t>x</t></is></c></row>'.repeat(400_000)}</sheetData>`;
    const ratio = zip({ ...shell, 'xl/worksheets/sheet1.xml': manyRows });
    const r1 = await upload(c, g.id, 'ratio.xlsx', ratio, XLSX_TYPE);
    expect(r1.status).toBe(413);
    expect(r1.body.message).toMatch(/compressed suspiciously well/);
    const inline = zip({
      ...shell,
      'xl/worksheets/sheet1.xml': `<sheetData><row><c t="inlineStr"><is><t>${'x'.repeat(2_000_000)}</t></is></c></row></sheetData>`,
    });
    const r2 = await upload(c, g.id, 'inline.xlsx', inline, XLSX_TYPE);
    expect(r2.status).toBe(413);
    expect(await snapshot(server.ctx.db, user.accountId)).toEqual(before);
  });

  it('still imports an ordinary workbook (the limits leave real files alone)', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Contacts');
    ws.addRow(['phone', 'name']);
    for (let i = 0; i < 2000; i++) ws.addRow([`+44791100${String(i).padStart(4, '0')}`, `Name ${i}`]);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    await expect(checkXlsxZip(bytes)).resolves.toBeUndefined();
    const { result } = await importFile(c, g.id, 'ok.xlsx', bytes, undefined, XLSX_TYPE);
    expect(result).toMatchObject({ status: 'completed', inserted: 2000 });
  });

  it('checks limits on inflated bytes, not the sizes the zip declares', async () => {
    const lying = zip({ 'xl/workbook.xml': '<a/>', 'xl/sharedStrings.xml': '<a/>'.repeat(1_000_000) });
    // Declare the shared strings as 4 bytes: the guard still measures 4 MB.
    lying.writeUInt32LE(4, lying.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 24);
    const entries = zipEntries(lying);
    expect(entries.map((e) => e.name)).toEqual(['xl/workbook.xml', 'xl/sharedStrings.xml']);
    await expect(
      checkXlsxZip(lying, { ...XLSX_LIMITS, maxSharedStringsBytes: 1024 * 1024, maxRatio: 1e9 }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/too much shared text/) });
    await expect(checkXlsxZip(Buffer.from('PK\u0003\u0004 xl/workbook.xml'))).rejects.toMatchObject({
      code: 'UNSUPPORTED_MEDIA',
    });
  });
});
