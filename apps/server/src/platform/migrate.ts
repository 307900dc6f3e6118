import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Database, Db } from './db';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

const LOCK_ID = 7263001;

/**
 * Applies forward-only SQL migrations in file-name order, each in its own transaction.
 * One pinned connection holds an advisory lock, so concurrent starters wait for one another.
 */
export async function migrate(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_.+\.sql$/.test(f))
    .sort();
  const run = async (q: Db, exec: (script: string) => Promise<unknown>) => {
    await exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const applied: string[] = [];
    const done = new Set(
      (await q.selectFrom('schema_migrations').select('name').execute()).map((r) => r.name),
    );
    for (const file of files) {
      if (done.has(file)) continue;
      const body = readFileSync(path.join(dir, file), 'utf8');
      const name = file.replace(/'/g, "''");
      try {
        await exec(`BEGIN;\n${body}\n;INSERT INTO schema_migrations (name) VALUES ('${name}');\nCOMMIT;`);
      } catch (err) {
        await exec('ROLLBACK').catch(() => undefined);
        throw new Error(`Migration ${file} failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(file);
    }
    return applied;
  };
  return database.db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${LOCK_ID})`.execute(conn);
    try {
      return await run(conn, (s) => sql.raw(s).execute(conn));
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_ID})`.execute(conn);
    }
  });
}
