import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness';
import { randomUUID } from 'node:crypto';
import { afterCommit, insertUnnest, transact, transactRetryingDeadlocks } from './db';

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

  it("transactRetryingDeadlocks runs a deadlock's victim again, after the other side committed", async () => {
    const { db } = server.ctx;
    await sql`CREATE TABLE IF NOT EXISTS test_deadlock (k text PRIMARY KEY, v int NOT NULL)`.execute(db);
    await sql`INSERT INTO test_deadlock VALUES ('a', 0), ('b', 0) ON CONFLICT (k) DO UPDATE SET v = 0`.execute(
      db,
    );
    let attempts = 0;
    let bHeld!: () => void;
    const holdingB = new Promise<void>((resolve) => (bHeld = resolve));
    let aHeld!: () => void;
    const holdingA = new Promise<void>((resolve) => (aHeld = resolve));
    // The retried side locks a then b, and finds the deadlock first (its deadlock_timeout is short):
    // PostgreSQL aborts it, and it runs again once the other side has committed.
    const retried = transactRetryingDeadlocks(db, async (trx) => {
      attempts += 1;
      await sql`SET LOCAL deadlock_timeout = '100ms'`.execute(trx);
      await sql`UPDATE test_deadlock SET v = v + 1 WHERE k = 'a'`.execute(trx);
      if (attempts === 1) {
        aHeld();
        await holdingB;
      }
      await sql`UPDATE test_deadlock SET v = v + 1 WHERE k = 'b'`.execute(trx);
    });
    const other = transact(db, async (trx) => {
      await sql`SET LOCAL deadlock_timeout = '10s'`.execute(trx);
      await holdingA;
      await sql`UPDATE test_deadlock SET v = v + 10 WHERE k = 'b'`.execute(trx);
      bHeld();
      await sql`UPDATE test_deadlock SET v = v + 10 WHERE k = 'a'`.execute(trx);
    });
    await Promise.all([retried, other]);
    expect(attempts).toBe(2);
    const rows = await sql<{ k: string; v: number }>`SELECT k, v FROM test_deadlock ORDER BY k`.execute(db);
    // Both committed once each; the aborted attempt left nothing.
    expect(rows.rows).toEqual([
      { k: 'a', v: 11 },
      { k: 'b', v: 11 },
    ]);
  });

  it('insertUnnest sends shared columns once when every row has their values, else as arrays, with the same rows stored', async () => {
    const { db } = server.ctx;
    const columns = { message_id: 'uuid', status: 'text', detail: 'text', raw: 'text' } as const;
    const insert = (
      rows: { message_id: string; status: string; detail: string | null; raw: string | null }[],
    ) => insertUnnest('message_events', columns, rows, [['status'], ['detail', 'raw']]);
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const same = ids.map((id) => ({ message_id: id, status: 'queued', detail: null, raw: null }));
    const mixed = ids.map((id, i) => ({ message_id: id, status: 'sent', detail: `part ${i}`, raw: null }));
    const text = (q: ReturnType<typeof insert>) => q.compile(db).sql;
    // Shared values: one array (the ids), the rest scalars; a group with a value that varies: its
    // columns are arrays (detail and raw), the other group's a scalar (status).
    expect(text(insert(same)).match(/\[\]/g)).toHaveLength(1);
    expect(text(insert(mixed)).match(/\[\]/g)).toHaveLength(3);
    await insert(same).execute(db);
    await insert(mixed).execute(db);
    await insert([]).execute(db);
    const stored = await db
      .selectFrom('message_events')
      .select(['message_id', 'status', 'detail', 'raw'])
      .where('message_id', 'in', ids)
      .execute();
    const key = (r: { message_id: string; status: string }) => `${r.status} ${r.message_id}`;
    const byKey = (a: { message_id: string; status: string }, b: { message_id: string; status: string }) =>
      key(a) < key(b) ? -1 : 1;
    expect([...stored].sort(byKey)).toEqual([...same, ...mixed].sort(byKey));
  });
});
