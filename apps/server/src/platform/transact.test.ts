import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { afterCommit, transact } from './db';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

describe('transact and afterCommit', () => {
  it('runs after-commit work only once the commit is done, and never after a rollback', async () => {
    const { db } = server.ctx;
    const seen: string[] = [];
    await sql`CREATE TABLE IF NOT EXISTS test_after_commit (v text)`.execute(db);
    await transact(db, async (trx) => {
      await sql`INSERT INTO test_after_commit VALUES ('a')`.execute(trx);
      afterCommit(trx, () => seen.push('committed'));
      // Inside the transaction the work has not run yet.
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['committed']);

    await expect(
      transact(db, async (trx) => {
        await sql`INSERT INTO test_after_commit VALUES ('b')`.execute(trx);
        afterCommit(trx, () => seen.push('rolled back'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(seen).toEqual(['committed']);
    const rows = await sql<{ v: string }>`SELECT v FROM test_after_commit ORDER BY v`.execute(db);
    expect(rows.rows.map((r) => r.v)).toEqual(['a']);

    afterCommit(db, () => seen.push('no transaction'));
    expect(seen).toEqual(['committed', 'no transaction']);
  });

  it('publishes balance.changed after a send commits, and not for a refused one', async () => {
    const c = server.client();
    const { user } = await c.register();
    const published: string[] = [];
    const off = server.ctx.events.subscribe('balance.changed', (e) => {
      if (e.accountId === user.accountId) published.push(e.accountId);
    });
    try {
      expect((await c.post('/api/sms/single', { recipients: ['+14155550123'], text: 'Hi' })).status).toBe(
        202,
      );
      expect(published).toHaveLength(1);
      const many = Array.from({ length: 100 }, (_, i) => `+1212555${String(2000 + i)}`);
      const refused = await c.post('/api/sms/single', { recipients: many, text: 'x'.repeat(1530) });
      expect(refused.status).toBe(402);
      expect(published).toHaveLength(1);
    } finally {
      off();
    }
  });
});
