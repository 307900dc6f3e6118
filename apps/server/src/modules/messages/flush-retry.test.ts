import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { expectInvariants, waitForFinal } from '../../../test/messaging';
import { until } from '../../realtime/test-client';
import { campaignsOf } from '../campaigns/campaigns.routes';

// The outcomes of submits (which SMSC ids the SMSC gave) live in the dispatcher's memory until they
// are committed. If that commit fails they must be kept and written again: dropping them leaves
// the messages leased, and after the lease they would be claimed and sent a second time.

/**
 * The worker's dispatch batch: claims whose outcome is not stored yet never exceed it. The lease is
 * long, so no claim held while a test blocks the flush runs out (that would send it again).
 */
const BATCH = 8;
let server: TestServer;
beforeAll(async () => {
  server = await startServer(
    {
      SIMULATOR_DELAY_MS: '20',
      SIMULATOR_MIX: 'DELIVRD=100',
      LEASE_SECONDS: '60',
      DISPATCH_BATCH: String(BATCH),
    },
    { worker: true },
  );
  // While test_block_parts has a row, storing message parts fails (and with it the whole flush).
  // Each refused flush takes a number from test_blocked_flushes (sequences ignore rollbacks).
  await sql`CREATE TABLE test_block_parts (x int)`.execute(server.ctx.db);
  await sql`CREATE SEQUENCE test_blocked_flushes`.execute(server.ctx.db);
  await sql
    .raw(
      `CREATE FUNCTION test_block_parts() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF EXISTS (SELECT 1 FROM test_block_parts) THEN
           PERFORM nextval('test_blocked_flushes');
           RAISE EXCEPTION 'parts blocked by the test';
         END IF;
         RETURN NEW;
       END $$`,
    )
    .execute(server.ctx.db);
  await sql`CREATE TRIGGER test_block_parts BEFORE INSERT ON message_parts
            FOR EACH ROW EXECUTE FUNCTION test_block_parts()`.execute(server.ctx.db);
});
afterAll(async () => {
  await server?.close();
});

