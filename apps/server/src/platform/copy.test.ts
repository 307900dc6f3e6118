import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { copyLines, copyText } from './copy';
import { transact } from './db';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await sql`CREATE TABLE copy_probe (id int PRIMARY KEY, v text)`.execute(server.ctx.db);
});
afterAll(async () => {
  await server?.close();
});

const stored = async () =>
  (
    await sql<{ id: number; v: string | null }>`SELECT id, v FROM copy_probe ORDER BY id`.execute(
      server.ctx.db,
    )
  ).rows;

describe('COPY on a transaction (copyLines)', () => {
  it('stores every value as given: tabs, line breaks, backslashes, a literal \\N, NULL and non-ASCII', async () => {
    const values = [
      'plain',
      'a\tb',
      'line\nbreak\r\nthere',
      'back\\slash',
      '\\N',
      null,
      'Łódź – 你好 🙂',
      '',
    ];
    await transact(server.ctx.db, async (trx) => {
      const lines = values.map((v, i) => `${i + 1}\t${copyText(v)}\n`).join('');
      await copyLines(trx, 'copy_probe', ['id', 'v'], lines);
    });
    expect(await stored()).toEqual(values.map((v, i) => ({ id: i + 1, v })));
  });

  it('shares the transaction’s connection with reads running at the same time, which see its rows', async () => {
    await sql`TRUNCATE copy_probe`.execute(server.ctx.db);
    await transact(server.ctx.db, async (trx) => {
      await copyLines(trx, 'copy_probe', ['id', 'v'], '0\tzero\n');
      const [, during] = await Promise.all([
        copyLines(trx, 'copy_probe', ['id', 'v'], '1\tone\n2\ttwo\n'),
        sql<{ n: number }>`SELECT count(*)::int AS n FROM copy_probe`.execute(trx),
        copyLines(trx, 'copy_probe', ['id', 'v'], '3\tthree\n'),
      ]);
      expect([1, 2, 3, 4]).toContain(during.rows[0]?.n);
      const after = await sql<{ n: number }>`SELECT count(*)::int AS n FROM copy_probe`.execute(trx);
      expect(after.rows[0]?.n).toBe(4);
    });
    expect((await stored()).map((r) => r.id)).toEqual([0, 1, 2, 3]);
  });

  it('rejects with PostgreSQL’s error, and the transaction stores nothing', async () => {
    await sql`TRUNCATE copy_probe`.execute(server.ctx.db);
    const failing = transact(server.ctx.db, async (trx) => {
      await copyLines(trx, 'copy_probe', ['id', 'v'], '1\tfirst\n');
      await copyLines(trx, 'copy_probe', ['id', 'v'], '2\tsecond\n1\tagain\n');
    });
    await expect(failing).rejects.toThrow(/duplicate key/);
    expect(await stored()).toEqual([]);
    // The connection went back to the pool usable.
    const after = await sql<{ ok: number }>`SELECT 1 AS ok`.execute(server.ctx.db);
    expect(after.rows[0]?.ok).toBe(1);
  });

  it('runs outside a transaction too (its own autocommit statement)', async () => {
    await sql`TRUNCATE copy_probe`.execute(server.ctx.db);
    await copyLines(server.ctx.db, 'copy_probe', ['id', 'v'], '9\tx\n');
    expect(await stored()).toEqual([{ id: 9, v: 'x' }]);
  });
});
