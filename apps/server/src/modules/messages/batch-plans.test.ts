import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import type { DB } from '../../db/schema';
import { claimBatch } from './outcomes.repository';
import { findParts, settleParts } from './parts.repository';
import { transition } from './status.repository';

/**
 * A batch of n messages costs n row lookups, whatever the statistics say. The per-message values of
 * a transition (a receipt's stat, error and text) and of a claim (the attempt count) were joined in
 * as unnested arrays; on statistics that say few messages are in the batch's status (the usual case:
 * most of a month's messages are delivered), the planner put the messages on the outer side and
 * produced all n given rows again for each of them, n² rows per batch. Each statement's plan comes
 * back from auto_explain (as notices on this test's one connection), and no step of it may handle
 * more than 2n rows.
 */
let server: TestServer;
let pool: pg.Pool;
let db: Kysely<DB>;
let accountId: string;
const plans: string[] = [];

beforeAll(async () => {
  server = await startServer();
  const { user } = await server.client().register();
  accountId = user.accountId;
  pool = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
  pool.on('connect', (client) => client.on('notice', (n) => plans.push(n.message ?? '')));
  db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  // A month of finished messages, and statistics taken on it.
  await insertMessages(5000, 'delivered');
  await sql`ANALYZE messages`.execute(db);
  await sql`LOAD 'auto_explain'`.execute(db);
  await sql`SET auto_explain.log_min_duration = 0`.execute(db);
  await sql`SET auto_explain.log_analyze = on`.execute(db);
  await sql`SET auto_explain.log_timing = off`.execute(db);
  await sql`SET auto_explain.log_level = notice`.execute(db);
  // The claim's update runs inside wren_claim (0025).
  await sql`SET auto_explain.log_nested_statements = on`.execute(db);
  // The test's month holds a few thousand rows: on them PostgreSQL 15 rightly prefers reading the
  // whole partition to 200 index lookups, which says nothing of a month of millions. What is tested
  // is the shape of the rest of the plan.
  await sql`SET enable_seqscan = off`.execute(db);
}, 60_000);
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