describe('dispatcher flush failure', () => {
  it('keeps the outcomes, writes them once the database accepts them, and sends nothing twice', async () => {
    const { db } = server.ctx;
    await sql`INSERT INTO test_block_parts VALUES (1)`.execute(db);
    const c = server.client();
    const { user } = await c.register();
    const recipients = Array.from({ length: 5 }, (_, i) => `+1212777${String(1000 + i)}`);
    const res = await c.post('/api/sms/single', { recipients, text: 'Flush retry' });
    expect(res.status).toBe(202);
    const ids = res.body.messages.map((m: { id: string }) => m.id) as string[];

    // Submitted to the SMSC, but the flush keeps failing: the messages stay in `sending`.
    const sim = server.worker!.simulator!;
    const submitted = () => [...sim.messages.values()].filter((m) => recipients.includes(`+${m.dest}`));
    await until(() => submitted().length >= 5, 10_000, 'five submits');
    expect(submitted()).toHaveLength(5);
    // Two more refused flushes: the later one is a retry (1 s after a failure) of every outcome.
    const refused = async () =>
      Number(
        (await sql<{ n: string }>`SELECT last_value AS n FROM test_blocked_flushes`.execute(db)).rows[0]!.n,
      );
    const before = await refused();
    await until(async () => (await refused()) >= before + 2, 10_000, 'two more refused flushes');
    const held = await db.selectFrom('messages').select('status').where('id', 'in', ids).execute();
    expect(held.map((m) => m.status)).toEqual(ids.map(() => 'sending'));

    await sql`DELETE FROM test_block_parts`.execute(db);
    const done = await waitForFinal(c, ids, 30_000);
    expect(done.map((m) => m.status)).toEqual(ids.map(() => 'delivered'));
    // Sent once each, and nothing is left in the work queue that a lapsed lease could hand out again.
    expect(submitted()).toHaveLength(5);
    const queued = await db
      .selectFrom('send_queue')
      .select('message_id')
      .where('message_id', 'in', ids)
      .execute();
    expect(queued).toEqual([]);
    await expectInvariants(server, user.accountId);
  });

  it('claims no more while a dispatch batch of outcomes waits to be stored (the bound on a crash resend)', async () => {
    const { db } = server.ctx;
    await sql`INSERT INTO test_block_parts VALUES (1)`.execute(db);
    const c = server.client();
    const { user } = await c.register();
    const recipients = Array.from({ length: BATCH * 4 }, (_, i) => `+1212778${String(1000 + i)}`);
    const res = await c.post('/api/sms/single', { recipients, text: 'Bounded claims' });
    expect(res.status).toBe(202);
    const ids = res.body.messages.map((m: { id: string }) => m.id) as string[];

    const sim = server.worker!.simulator!;
    const submitted = () => [...sim.messages.values()].filter((m) => recipients.includes(`+${m.dest}`));
    await until(() => submitted().length >= BATCH, 10_000, 'a batch of submits');
    const refused = async () =>
      Number(
        (await sql<{ n: string }>`SELECT last_value AS n FROM test_blocked_flushes`.execute(db)).rows[0]!.n,
      );
    const before = await refused();
    await until(async () => (await refused()) >= before + 2, 10_000, 'two more refused flushes');
    // Answered but not stored: if the worker died now, these are all it could send twice.
    expect(submitted()).toHaveLength(BATCH);
    const leased = await db
      .selectFrom('send_queue')
      .select('message_id')
      .where('message_id', 'in', ids)
      .where('leased_by', 'is not', null)
      .execute();
    expect(leased).toHaveLength(BATCH);

    await sql`DELETE FROM test_block_parts`.execute(db);
    const done = await waitForFinal(c, ids, 30_000);
    expect(done.map((m) => m.status)).toEqual(ids.map(() => 'delivered'));
    expect(submitted()).toHaveLength(recipients.length);
    await expectInvariants(server, user.accountId);
  });

  it('keeps a share of the batch from bulk: a single send is claimed while bulk outcomes wait', async () => {
    const { db } = server.ctx;
    await sql`INSERT INTO test_block_parts VALUES (1)`.execute(db);
    const c = server.client();
    const { user } = await c.register();
    const bulk = Array.from({ length: BATCH * 3 }, (_, i) => `+1212779${String(1000 + i)}`);
    const campaign = await c.post('/api/campaigns', { numbers: bulk.join('\n'), text: 'Bulk share' });
    expect(campaign.status, JSON.stringify(campaign.body)).toBe(202);
    await campaignsOf(server.ctx).tick();

    const sim = server.worker!.simulator!;
    const submittedTo = (list: string[]) =>
      [...sim.messages.values()].filter((m) => list.includes(`+${m.dest}`));
    // Bulk takes its share of the batch (all but a fifth, at least one kept) and then waits.
    await until(() => submittedTo(bulk).length >= BATCH - 1, 10_000, 'bulk fills its share');
    const single = ['+12127801000'];
    const res = await c.post('/api/sms/single', { recipients: single, text: 'Urgent while bulk waits' });
    expect(res.status).toBe(202);
    await until(() => submittedTo(single).length === 1, 10_000, 'the single send is submitted');
    expect(submittedTo(bulk)).toHaveLength(BATCH - 1);

    await sql`DELETE FROM test_block_parts`.execute(db);
    const ids = [
      ...(await db.selectFrom('messages').select('id').where('account_id', '=', user.accountId).execute()),
    ].map((m) => m.id);
    const done = await waitForFinal(c, ids, 30_000);
    expect(done.map((m) => m.status)).toEqual(ids.map(() => 'delivered'));
    expect(submittedTo(bulk)).toHaveLength(bulk.length);
    await expectInvariants(server, user.accountId);
  });
});
