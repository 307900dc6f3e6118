import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { scheduledMessageRow } from '../../../test/messaging';
import { onEveryStatement } from '../../../test/statement-spy';
import { DTO_COLUMNS } from './messages.repository';
import { createSendBatcher, type SendHook, type SendJob } from './send-batcher';

// The send batcher's group commit on the real database: two transactions in flight, balance locks
// taken last and in account order, and a refused job that leaves nothing behind.

/** Statements sent while `statements` is an array (every client of this process). */
let statements: { text: string; client: object }[] | null = null;
onEveryStatement((text, client) => statements?.push({ text: text.trim(), client }));

/** What `run` returns, the statements sent while it ran, and whether each of them ran in a transaction. */
async function during<T>(run: () => Promise<T>) {
  const sent: { text: string; client: object }[] = [];
  statements = sent;
  try {
    const result = await run();
    /**
     * The statements matching `pattern` that ran in a transaction: on their connection, just after a
     * BEGIN or just before a COMMIT (background work on other connections has transactions of its own).
     */
    const inTransaction = (pattern: RegExp) =>
      sent
        .filter((t) => pattern.test(t.text))
        .filter((t) => {
          const mine = sent.filter((o) => o.client === t.client);
          const at = mine.indexOf(t);
          return (
            /^BEGIN\b/i.test(mine[at - 1]?.text ?? '') ||
            /^(COMMIT|ROLLBACK)\b/i.test(mine[at + 1]?.text ?? '')
          );
        });
    return { result, seen: sent.map((t) => t.text), inTransaction };
  } finally {
    statements = null;
  }
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRIAL_BALANCE_MINOR: '2000' });
});
afterAll(async () => {
  await server?.close();
});

let seq = 0;
/** A job of `n` scheduled messages (nothing is dispatched) costing `price` each. */
function job(accountId: string, n: number, hook?: SendJob['hook'], price = 10): SendJob {
  const now = new Date();
  const k = seq++;
  return {
    accountId,
    reference: `batcher-test:${k}`,
    note: 'test',
    totalMinor: price * n,
    hook,
    rows: Array.from({ length: n }, (_, i) =>
      scheduledMessageRow(
        {
          accountId,
          recipient: `+1212555${String((k * 100 + i) % 10_000).padStart(4, '0')}`,
          body: `Job ${k}`,
          priceMinor: price,
        },
        now,
      ),
    ),
  };
}

