import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../../test/harness';
import { openPostgres, type Database } from './db';
import { createJobs } from './jobs';
import { createLogger } from './logger';

/**
 * Found by the fault run (issue 44): nodes started at the same moment on a fresh database (no
 * pgboss schema yet) failed with 23505 on pg_namespace inside pg-boss's own schema creation. They
 * now start pg-boss one at a time (jobs.ts startSerialized).
 */
const opened: Database[] = [];
const name = `wren_jobs_${randomBytes(5).toString('hex')}`;
afterAll(async () => {
  for (const d of opened) await d.close();
  const admin = await openPostgres(testDatabaseUrl(), 1);
  await admin.execScript(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.close();
});

describe('pg-boss start', () => {
  it('four nodes starting at once on a fresh database all start', async () => {
    const admin = await openPostgres(testDatabaseUrl(), 1);
    await admin.execScript(`CREATE DATABASE ${name}`);
    await admin.close();
    const nodes = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const database = await openPostgres(testDatabaseUrl(name), 4);
        opened.push(database);
        return createJobs({ database, logger: createLogger('silent'), work: false });
      }),
    );
    const results = await Promise.allSettled(nodes.map((j) => j.start()));
    expect(
      results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
    ).toEqual([]);
    const version = await sql<{ version: number }>`SELECT version FROM pgboss.version`.execute(opened[0]!.db);
    expect(version.rows).toHaveLength(1);
    await Promise.all(nodes.map((j) => j.stop()));
  }, 60_000);
});
