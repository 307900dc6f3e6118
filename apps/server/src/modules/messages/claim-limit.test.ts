import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
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
});
