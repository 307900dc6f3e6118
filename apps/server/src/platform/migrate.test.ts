import { readdirSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { adminUrl } from '../../test/pg-admin';
import { openPostgres, type Database } from './db';
import { migrate, MIGRATIONS_DIR } from './migrate';

const all = readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith('.sql'))
  .sort();

async function check(db: Database) {
  expect(await migrate(db)).toEqual(all);
  expect(await migrate(db)).toEqual([]); // idempotent
  const tables = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('accounts','users','ledger_entries','sessions','refresh_tokens')`.execute(
    db.db,
  );
  expect(tables.rows[0]!.n).toBe(5);
}

describe('migrations', () => {
  it('run cleanly on an empty PostgreSQL', async () => {
    await withEmptyPg('seq', async (url) => {
      const db = await openPostgres(url, 2);
      try {
        await check(db);
      } finally {
        await db.close();
      }
    });
  });

  it('apply each migration once when two servers start together', async () => {
    await withEmptyPg('par', async (url) => {
      const a = await openPostgres(url, 2);
      const b = await openPostgres(url, 2);
      try {
        const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
        expect([...ra, ...rb].sort()).toEqual(all);
        const rows = await a.db.selectFrom('schema_migrations').select('name').execute();
        expect(rows.map((r) => r.name).sort()).toEqual(all);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
});

async function withEmptyPg(tag: string, fn: (url: string) => Promise<void>) {
  const base = inject('pgUrl');
  const name = `wren_mig_${tag}_${process.pid}`;
  const admin = await openPostgres(adminUrl(base), 1);
  await admin.execScript(`DROP DATABASE IF EXISTS ${name}`);
  await admin.execScript(`CREATE DATABASE ${name}`);
  try {
    await fn(adminUrl(base, name));
  } finally {
    await admin.execScript(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  }
}
