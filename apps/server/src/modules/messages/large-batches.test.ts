import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startServer, type TestServer } from '../../../test/harness';
import { scheduledMessageRow } from '../../../test/messaging';
import { findParts, settleParts } from './parts.repository';
import { claimBatch, insertParts } from './outcomes.repository';
import { transition } from './status.repository';
import { createSendBatcher } from './send-batcher';

// PostgreSQL's protocol counts a statement's parameters in 16 bits: a multi-row insert of more than
// 65,535 values wraps around ("bind message has N parameter formats but 0 parameters"). Group
// commit makes such batches from ordinary traffic, so every batched statement must stay under it.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRIAL_BALANCE_MINOR: '100000' });
});
afterAll(async () => {
  await server?.close();
});

const numbers = (start: number, n: number) =>
  Array.from({ length: n }, (_, i) => `+1212555${String(start + i).padStart(4, '0')}`);

describe('batches larger than one statement can carry', () => {
  it('accepts 80 concurrent sends of 100 recipients each (thousands of rows in one group commit)', async () => {
    const c = server.client();
    const { user } = await c.register();
    const sends = await Promise.all(
      Array.from({ length: 80 }, (_, k) =>
        c.post('/api/sms/single', { recipients: numbers(k * 100, 100), text: `Batch ${k}` }),
      ),
    );
    expect(sends.map((r) => r.status)).toEqual(Array(80).fill(202));
    const stored = await server.ctx.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', user.accountId)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(8000);
    const events = await server.ctx.db
      .selectFrom('message_events')
      .innerJoin('messages', 'messages.id', 'message_events.message_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('messages.account_id', '=', user.accountId)
      .executeTakeFirstOrThrow();
    // Accepting a message writes no history row (its steps are read from the message itself).
    expect(Number(events.n)).toBe(0);
    const balance = await c.get('/api/balance');
    expect(balance.body.balanceMinor).toBe(100000 - 8000);
  });

  it('writes 78 jobs of 100 messages that queued behind the first two transactions, in batches of at most 2,000 rows', async () => {
    const c = server.client();
    const { user } = await c.register();
    const { db, logger } = server.ctx;
    const batcher = createSendBatcher({ db, ledger: server.ctx.services.ledger, logger });
    const now = new Date();
    // All submitted in one tick: the first two start a transaction each, the other 78 (7,800 rows of
    // about 20 columns) are written by the next ones, at most 2,000 rows each.
    const jobs = Array.from({ length: 80 }, (_, k) =>
      batcher.submit({
        accountId: user.accountId,
        reference: `test:${k}`,
        note: 'test',
        totalMinor: 100,
        rows: numbers(k * 100, 100).map((to) =>
          scheduledMessageRow(
            { accountId: user.accountId, recipient: to, body: `Batch ${k}`, priceMinor: 1 },
            now,
          ),
        ),
      }),
    );
    const results = await Promise.all(jobs);
    expect(results.flatMap((r) => r.rows)).toHaveLength(8000);
    expect(Math.min(...results.map((r) => r.balanceMinor))).toBe(100000 - 8000);
    const ledger = await server.ctx.services.ledger.verify(db, user.accountId);
    expect(ledger).toEqual({ cached: 100000 - 8000, sum: 100000 - 8000 });
  });

  it('settles and stores the parts of a 8,000-message dispatcher backlog, and finds them by key', async () => {
    const c = server.client();
    await c.register();
    const { db } = server.ctx;
    const claimed = await claimBatch(db, 'test-worker', 10_000, 60);
    expect(claimed.length).toBeGreaterThanOrEqual(8000);
    const ids = claimed.map((m) => m.id);
    // Four keys per message, four columns each: 128,000 values.
    const parts = ids.flatMap((id) =>
      [0, 1, 2, 3].map((part) => ({ connection: 'test', smsc_key: randomUUID(), message_id: id, part })),
    );
    const sent = await db.transaction().execute(async (trx) => {
      const s = await transition(trx, {
        to: 'sent',
        from: ['sending'],
        heldBy: 'test-worker',
        connection: 'test',
        rows: ids,
      });
      await insertParts(trx, parts);
      return s;
    });
    expect(sent).toHaveLength(ids.length);
    const found = await findParts(
      db,
      ['test'],
      parts.map((p) => p.smsc_key),
    );
    expect(found).toHaveLength(parts.length);
    // Every part's receipt in one statement (32,000 parts): each message comes back whole and final.
    const progress = await settleParts(
      db,
      parts.map((p) => ({ message_id: p.message_id, part: p.part, stat: 'DELIVRD', err: '000', raw: null })),
    );
    expect(progress).toHaveLength(ids.length);
    expect(
      progress.every(
        (p) => p.stats.join() === 'DELIVRD,DELIVRD,DELIVRD,DELIVRD' && p.changed.join() === '0,1,2,3',
      ),
    ).toBe(true);
  });
});
