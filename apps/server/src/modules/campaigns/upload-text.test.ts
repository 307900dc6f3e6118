import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertUpload, uploadText } from './campaigns.repository';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('uploadText', () => {
  it('decodes a stored file read in slices, characters split across slices included', async () => {
    const c = server.client();
    const { user } = await c.register();
    const text = `phone,name\n${Array.from({ length: 300 }, (_, i) => `+4477009${String(i).padStart(5, '0')},Zoë ✓ 名前 ${i} 😀`).join('\n')}\n`;
    const bytes = Buffer.from(text, 'utf8');
    const { id } = await insertUpload(server.ctx.db, {
      account_id: user.accountId,
      file_name: 'people.csv',
      file_type: 'csv',
      delimiter: ',',
      encoding: 'utf-8',
      has_header: true,
      columns: ['phone', 'name'],
      row_count_guess: 300,
      file: bytes,
    });
    // Slices of 1, 2, 3, 5 and 7 bytes cut 2-, 3- and 4-byte characters; one slice reads it whole.
    for (const slice of [1, 2, 3, 5, 7, 4096, bytes.length, 4 * 1024 * 1024]) {
      expect(await uploadText(server.ctx.db, id, 'utf-8', slice)).toBe(text);
    }
    const latin1 = Buffer.from('phone;nom\n+33612345678;Hélène\n', 'latin1');
    const other = await insertUpload(server.ctx.db, {
      account_id: user.accountId,
      file_name: 'l.csv',
      file_type: 'csv',
      delimiter: ';',
      encoding: 'windows-1252',
      has_header: true,
      columns: ['phone', 'nom'],
      row_count_guess: 1,
      file: latin1,
    });
    expect(await uploadText(server.ctx.db, other.id, 'windows-1252', 4)).toBe(
      'phone;nom\n+33612345678;Hélène\n',
    );
    const empty = await insertUpload(server.ctx.db, {
      account_id: user.accountId,
      file_name: 'e.csv',
      file_type: 'csv',
      delimiter: ',',
      encoding: 'utf-8',
      has_header: false,
      columns: [],
      row_count_guess: 0,
      file: Buffer.alloc(0),
    });
    expect(await uploadText(server.ctx.db, empty.id, 'utf-8')).toBe('');
  });
});