async function insertMessages(n: number, status: string) {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO messages (account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                          status, priority, validity_until)
    SELECT ${accountId}::uuid, '+1415555' || lpad(i::text, 4, '0'), 'Wren', 'Batch ' || i, 'GSM-7', 1, 1,
           'USD', ${status}, 1, now() + interval '1 day'
      FROM generate_series(1, ${n}) AS i
    RETURNING id`.execute(db);
  return rows.map((r) => r.id);
}

/** The plan lines of the statement auto_explain reported last that mentions `marker`. */
function planOf(marker: RegExp) {
  const plan = [...plans].reverse().find((p) => marker.test(p));
  expect(plan, `a plan matching ${String(marker)}`).toBeDefined();
  return plan!;
}

/**
 * Steps of a plan that handled more than `limit` rows in all: the rows each returned plus those its
 * filters read and dropped (EXPLAIN gives both per loop), times its loops.
 */
function heavySteps(plan: string, limit: number) {
  const steps: { line: string; loops: number; rows: number }[] = [];
  for (const line of plan.split('\n')) {
    const node = /actual rows=([\d.]+) loops=(\d+)/.exec(line);
    if (node) {
      steps.push({ line, loops: Number(node[2]), rows: Number(node[1]) * Number(node[2]) });
      continue;
    }
    const removed = /Rows Removed by (?:Join )?Filter: (\d+)/.exec(line);
    const step = steps[steps.length - 1];
    if (removed && step) step.rows += Number(removed[1]) * step.loops;
  }
  return steps.filter((s) => s.rows > limit).map((s) => `${s.rows} rows: ${s.line.trim()}`);
}

describe('batch statements on statistics of finished messages', () => {
  it('a receipt batch moves n messages with n lookups, each with its own values', async () => {
    const ids = await insertMessages(200, 'sent');
    await insertMessages(2000, 'sent'); // waiting for their receipts, not in this batch
    // One without values of its own (it keeps its fields and takes the transition's error), and one
    // whose receipt text holds half a surrogate pair (odd UCS-2 bytes): stored as U+FFFD.
    const [bare, odd] = await insertMessages(2, 'sent');
    await sql`UPDATE messages SET smsc_stat = 'KEEP', receipt_raw = 'kept' WHERE id = ${bare!}::uuid`.execute(
      db,
    );
    plans.length = 0;
    const moved = await transition(db, {
      to: 'undelivered',
      from: ['sent'],
      error: 'batch error',
      rows: [
        ...ids.map((id, i) => ({
          id,
          smscStat: 'UNDELIV',
          smscErr: String(i).padStart(3, '0'),
          receiptRaw: `r${i}`,
        })),
        bare!,
        { id: odd!, receiptRaw: 'a\uD800b' },
      ],
    });
    expect(moved).toHaveLength(202);
    const extra = await sql<{ id: string; smsc_stat: string; receipt_raw: string; error: string }>`
      SELECT id, smsc_stat, receipt_raw, error FROM messages WHERE id IN (${bare!}::uuid, ${odd!}::uuid)`.execute(
      db,
    );
    expect(Object.fromEntries(extra.rows.map((r) => [r.id, r]))).toEqual({
      [bare!]: { id: bare, smsc_stat: 'KEEP', receipt_raw: 'kept', error: 'batch error' },
      [odd!]: { id: odd, smsc_stat: null, receipt_raw: 'a\uFFFDb', error: 'batch error' },
    });
    expect(heavySteps(planOf(/UPDATE messages m SET status/), 2 * 202)).toEqual([]);
    const { rows } = await sql<{ id: string; smsc_err: string; receipt_raw: string; status: string }>`
      SELECT id, smsc_err, receipt_raw, status FROM messages WHERE id = ANY(${ids}::uuid[])`.execute(db);
    const byId = new Map(rows.map((r) => [r.id, r]));
    ids.forEach((id, i) => {
      expect(byId.get(id)).toMatchObject({
        status: 'undelivered',
        smsc_err: String(i).padStart(3, '0'),
        receipt_raw: `r${i}`,
      });
    });
  });

  it('a claim of n queued messages sets each one attempt count with n lookups', async () => {
    const ids = await insertMessages(200, 'queued');
    await sql`
      INSERT INTO send_queue (message_id, priority, due_at, validity_until, attempts)
      SELECT id, 1, now() - interval '1 second', now() + interval '1 day', 2
        FROM unnest(${ids}::uuid[]) AS id`.execute(db);
    // 2,000 more waiting behind them.
    const later = await insertMessages(2000, 'queued');
    await sql`
      INSERT INTO send_queue (message_id, priority, due_at, validity_until)
      SELECT id, 1, now(), now() + interval '1 day' FROM unnest(${later}::uuid[]) AS id`.execute(db);
    plans.length = 0;
    const claimed = await claimBatch(db, 'plans-worker', 200, 60);
    expect(claimed).toHaveLength(200);
    expect(claimed.every((m) => m.attempts === 3)).toBe(true);
    expect(new Set(claimed.map((m) => m.id))).toEqual(new Set(ids));
    const plan = planOf(/SET status = 'sending'/);
    expect(heavySteps(plan, 2 * 200)).toEqual([]);
    // Planned with the claimed ids known (wren_claim's EXECUTE): only their month, of the five
    // partitions there are (this month, three ahead, the default one).
    expect(new Set(plan.match(/\bmessages_(?:p\d{6}|legacy)\b/g))).toHaveProperty('size', 1);
  });

  it('a receipt batch settles n parts with n lookups, each with its own stat and error', async () => {
    // Parts of finished messages (the statistics say almost every part has its stat), then open ones.
    const done = await insertMessages(2000, 'delivered');
    await sql`
      INSERT INTO message_parts (connection, smsc_key, message_id, part, stat)
      SELECT 'default', 'done-' || id, id, 1, 'DELIVRD' FROM unnest(${done}::uuid[]) AS id`.execute(db);
    await sql`ANALYZE message_parts`.execute(db);
    const ids = await insertMessages(200, 'sent');
    const waiting = await insertMessages(2000, 'sent'); // parts still open, not in these batches
    await sql`
      INSERT INTO message_parts (connection, smsc_key, message_id, part)
      SELECT 'default', 'open-' || id, id, 1 FROM unnest(${[...ids, ...waiting]}::uuid[]) AS id`.execute(db);
    const batch = (from: number) =>
      ids.slice(from, from + 100).map((id, i) => ({
        message_id: id,
        part: 1,
        stat: 'UNDELIV',
        err: String(from + i).padStart(3, '0'),
        raw: `id:open-${id} stat:UNDELIV err:${String(from + i).padStart(3, '0')}`,
      }));
    plans.length = 0;
    expect(await settleParts(db, batch(0))).toHaveLength(100);
    expect(heavySteps(planOf(/UPDATE message_parts p\s+SET/), 2 * 100)).toEqual([]);
    // In Wren it is a prepared statement (genericPlanOk): its generic plan too.
    plans.length = 0;
    await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx);
      expect(await settleParts(trx, batch(100))).toHaveLength(100);
    });
    const generic = planOf(/UPDATE message_parts p\s+SET/);
    expect(heavySteps(generic, 2 * 100)).toEqual([]);
    const { rows } = await sql<{ message_id: string; err: string; raw: string }>`
      SELECT message_id, err, raw FROM message_parts WHERE message_id = ANY(${ids}::uuid[])`.execute(db);
    const byId = new Map(rows.map((r) => [r.message_id, r]));
    ids.forEach((id, i) => {
      const err = String(i).padStart(3, '0');
      expect(byId.get(id)).toMatchObject({ err, raw: `id:open-${id} stat:UNDELIV err:${err}` });
    });
  });

  it('receipt matching looks each SMSC id up by its key, even when statistics guess many parts a key', async () => {
    // Sequential decimal ids stored under more than one notation: each key on several parts, so
    // the statistics say a batch of keys matches a good share of the table.
    const msgs = await insertMessages(3000, 'delivered');
    await sql`
      INSERT INTO message_parts (connection, smsc_key, message_id, part, stat)
      SELECT c, 'seq-' || (i % 300), id, 1, 'DELIVRD'
        FROM unnest(${msgs}::uuid[]) WITH ORDINALITY AS u(id, i), unnest(ARRAY['a', 'b', 'c']) AS c`.execute(
      db,
    );
    await sql`ANALYZE message_parts`.execute(db);
    const keys = Array.from({ length: 40 }, (_, i) => `seq-${i}`);
    plans.length = 0;
    const found = await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = on`.execute(trx);
      return findParts(trx, ['a', 'b'], keys);
    });
    expect(found).toHaveLength(40 * 10 * 2);
    const plan = planOf(/smsc_key = (ANY|k\.key)/);
    expect(plan).not.toMatch(/Seq Scan on message_parts/);
    expect(heavySteps(plan, 2 * found.length)).toEqual([]);
  });
});
