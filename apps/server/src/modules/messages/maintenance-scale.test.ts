import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { openParked } from '../dlr/dlr.repository';

/**
 * Maintenance never scans the table (issue #17): with 200,000 finished messages and their parts, and
 * 20,000 parked receipts that gave up, the periodic passes (queue maintenance, the parked-receipt
 * sweep) read only the rows they may change, through their indexes.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer({}, { worker: true });
  const { user } = await server.client().register();
  const db = server.ctx.db;
  await sql`
    WITH m AS (
      INSERT INTO messages (account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                            status, priority, validity_until, created_at, submitted_at, done_at)
      SELECT ${user.accountId}::uuid, '+1415555' || lpad((i % 10000)::text, 4, '0'), 'Wren', 'Done ' || i,
             'GSM-7', 1, 1, 'USD', 'delivered', 1, t + interval '1 day', t, t, t
        FROM generate_series(1, 200000) AS i,
             LATERAL (SELECT now() - interval '30 days' + (i::float8 / 200000) * interval '29 days' AS t) ts
      RETURNING id, created_at)
    INSERT INTO message_parts (connection, smsc_key, message_id, part, stat, created_at)
    SELECT 'default', md5(id::text), id, 1, 'DELIVRD', created_at FROM m`.execute(db);
  await sql`
    INSERT INTO parked_receipts (connection, smsc_keys, stat, raw, attempts, created_at)
    SELECT 'default', ARRAY['gone' || i], 'DELIVRD', 'id:gone' || i, 100, now() - interval '1 day'
      FROM generate_series(1, 20000) AS i`.execute(db);
  await sql`VACUUM (ANALYZE) messages, message_parts, parked_receipts, send_queue`.execute(db);
}, 180_000);
afterAll(async () => {
  await server?.close();
});

type Reads = Record<string, { seq: number; idx: number }>;

/** Rows read per table so far: by sequential scans, and through indexes. */
async function reads(): Promise<Reads> {
  // Other sessions report their counts at most once a second.
  await new Promise((r) => setTimeout(r, 1500));
  await sql`SELECT pg_stat_clear_snapshot()`.execute(server.ctx.db);
  const { rows } = await sql<{ relname: string; seq: string; idx: string }>`
    SELECT CASE WHEN relname ~ '^messages_' THEN 'messages' ELSE relname END AS relname,
           sum(coalesce(seq_tup_read, 0)) AS seq, sum(coalesce(idx_tup_fetch, 0)) AS idx
      FROM pg_stat_user_tables
     -- messages: the sum over its partitions (0018; the partitioned parent counts nothing itself).
     WHERE schemaname = 'public'
       AND (relname IN ('message_parts', 'parked_receipts') OR relname ~ '^messages_(p[0-9]{6}|legacy)$')
     GROUP BY 1`.execute(server.ctx.db);
  return Object.fromEntries(rows.map((r) => [r.relname, { seq: Number(r.seq), idx: Number(r.idx) }]));
}

describe('maintenance at scale', () => {
  it('reads only the rows it may change: no table scans, given-up receipts skipped', async () => {
    const before = await reads();
    for (let i = 0; i < 3; i++) await server.worker!.dispatcher.maintenance();
    expect(await openParked(server.ctx.db, 100)).toEqual([]);
    const after = await reads();
    for (const table of ['messages', 'message_parts', 'parked_receipts']) {
      const read = after[table]!.seq - before[table]!.seq + (after[table]!.idx - before[table]!.idx);
      expect({ table, read: read < 1000 }).toEqual({ table, read: true });
    }
  });

  it('the every-second pass reads no messages while nothing is due, even on statistics taken when the queue was empty', async () => {
    const db = server.ctx.db;
    const account = (await sql<{ id: string }>`SELECT id FROM accounts LIMIT 1`.execute(db)).rows[0]!.id;
    // Statistics as autovacuum leaves them on a quiet system: taken while the queue was empty.
    await sql`ANALYZE send_queue`.execute(db);
    // Then a burst: 60,000 messages waiting in the queue (due tomorrow, so no worker claims them).
    await sql`
      WITH m AS (
        INSERT INTO messages (account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                              status, priority, validity_until)
        SELECT ${account}::uuid, '+1415556' || lpad((i % 10000)::text, 4, '0'), 'Wren', 'Waiting ' || i,
               'GSM-7', 1, 1, 'USD', 'queued', 2, now() + interval '2 days'
          FROM generate_series(1, 60000) AS i
        RETURNING id, priority, validity_until)
      INSERT INTO send_queue (message_id, priority, due_at, scheduled, validity_until)
      SELECT id, priority, now() + interval '1 day', false, validity_until FROM m`.execute(db);
    const before = await reads();
    for (let i = 0; i < 3; i++)
      await server.worker!.dispatcher.maintenance({ reclaim: false, deadlines: false });
    const after = await reads();
    const read = after.messages!.seq - before.messages!.seq + (after.messages!.idx - before.messages!.idx);
    expect(read).toBeLessThan(1000);
  });
});
