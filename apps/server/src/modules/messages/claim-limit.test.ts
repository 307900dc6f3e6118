import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { openPostgres } from '../../platform/db';
import { claimBatch } from './outcomes.repository';

/**
 * A claim leases at most the rows it asks for, whatever plan PostgreSQL picks. The dispatcher's bound
 * on duplicates after a crash (and the room it keeps for OTPs and single sends) rests on it.
 *
 * Found in bench:campaign: statistics taken while the queue was empty (a campaign between two
 * materialiser passes) made the planner run the lease as a nested loop with the LIMIT … SKIP LOCKED
 * subquery on the inner side. Every rescan of it locked the next rows (the ones this statement had
 * already updated are skipped), so a claim of 400 leased all 5,000 waiting rows, took 1–4 s, and
 * single sends waited 5–8 s behind it.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRIAL_BALANCE_MINOR: '100000' });
});
afterAll(async () => {
  await server?.close();
});

describe('claimBatch', () => {
  it('leases no more than its limit when the statistics say the queue is empty', async () => {
    const { db } = server.ctx;
    const c = server.client();
    await c.register();
    const send = async (from: number, n: number) => {
      const numbers = Array.from({ length: n }, (_, i) => `+1212555${String(from + i).padStart(4, '0')}`);
      const sent = await c.post('/api/sms/single', { recipients: numbers, text: 'claim limit' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    };
    // A queue that was drained: its pages stay (autovacuum left them), and its statistics say empty.
    await send(9000, 100);
    expect(await claimBatch(db, 'earlier-worker', 100, 60)).toHaveLength(100);
    await sql`DELETE FROM send_queue WHERE leased_by = 'earlier-worker'`.execute(db);
    await sql`VACUUM (TRUNCATE false, ANALYZE) send_queue`.execute(db);
    // Then 500 waiting messages the planner does not know about.
    for (let k = 0; k < 5; k++) {
      await send(k * 100, 100);
    }

    const claimed = await claimBatch(db, 'claim-limit-worker', 40, 60);
    expect(claimed).toHaveLength(40);
    const leased = await sql<{ n: string }>`
      SELECT count(*) AS n FROM send_queue WHERE leased_by = 'claim-limit-worker'`.execute(db);
    expect(Number(leased.rows[0]!.n)).toBe(40);

    // Urgent-only claims (the dispatcher's probe while bulk has its share) too.
    const urgent = await claimBatch(db, 'claim-limit-worker', 25, 60, 1);
    expect(urgent).toHaveLength(25);
  });

  it("records each message's own attempt count, whether a claim's messages share one or not", async () => {
    const fresh = await startServer();
    try {
      const { db } = fresh.ctx;
      const c = fresh.client();
      await c.register();
      const sent = await c.post('/api/sms/single', {
        recipients: ['+12125550001', '+12125550002', '+12125550003'],
        text: 'attempts',
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(202);
      const ids = (sent.body.messages as { id: string }[]).map((m) => m.id);
      const attemptsOf = async () =>
        Object.fromEntries(
          (
            await sql<{ id: string; attempts: number }>`
              SELECT id, attempts FROM messages WHERE id = ANY(${ids}::uuid[])`.execute(db)
          ).rows.map((r) => [r.id, r.attempts]),
        );
      // All on their first try: one shared count.
      expect(await claimBatch(db, 'attempts-worker', 10, 60)).toHaveLength(3);
      expect(await attemptsOf()).toEqual({ [ids[0]!]: 1, [ids[1]!]: 1, [ids[2]!]: 1 });
      // Back in the queue as retries on different tries (one of them retried twice before).
      await sql`UPDATE messages SET status = 'queued' WHERE id = ANY(${ids}::uuid[])`.execute(db);
      await sql`UPDATE send_queue SET leased_by = NULL, lease_until = NULL,
                       attempts = CASE WHEN message_id = ${ids[1]!}::uuid THEN 3 ELSE attempts END
                 WHERE message_id = ANY(${ids}::uuid[])`.execute(db);
      const mixed = await claimBatch(db, 'attempts-worker', 10, 60);
      expect(Object.fromEntries(mixed.map((m) => [m.id, m.attempts]))).toEqual({
        [ids[0]!]: 2,
        [ids[1]!]: 4,
        [ids[2]!]: 2,
      });
      expect(await attemptsOf()).toEqual({ [ids[0]!]: 2, [ids[1]!]: 4, [ids[2]!]: 2 });
    } finally {
      await fresh.close();
    }
  });

  it('reads the ready queue in claim order and stops at its limit, not the whole backlog, on statistics of an empty queue', async () => {
    // A server of its own, and one connection for every statement here: a backend publishes its
    // table counters late (up to 10 s), so earlier statements of other backends would land in the
    // counts, and this backend's are published on demand (pg_stat_force_next_flush).
    const fresh = await startServer();
    const one = await openPostgres(fresh.databaseUrl, 1);
    try {
      const db = one.db;
      await sql`VACUUM (ANALYZE) send_queue`.execute(db); // statistics of the empty queue
      // A backlog the statistics do not know about: 5,000 ready rows (queue rows alone are enough
      // for the lease; their messages play no part in what it reads).
      await sql`
        INSERT INTO send_queue (message_id, priority, due_at, validity_until)
        SELECT gen_random_uuid(), 2, now() - make_interval(secs => i), now() + interval '1 day'
          FROM generate_series(1, 5000) AS i`.execute(db);
      const read = async () => {
        await sql`SELECT pg_stat_force_next_flush()`.execute(db);
        await sql`SELECT pg_stat_clear_snapshot()`.execute(db);
        const r = await sql<{ n: string }>`
          SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) AS n
            FROM pg_stat_user_tables WHERE relname = 'send_queue'`.execute(db);
        return Number(r.rows[0]!.n);
      };
      const before = await read();
      expect(await claimBatch(db, 'backlog-worker', 100, 60)).toEqual([]); // no messages rows
      const rowsRead = (await read()) - before;
      const leased = await sql<{ n: string; oldest: boolean }>`
        SELECT count(*) FILTER (WHERE leased_by = 'backlog-worker') AS n,
               max(due_at) FILTER (WHERE leased_by = 'backlog-worker')
                 < min(due_at) FILTER (WHERE leased_by IS NULL) AS oldest
          FROM send_queue`.execute(db);
      // The 100 most overdue rows were leased: the claim order holds.
      expect(Number(leased.rows[0]!.n)).toBe(100);
      expect(leased.rows[0]!.oldest).toBe(true);
      // The lease reads its 100 rows and looks each up once by key. On these statistics the
      // planner's own choice read every ready row for the first step (a bitmap scan and a sort)
      // and the whole queue for the second (5,000 rows each).
      expect(rowsRead).toBeLessThanOrEqual(200);
    } finally {
      await one.close();
      await fresh.close();
    }
  });
});
