import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { genericPlanOk, insertUnnest, openPostgres, transact, type Database } from './db';
import { createStatementCache, type StatementCache } from './statement-cache';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

/** One connection, so pg_prepared_statements shows what that connection holds. */
async function openOne(cache: StatementCache): Promise<Database> {
  return openPostgres(server.databaseUrl, 1, cache);
}

const prepared = async (database: Database) =>
  (
    await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements ORDER BY statement`.execute(
      database.db,
    )
  ).rows.map((r) => r.statement);

describe('named prepared statements for repeated statements', () => {
  it('prepares a statement once it has run minUses times, with the same results', async () => {
    const cache = createStatementCache({ minUses: 3 });
    const database = await openOne(cache);
    try {
      const results: number[] = [];
      for (let i = 1; i <= 5; i++) {
        const r = await sql<{ v: number }>`SELECT ${i}::int * 2 AS v`.execute(database.db);
        results.push(r.rows[0]!.v);
        const held = (await prepared(database)).filter((s) => s.includes('* 2 AS v'));
        // Unnamed for the first two runs; from the third on, one named statement on the connection.
        expect(held.length).toBe(i >= 3 ? 1 : 0);
      }
      expect(results).toEqual([2, 4, 6, 8, 10]);
      expect(cache.size).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('never names a statement without parameters, and stops at the cap', async () => {
    const cache = createStatementCache({ minUses: 1, maxStatements: 2 });
    const database = await openOne(cache);
    try {
      for (let i = 0; i < 3; i++) await sql`SELECT 41 AS no_params`.execute(database.db);
      expect((await prepared(database)).some((s) => s.includes('no_params'))).toBe(false);
      const a = await sql<{ v: number }>`SELECT ${1}::int AS cap_a`.execute(database.db);
      const b = await sql<{ v: number }>`SELECT ${2}::int AS cap_b`.execute(database.db);
      const c = await sql<{ cap_c: number }>`SELECT ${3}::int AS cap_c`.execute(database.db);
      expect([a.rows[0], b.rows[0], c.rows[0]]).toEqual([{ cap_a: 1 }, { cap_b: 2 }, { cap_c: 3 }]);
      expect(cache.size).toBe(2);
      const held = (await prepared(database)).filter((s) => /cap_[abc]/.test(s));
      expect(held.length).toBe(2);
      expect(held.some((s) => s.includes('cap_c'))).toBe(false);
    } finally {
      await database.close();
    }
  });

  it('keeps custom plans for a LIMIT parameter or an array parameter', async () => {
    // A generic plan guesses both: with `LIMIT $n` the dispatcher's claim sorted the whole queue on
    // every claim (bench:pipeline's drain: PostgreSQL 2,203 µs per message instead of 279).
    const cache = createStatementCache({ minUses: 1 });
    const database = await openOne(cache);
    try {
      for (let i = 0; i < 3; i++) {
        await sql`SELECT g AS limited FROM generate_series(1, 10) g LIMIT ${2}`.execute(database.db);
        await sql`SELECT ${[1, 2, 3]}::int[] AS arrayed`.execute(database.db);
        await sql`SELECT ${i}::int AS plain`.execute(database.db);
      }
      const held = await prepared(database);
      expect(held.some((s) => s.includes('limited'))).toBe(false);
      expect(held.some((s) => s.includes('arrayed'))).toBe(false);
      expect(held.some((s) => s.includes('plain'))).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('prepares a statement with array parameters when it is marked genericPlanOk, and an insert of unnested arrays', async () => {
    const cache = createStatementCache({ minUses: 1 });
    const database = await openOne(cache);
    try {
      await sql`CREATE TEMP TABLE generic_ok (v int)`.execute(database.db);
      for (let i = 0; i < 3; i++) {
        const r = await sql<{
          n: number;
        }>`${genericPlanOk} SELECT cardinality(${[1, 2, i]}::int[]) AS n_marked`.execute(database.db);
        expect(r.rows[0]).toEqual({ n_marked: 3 });
        await sql`${insertUnnest('generic_ok' as never, { v: 'integer' } as never, [{ v: i }] as never)}`.execute(
          database.db,
        );
      }
      const held = await prepared(database);
      expect(held.some((s) => s.includes('n_marked'))).toBe(true);
      expect(held.some((s) => s.includes('INSERT INTO "generic_ok"'))).toBe(true);
      const rows = await sql<{ v: number }>`SELECT v FROM generic_ok ORDER BY v`.execute(database.db);
      expect(rows.rows.map((r) => r.v)).toEqual([0, 1, 2]);
    } finally {
      await database.close();
    }
  });

  it('survives a table whose columns change under a prepared statement', async () => {
    const cache = createStatementCache({ minUses: 1 });
    const database = await openOne(cache);
    const { db } = database;
    try {
      await sql`CREATE TABLE IF NOT EXISTS test_stmt_cache (id int PRIMARY KEY, a text)`.execute(db);
      await sql`INSERT INTO test_stmt_cache VALUES (1, 'x') ON CONFLICT DO NOTHING`.execute(db);
      const read = () =>
        sql<Record<string, unknown>>`SELECT * FROM test_stmt_cache WHERE id = ${1}`.execute(db);
      expect((await read()).rows[0]).toEqual({ id: 1, a: 'x' });
      await sql`ALTER TABLE test_stmt_cache ADD COLUMN b text DEFAULT 'y'`.execute(db);
      // Outside a transaction: retried unnamed, so the caller gets the new shape.
      expect((await read()).rows[0]).toEqual({ id: 1, a: 'x', b: 'y' });
      expect(cache.size).toBe(0);

      // Inside one the failed statement has aborted the transaction: the error reaches the caller.
      const readIn = (trx: typeof db) =>
        sql<Record<string, unknown>>`SELECT * FROM test_stmt_cache WHERE a = ${'x'}`.execute(trx);
      await readIn(db);
      await sql`ALTER TABLE test_stmt_cache ADD COLUMN c text DEFAULT 'z'`.execute(db);
      await expect(transact(db, (trx) => readIn(trx))).rejects.toThrow(
        /cached plan must not change result type/,
      );
      // And the text is not named again: the next run works.
      expect((await readIn(db)).rows[0]).toEqual({ id: 1, a: 'x', b: 'y', c: 'z' });
    } finally {
      await sql`DROP TABLE IF EXISTS test_stmt_cache`.execute(db);
      await database.close();
    }
  });
});
