import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { createGroup, importFile, snapshot, upload, waitForImport } from './test-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('bad uploads get a clear 4xx and change nothing', () => {
  it('refuses empty, oversized, wrong-type and row-less files, and bad mappings', async () => {
    const c = server.client();
    const { user } = await c.register();
    const g = await createGroup(c);
    await c.post(`/api/groups/${g.id}/contacts`, { phone: '+14155550100' });
    const before = await snapshot(server.ctx.db, user.accountId);
    const expectError = (
      res: { status: number; body: any; headers: Headers },
      status: number,
      message: string,
    ) => {
      expect(res.status).toBe(status);
      expect(res.body.message).toBe(message);
      expect(res.headers.get('application-error')).toBe(message);
    };

    expectError(await upload(c, g.id, 'empty.csv', ''), 422, 'The file is empty');
    expectError(await upload(c, g.id, 'blank.csv', '\n  \n'), 422, 'The file is empty');
    expectError(
      await upload(c, g.id, 'header.csv', 'phone,name\n'),
      422,
      'The file has a header but no contact rows',
    );
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expectError(
      await upload(c, g.id, 'contacts.csv', png),
      415,
      'Upload a CSV or TXT text file or an XLSX workbook; this is an image',
    );
    expectError(
      await upload(c, g.id, 'contacts.csv', Buffer.from('%PDF-1.7\n...')),
      415,
      'Upload a CSV or TXT text file or an XLSX workbook; this is a PDF',
    );
    const binary = Buffer.alloc(4096, 0);
    binary.write('phone');
    expectError(
      await upload(c, g.id, 'contacts.csv', binary),
      415,
      'Upload a CSV or TXT text file or an XLSX workbook; this file is neither',
    );
    const zip = Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.from('word/document.xml')]);
    expectError(
      await upload(c, g.id, 'contacts.xlsx', zip),
      415,
      'Upload a CSV or TXT text file or an XLSX workbook; this is not a valid XLSX workbook',
    );
    const brokenXlsx = Buffer.concat([
      Buffer.from('504b0304', 'hex'),
      Buffer.from('xl/workbook.xml garbage'),
    ]);
    expect((await upload(c, g.id, 'broken.xlsx', brokenXlsx)).status).toBe(415);

    const big = Buffer.alloc(50 * 1024 * 1024, 'a');
    const tooBig = await upload(c, g.id, 'big.csv', big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The file is too large' });

    const notMultipart = await c.post(`/api/groups/${g.id}/contacts/fileUpload`, { file: 'x' });
    expect(notMultipart.status).toBe(415);

    const noPhone = await upload(c, g.id, 'nophone.csv', 'name,city\nAda,London\nBob,Paris\n');
    expect(noPhone.status).toBe(201);
    expect(noPhone.body.suggestedMapping.phone).toBeNull();
    const commitUrl = `/api/groups/${g.id}/imports/${noPhone.body.importId}/commit`;
    const auto = await c.post(commitUrl);
    expect(auto.status).toBe(400);
    expect(auto.body.errors['mapping.phone']).toEqual([
      'No phone number column was found; choose the column that holds the phone numbers',
    ]);
    const missing = await c.post(commitUrl, {
      mapping: { phone: 'Phone', name: 'name', fields: { town: 'Town' } },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({
      'mapping.phone': ['The file has no column "Phone"'],
      'mapping.fields.town': ['The file has no column "Town"'],
    });
    const reserved = await c.post(commitUrl, { mapping: { phone: 'name', fields: { name: 'city' } } });
    expect(reserved.status).toBe(400);
    expect((await c.get(`/api/groups/${g.id}/imports/${noPhone.body.importId}`)).body.status).toBe(
      'uploaded',
    );

    const after = await snapshot(server.ctx.db, user.accountId);
    expect(after.contacts).toEqual(before.contacts);
    expect(after.groups).toEqual(before.groups);
    // Only the (uncommitted) upload without a phone column was stored.
    expect(after.imports.map((i) => [i.id, i.status])).toEqual([[noPhone.body.importId, 'uploaded']]);
  });

  it('a committed import cannot be committed again; an unknown import is a 404', async () => {
    const c = server.client();
    await c.register();
    const g = await createGroup(c);
    const { upload: up } = await importFile(c, g.id, 'a.csv', 'phone\n+14155550100\n');
    expect((await c.post(`/api/groups/${g.id}/imports/${up.importId}/commit`)).status).toBe(409);
    expect((await c.get(`/api/groups/${g.id}/imports/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await c.post(`/api/groups/${g.id}/imports/${crypto.randomUUID()}/commit`)).status).toBe(404);
    await waitForImport(c, g.id, up.importId);
  });
});