const stored = async (accountId: string) =>
  Number(
    (
      await server.ctx.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const account = async () => (await server.client().register()).user.accountId;

describe('the send batcher', () => {
  it('commits a second batch while the first one’s transaction is still open', async () => {
    const [a, b] = [await account(), await account()];
    const { db, logger } = server.ctx;
    const batcher = createSendBatcher({ db, ledger: server.ctx.services.ledger, logger });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    // A's transaction stops inside its hook (after its inserts and debit) until released.
    const first = batcher.submit(
      job(a, 3, {
        hook: {
          async write() {
            entered();
            await gate;
          },
        },
        data: null,
      }),
    );
    await inside;
    // 200 rows: enough for a second transaction beside a running one.
    const second = batcher.submit(job(b, 200));
    // One transaction at a time, B would wait for A's commit, which waits for the gate.
    const race = await Promise.race([
      second.then(() => 'second committed'),
      new Promise((resolve) => setTimeout(() => resolve('second still waiting after 5 s'), 5_000)),
    ]);
    expect(race).toBe('second committed');
    expect(await stored(b)).toBe(200);
    release();
    expect((await first).rows).toHaveLength(3);
    expect(await stored(a)).toBe(3);
  });

  it('debits one account exactly under concurrent batches, and a refused job writes nothing', async () => {
    const a = await account();
    const { db, logger, services } = server.ctx;
    const batcher = createSendBatcher({ db, ledger: services.ledger, logger });
    // 2,000 of balance, 30 jobs of 5 messages (50 each): 40 would fit, so all 30 are accepted;
    // then 20 more of 20 messages at 5 (100 each, enough rows for two transactions at once): 500 is
    // left, so exactly 5 of those are accepted.
    const small = await Promise.all(Array.from({ length: 30 }, () => batcher.submit(job(a, 5))));
    expect(small).toHaveLength(30);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => batcher.submit(job(a, 20, undefined, 5))),
    );
    const accepted = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(accepted).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect(String(r.reason)).toMatch(/Insufficient balance/);
    expect(await stored(a)).toBe(30 * 5 + 5 * 20);
    expect(await services.ledger.verify(db, a)).toEqual({ cached: 0, sum: 0 });
  });

  it('writes a batch of one account as one statement with no transaction around it, or refuses it whole', async () => {
    const a = await account();
    const { db, logger, services } = server.ctx;
    const batcher = createSendBatcher({ db, ledger: services.ledger, logger });
    // Three jobs of 40 messages at 10 (1,200 of the 2,000 balance), in one batch or two (the first
    // starts alone; the others wait for it, too few rows for a second transaction beside it).
    const {
      result: sent,
      seen,
      inTransaction,
    } = await during(() => Promise.all([0, 1, 2].map(() => batcher.submit(job(a, 40)))));
    expect(inTransaction(/INSERT INTO "messages"/)).toEqual([]);
    // Each batch is one statement that inserts the messages and debits the account.
    const inserts = seen.filter((t) => /INSERT INTO "messages"/.test(t));
    expect(inserts.length).toBeGreaterThanOrEqual(1);
    expect(inserts.length).toBeLessThanOrEqual(2);
    expect(inserts.every((t) => /UPDATE accounts SET balance_minor/.test(t))).toBe(true);
    expect(seen.filter((t) => /UPDATE accounts SET balance_minor/.test(t))).toHaveLength(inserts.length);
    expect(sent.map((r) => r.balanceMinor)).toEqual([1600, 1200, 800]);
    expect(sent.flatMap((r) => r.rows)).toHaveLength(120);
    // The rows it answers with are built, not returned: they are the stored rows, to the millisecond.
    const answered = sent.flatMap((r) => r.rows).sort((x, y) => (x.id < y.id ? -1 : 1));
    const storedRows = await db
      .selectFrom('messages')
      .select([...DTO_COLUMNS])
      .where('account_id', '=', a)
      .orderBy('id')
      .execute();
    expect(answered).toEqual(storedRows);
    expect(answered.every((m) => m.created_at instanceof Date && m.created_at.getTime() > 0)).toBe(true);
    // 800 left: a job of 81 messages at 10 is refused and writes nothing.
    await expect(batcher.submit(job(a, 81))).rejects.toThrow(/Insufficient balance/);
    expect(await stored(a)).toBe(120);
    expect(await services.ledger.verify(db, a)).toEqual({ cached: 800, sum: 800 });
  });

  it('writes another module’s records in the batch’s one statement when they need only the rows as built', async () => {
    const a = await account();
    const { db, logger, services } = server.ctx;
    const batcher = createSendBatcher({ db, ledger: services.ledger, logger });
    await sql`CREATE TABLE IF NOT EXISTS test_hook_rows (message_id uuid, note text)`.execute(db);
    const hook: SendHook<string> = {
      async write(trx, items) {
        const rows = items.flatMap((it) => it.rows.map((r) => ({ id: r.id, note: it.data })));
        await sql`INSERT INTO test_hook_rows SELECT * FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.note)}::text[])`.execute(
          trx,
        );
      },
      statement(items) {
        if (items.some((it) => it.data === 'needs rows')) return null;
        const rows = items.flatMap((it) => it.rows.map((r) => ({ id: r.id, note: it.data })));
        return sql`INSERT INTO test_hook_rows SELECT * FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.note)}::text[])`;
      },
    };
    const noted = async (note: string) =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM test_hook_rows WHERE note = ${note}`.execute(
          db,
        )
      ).rows[0]!.n;

    const {
      result: sent,
      seen,
      inTransaction,
    } = await during(() =>
      Promise.all(['one', 'two'].map((note) => batcher.submit(job(a, 10, { hook, data: note })))),
    );
    expect(inTransaction(/INSERT INTO test_hook_rows/)).toEqual([]);
    const writes = seen.filter((t) => /INSERT INTO test_hook_rows/.test(t));
    expect(writes.length).toBeGreaterThanOrEqual(1);
    expect(
      writes.every((t) => /INSERT INTO "messages"/.test(t) && /UPDATE accounts SET balance_minor/.test(t)),
    ).toBe(true);
    expect([await noted('one'), await noted('two')]).toEqual([10, 10]);
    expect(sent.map((r) => r.balanceMinor)).toEqual([1900, 1800]);

    // Refused (1,800 left, 181 × 10 asked): neither the messages nor the records are written.
    await expect(batcher.submit(job(a, 181, { hook, data: 'refused' }))).rejects.toThrow(
      /Insufficient balance/,
    );
    expect(await noted('refused')).toBe(0);

    // A hook that needs the inserted rows: a transaction that calls write.
    const transacted = await during(() => batcher.submit(job(a, 5, { hook, data: 'needs rows' })));
    expect(transacted.inTransaction(/INSERT INTO "messages"/)).toHaveLength(1);
    expect(await noted('needs rows')).toBe(5);
    expect(await stored(a)).toBe(25);
    expect(await services.ledger.verify(db, a)).toEqual({ cached: 1750, sum: 1750 });
  });

  it('in the one statement, inserts everything before it locks the account’s row to debit it', async () => {
    const a = await account();
    const { db, logger, services } = server.ctx;
    const batcher = createSendBatcher({ db, ledger: services.ledger, logger });
    await sql`CREATE TABLE IF NOT EXISTS test_hook_times (message_id uuid, at timestamptz DEFAULT clock_timestamp())`.execute(
      db,
    );
    const hook: SendHook<null> = {
      async write() {
        throw new Error('the one statement was expected');
      },
      statement: (items) =>
        sql`INSERT INTO test_hook_times (message_id) SELECT unnest(${items.flatMap((it) => it.rows.map((r) => r.id))}::uuid[])`,
    };
    // Another connection holds the account's row while the send runs.
    const holder = new pg.Client({ connectionString: server.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [a]);
      const sent = batcher.submit(job(a, 30, { hook, data: null }));
      // The send is waiting for the row lock…
      let waiting = false;
      for (let i = 0; i < 100 && !waiting; i++) {
        const { rows } = await holder.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE wait_event_type = 'Lock' AND datname = current_database() AND pid <> pg_backend_pid()`,
        );
        waiting = rows[0]!.n > 0;
        if (!waiting) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(waiting).toBe(true);
      // As text: a Date keeps milliseconds only, and the hook's rows may fall in the same one.
      const { rows } = await holder.query<{ at: string }>('SELECT clock_timestamp()::text AS at');
      const released = rows[0]!.at;
      await holder.query('COMMIT');
      expect((await sent).rows).toHaveLength(30);
      // …and its inserts had run before it waited: the hook's rows (the last of its writes) were
      // written before the lock was released.
      const times = await sql<{ before: boolean }>`SELECT t.at < ${released}::timestamptz AS before
                   FROM test_hook_times t JOIN messages m ON m.id = t.message_id
                  WHERE m.account_id = ${a}::uuid`.execute(db);
      expect(times.rows).toHaveLength(30);
      for (const t of times.rows) expect(t.before).toBe(true);
    } finally {
      await holder.end();
    }
    expect(await services.ledger.verify(db, a)).toEqual({ cached: 1700, sum: 1700 });
  });

  it('runs batches that span several accounts in any order without deadlocks', async () => {
    const accounts = [await account(), await account(), await account()];
    const { db, logger, services } = server.ctx;
    const batcher = createSendBatcher({ db, ledger: services.ledger, logger });
    // Jobs of the three accounts submitted one per turn of the event loop in the repeating order
    // a0 a1 a2 a2 a1 a0, so the batches that form while two are in flight start at different
    // points of it and meet the accounts in different orders. Locked in the order they come, two
    // batches in flight could each hold one account and wait for the other's.
    const pattern = [0, 1, 2, 2, 1, 0];
    const jobs: Promise<unknown>[] = [];
    for (let i = 0; i < 120; i++) {
      jobs.push(batcher.submit(job(accounts[pattern[i % 6]!]!, 50, undefined, 1)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(jobs);
    for (const a of accounts) {
      expect(await stored(a)).toBe(2000);
      expect(await services.ledger.verify(db, a)).toEqual({ cached: 0, sum: 0 });
    }
  });
});
