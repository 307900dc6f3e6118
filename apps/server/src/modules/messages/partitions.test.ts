import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../test/client';
import { startServer, testDatabaseUrl, type TestServer } from '../../../test/harness';
import { waitForFinal } from '../../../test/messaging';
import { TEST_ROOT } from '../../../test/pg-admin';
import { loadConfig } from '../../platform/config';
import type { Db } from '../../platform/db';
import { openPostgres } from '../../platform/db';
import { migrate, MIGRATIONS_DIR } from '../../platform/migrate';
import { until } from '../../realtime/test-client';
import {
  applyRetention,
  ensurePartitions,
  listMonthPartitions,
  monthStart,
  PARTITIONS_JOB,
  partitionName,
} from './partitions';

/**
 * Monthly partitions of `messages` (issue #17, migration 0016) and MESSAGE_RETENTION_MONTHS, through
 * the real server, its database and the built-in SMSC simulator.
 */
let server: TestServer;
let db: Db;

beforeAll(async () => {
  server = await startServer({ SIMULATOR_DELAY_MS: '20', SIMULATOR_MIX: 'DELIVRD=100' }, { worker: true });
  db = server.ctx.db;
}, 60_000);
afterAll(async () => {
  await server?.close();
});

const DAY = 86_400_000;

/** The partition a message's row is stored in. */
async function partitionOf(id: string): Promise<string | null> {
  const { rows } = await sql<{ part: string }>`
    SELECT tableoid::regclass::text AS part FROM messages WHERE id = ${id}::uuid`.execute(db);
  return rows[0]?.part ?? null;
}

/** Stores a message created at `createdAt` (as a bench or an import would); waiting ones join send_queue. */
async function insertAt(accountId: string, createdAt: Date, status = 'delivered'): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO messages (account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                          status, validity_until, created_at, done_at)
    VALUES (${accountId}::uuid, '+14155550199', 'Wren', ${`at ${createdAt.toISOString()}`}, 'GSM-7', 1, 1, 'USD',
            ${status}, '2100-01-01T00:00:00Z',
            ${createdAt.toISOString()}::timestamptz, ${status === 'queued' ? null : createdAt.toISOString()})
    RETURNING id`.execute(db);
  const id = rows[0]!.id;
  if (status === 'queued') {
    // Due in 2100: the dispatcher leaves it waiting for the whole test.
    await sql`INSERT INTO send_queue (message_id, priority, due_at, scheduled, validity_until)
              VALUES (${id}::uuid, 1, '2100-01-01T00:00:00Z', false, '2100-01-01T00:00:00Z')`.execute(db);
  }
  return id;
}

async function sendReal(c: ApiClient, recipients: string[], text: string): Promise<string[]> {
  const res = await c.post('/api/sms/single', { recipients, text });
  expect(res.status).toBe(202);
  const ids = (res.body.messages as { id: string }[]).map((m) => m.id);
  await waitForFinal(c, ids);
  return ids;
}

/** Moves a message's row to another month (UPDATE of the partition key: the row changes partition). */
async function age(id: string, to: Date) {
  await sql`UPDATE messages SET created_at = ${to.toISOString()}::timestamptz WHERE id = ${id}::uuid`.execute(
    db,
  );
}

const countWhere = async (table: 'message_parts' | 'message_events' | 'api_messages', ids: string[]) =>
  Number(
    (
      await sql<{
        n: string;
      }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE message_id = ANY(${ids}::uuid[])`.execute(db)
    ).rows[0]!.n,
  );

const ledgerOf = async (accountId: string) =>
  (
    await sql<{ n: string; sum: string }>`
      SELECT count(*) AS n, coalesce(sum(amount_minor), 0) AS sum FROM ledger_entries
       WHERE account_id = ${accountId}::uuid`.execute(db)
  ).rows[0]!;

describe('messages partitioned by month', () => {
  it("a message lands in its month's partition; one outside every month lands in the default and is in the SMS log", async () => {
    const c = server.client();
    const { user } = await c.register();
    const [sent] = await sendReal(c, ['+14155550101'], 'partition of this month');
    const { rows } = await sql<{ part: string; created_at: Date }>`
      SELECT tableoid::regclass::text AS part, created_at FROM messages WHERE id = ${sent!}::uuid`.execute(
      db,
    );
    expect(rows[0]!.part).toBe(partitionName(rows[0]!.created_at));
    expect(rows[0]!.part).toMatch(/^messages_p\d{6}$/);

    const future = await insertAt(user.accountId, new Date('2100-01-15T10:00:00Z'));
    const past = await insertAt(user.accountId, new Date('1990-06-15T10:00:00Z'));
    expect(await partitionOf(future)).toBe('messages_pdefault');
    expect(await partitionOf(past)).toBe('messages_pdefault');
    const log = await c.get('/api/sms/log');
    expect(log.status).toBe(200);
    expect(log.body.items.map((m: { id: string }) => m.id)).toEqual([future, sent, past]);
    expect((await c.get(`/api/sms/log/${future}`)).status).toBe(200);
    // Another account sees none of them.
    const other = server.client();
    await other.register();
    expect((await other.get(`/api/sms/log/${future}`)).status).toBe(404);
  });

  it('ensurePartitions is idempotent and moves rows of a month it creates out of the default', async () => {
    const c = server.client();
    const { user } = await c.register();
    // Beyond the months ahead the server created at boot.
    const month = monthStart(new Date(), 8);
    const a = await insertAt(user.accountId, new Date(month.getTime() + 2 * DAY));
    const b = await insertAt(user.accountId, new Date(month.getTime() + 20 * DAY), 'failed');
    expect(await partitionOf(a)).toBe('messages_pdefault');
    expect(await partitionOf(b)).toBe('messages_pdefault');
    const outcomes = async () =>
      Number(
        (
          await sql<{
            n: string;
          }>`SELECT count(*) AS n FROM message_outcomes WHERE account_id = ${user.accountId}::uuid`.execute(
            db,
          )
        ).rows[0]!.n,
      );
    expect(await outcomes()).toBe(1);

    const created = await ensurePartitions(db, month, 1);
    expect(created).toEqual([partitionName(month), partitionName(monthStart(month, 1))]);
    expect(await partitionOf(a)).toBe(partitionName(month));
    expect(await partitionOf(b)).toBe(partitionName(month));
    // Moved, not re-inserted: no second outcome row, the rows are unchanged.
    expect(await outcomes()).toBe(1);
    const detail = await c.get(`/api/sms/log/${b}`);
    expect(detail.status).toBe(200);
    expect(detail.body.message).toMatchObject({ id: b, status: 'failed' });

    expect(await ensurePartitions(db, month, 1)).toEqual([]);
    expect(await ensurePartitions(db, new Date())).toEqual([]);

    // The new month has every index and row trigger of `messages`.
    const shape = async (table: string) => {
      const { rows } = await sql<{ indexes: number; triggers: number; fillfactor: string | null }>`
        SELECT (SELECT count(*)::int FROM pg_index WHERE indrelid = c.oid) AS indexes,
               (SELECT count(*)::int FROM pg_trigger WHERE tgrelid = c.oid AND NOT tgisinternal) AS triggers,
               array_to_string(c.reloptions, ',') AS fillfactor
          FROM pg_class c WHERE c.oid = ${table}::regclass`.execute(db);
      return rows[0];
    };
    expect(await shape(partitionName(month))).toEqual(await shape('messages_pdefault'));
    expect(await shape(partitionName(month))).toEqual({
      indexes: 7,
      triggers: 4,
      fillfactor: 'fillfactor=50',
    });
    const later = await insertAt(user.accountId, new Date(month.getTime() + 3 * DAY), 'rejected');
    expect(await partitionOf(later)).toBe(partitionName(month));
    expect(await outcomes()).toBe(2);
  });

  it('MESSAGE_RETENTION_MONTHS drops whole old months, keeps newer ones and the ledger, skips a month with a queued message', async () => {
    const c = server.client();
    const { user } = await c.register();
    const key = await c.post('/api/api-keys', { name: 'Retention', scopes: ['sms:send', 'sms:read'] });
    expect(key.status).toBe(201);
    const secret = key.body.secret as string;
    const v1 = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(server.url + p, {
        method,
        headers: {
          authorization: `Bearer ${secret}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    const [dropWeb, keep, current, defaultOld] = await sendReal(
      c,
      ['+14155550111', '+14155550112', '+14155550113', '+14155550114'],
      'retention',
    );
    const apiSent = await v1('POST', '/v1/messages', { to: '+14155550115', text: 'retention api' });
    expect(apiSent.status).toBe(202);
    const dropApi = apiSent.body.data[0].id as string;
    await waitForFinal(c, [dropApi]);
    expect((await v1('GET', `/v1/messages/${dropApi}`)).status).toBe(200);

    const now = new Date();
    const oldMonth = monthStart(now, -14);
    const queuedMonth = monthStart(now, -13);
    const recentMonth = monthStart(now, -2);
    await ensurePartitions(db, oldMonth, 1);
    await ensurePartitions(db, recentMonth, 0);
    await age(dropWeb!, new Date(oldMonth.getTime() + 3 * DAY));
    await age(dropApi, new Date(oldMonth.getTime() + 4 * DAY));
    await age(keep!, new Date(recentMonth.getTime() + 3 * DAY));
    // 20 months ago has no partition: the default partition holds it.
    await age(defaultOld!, new Date(monthStart(now, -20).getTime() + 5 * DAY));
    const waiting = await insertAt(user.accountId, new Date(queuedMonth.getTime() + 6 * DAY), 'queued');
    expect(await partitionOf(dropWeb!)).toBe(partitionName(oldMonth));
    expect(await partitionOf(waiting)).toBe(partitionName(queuedMonth));
    expect(await partitionOf(defaultOld!)).toBe('messages_pdefault');
    const dropped = [dropWeb!, dropApi, defaultOld!];
    // The happy path stores no event rows (message-history.ts): one note each, as a retry would leave.
    await sql`INSERT INTO message_events (message_id, status, detail)
              SELECT unnest(${[...dropped, keep!]}::uuid[]), 'queued', 'Retry'`.execute(db);
    expect(await countWhere('message_parts', dropped)).toBeGreaterThanOrEqual(3);
    expect(await countWhere('message_events', dropped)).toBe(3);
    expect(await countWhere('api_messages', dropped)).toBe(1);

    const balance = (await c.get('/api/balance')).body.balanceMinor as number;
    expect(balance).toBe(500 - 5);
    const ledgerBefore = await ledgerOf(user.accountId);
    const partitionsBefore = (await listMonthPartitions(db)).map((p) => p.name);

    // Unset: keep all.
    expect(await applyRetention(db, null, now)).toMatchObject({
      dropped: [],
      skipped: [],
      defaultRowsDeleted: 0,
    });
    expect((await listMonthPartitions(db)).map((p) => p.name)).toEqual(partitionsBefore);
    expect((await c.get(`/api/sms/log/${dropWeb}`)).status).toBe(200);

    const report = await applyRetention(db, 6, now);
    expect(report.cutoff).toEqual(monthStart(now, -6));
    expect(report.dropped).toEqual([partitionName(oldMonth)]);
    expect(report.skipped).toEqual([partitionName(queuedMonth)]);
    expect(report.defaultRowsDeleted).toBeGreaterThanOrEqual(1);

    const names = (await listMonthPartitions(db)).map((p) => p.name);
    expect(names).not.toContain(partitionName(oldMonth));
    expect(names).toContain(partitionName(queuedMonth));
    expect(names).toContain(partitionName(recentMonth));
    expect(
      (await sql<{ t: string | null }>`SELECT to_regclass(${partitionName(oldMonth)})::text AS t`.execute(db))
        .rows[0]!.t,
    ).toBeNull();

    // Gone everywhere a user looks: 404, not 500; nothing left hanging off them.
    for (const id of dropped) expect((await c.get(`/api/sms/log/${id}`)).status).toBe(404);
    expect((await v1('GET', `/v1/messages/${dropApi}`)).status).toBe(404);
    expect((await v1('GET', '/v1/messages')).body.data.map((m: { id: string }) => m.id)).toEqual([
      current,
      keep,
      waiting,
    ]);
    expect(await countWhere('message_parts', dropped)).toBe(0);
    expect(await countWhere('message_events', dropped)).toBe(0);
    expect(await countWhere('message_events', [keep!])).toBe(1);
    expect(await countWhere('api_messages', dropped)).toBe(0);
    const log = await c.get('/api/sms/log');
    expect(log.body.items.map((m: { id: string }) => m.id)).toEqual([current, keep, waiting]);

    // The money stays: every ledger entry, the same balance.
    expect(await ledgerOf(user.accountId)).toEqual(ledgerBefore);
    expect((await c.get('/api/balance')).body.balanceMinor).toBe(balance);
    const { cached, sum } = await server.ctx.services.ledger.verify(db, user.accountId);
    expect(cached).toBe(sum);

    // Again: nothing more to do while the queued message waits; once it is final its month goes too.
    expect(await applyRetention(db, 6, now)).toMatchObject({
      dropped: [],
      skipped: [partitionName(queuedMonth)],
    });
    await sql`DELETE FROM send_queue WHERE message_id = ${waiting}::uuid`.execute(db);
    await sql`UPDATE messages SET status = 'canceled', done_at = now() WHERE id = ${waiting}::uuid`.execute(
      db,
    );
    expect(await applyRetention(db, 6, now)).toMatchObject({
      dropped: [partitionName(queuedMonth)],
      skipped: [],
    });
    expect((await c.get(`/api/sms/log/${waiting}`)).status).toBe(404);
    expect(await ledgerOf(user.accountId)).toEqual(ledgerBefore);
  }, 60_000);

  it('a worker started with MESSAGE_RETENTION_MONTHS applies it through its partition job', async () => {
    const c = server.client();
    const { user } = await c.register();
    const old = monthStart(new Date(), -30);
    await ensurePartitions(db, old, 0);
    const id = await insertAt(user.accountId, new Date(old.getTime() + DAY));
    expect(await partitionOf(id)).toBe(partitionName(old));
    // A second node on the same database, its worker configured to keep 12 months.
    const node = await startServer(
      { MESSAGE_RETENTION_MONTHS: '12', SIMULATOR_DELAY_MS: '20' },
      { worker: true, databaseUrl: server.databaseUrl },
    );
    try {
      await until(async () => (await partitionOf(id)) === null, 30_000, 'the retention job');
      expect((await listMonthPartitions(db)).map((p) => p.name)).not.toContain(partitionName(old));
      expect((await c.get(`/api/sms/log/${id}`)).status).toBe(404);
      // The job has finished (not only dropped the month) before the node stops.
      await until(
        async () =>
          (
            await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job
                                      WHERE name = ${PARTITIONS_JOB} AND state = 'completed'`.execute(db)
          ).rows[0]!.n > 0,
        30_000,
        'the job to complete',
      );
    } finally {
      await node.close();
    }
  }, 90_000);

  it('MESSAGE_RETENTION_MONTHS: unset keeps all; a whole number of months ≥ 1, else a clear startup error', () => {
    const base = {
      DATA_DIR: TEST_ROOT,
      DATABASE_URL: 'postgres://x@127.0.0.1/x',
      JWT_SECRET: 'x'.repeat(40),
    };
    expect(loadConfig(base).messageRetentionMonths).toBeNull();
    expect(loadConfig({ ...base, MESSAGE_RETENTION_MONTHS: '' }).messageRetentionMonths).toBeNull();
    expect(loadConfig({ ...base, MESSAGE_RETENTION_MONTHS: '18' }).messageRetentionMonths).toBe(18);
    for (const bad of ['0', '-3', '1.5', 'twelve'])
      expect(() => loadConfig({ ...base, MESSAGE_RETENTION_MONTHS: bad })).toThrow(
        /MESSAGE_RETENTION_MONTHS: must be a whole number of months \(1 or more\)/,
      );
  });
});

describe('migration 0016', () => {
  it('keeps every existing row, each in its month, without firing the row triggers again', async () => {
    // A database migrated up to 0015, with messages in it, then migrated to the end.
    const name = `wren_mig_${randomBytes(6).toString('hex')}`;
    const admin = await openPostgres(testDatabaseUrl(), 1);
    await admin.execScript(`CREATE DATABASE ${name}`);
    await admin.close();
    const dir = mkdtempSync(path.join(TEST_ROOT, 'mig-'));
    const database = await openPostgres(testDatabaseUrl(name), 2);
    try {
      for (const f of readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}_.+\.sql$/.test(f) && f < '0016'))
        copyFileSync(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
      await migrate(database, dir);
      const mdb = database.db;
      await sql`INSERT INTO accounts (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'Before')`.execute(
        mdb,
      );
      const at = [
        '2024-02-10T08:00:00.123Z',
        '2024-02-29T23:59:59.999Z',
        '2024-03-01T00:00:00.000Z',
        new Date().toISOString(),
      ];
      const { rows: inserted } = await sql<{ id: string }>`
        INSERT INTO messages (account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                              status, validity_until, created_at)
        SELECT '00000000-0000-4000-8000-000000000001', '+1415555010' || i, 'Wren', 'before 0016 #' || i, 'GSM-7', 1,
               i, 'USD', CASE WHEN i = 2 THEN 'failed' ELSE 'delivered' END, t + interval '1 day', t
          FROM unnest(${at}::timestamptz[]) WITH ORDINALITY AS x(t, i)
        RETURNING id`.execute(mdb);
      await sql`INSERT INTO message_events (message_id, status) SELECT unnest(${inserted.map((r) => r.id)}::uuid[]), 'delivered'`.execute(
        mdb,
      );
      const snapshot = async () =>
        (await sql`SELECT * FROM messages ORDER BY created_at, id`.execute(mdb)).rows.map((r) =>
          JSON.stringify(r),
        );
      const before = await snapshot();
      const outcomes = async () =>
        (await sql`SELECT * FROM message_outcomes ORDER BY id`.execute(mdb)).rows.map((r) =>
          JSON.stringify(r),
        );
      const outcomesBefore = await outcomes();
      expect(outcomesBefore).toHaveLength(1);

      expect(await migrate(database)).toEqual(
        readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}_.+\.sql$/.test(f) && f >= '0016'),
      );
      expect(await snapshot()).toEqual(before);
      expect(await outcomes()).toEqual(outcomesBefore);
      const { rows: parts } = await sql<{ part: string; created_at: Date }>`
        SELECT tableoid::regclass::text AS part, created_at FROM messages ORDER BY created_at`.execute(mdb);
      expect(parts.map((p) => p.part)).toEqual([
        'messages_p202402',
        'messages_p202402',
        'messages_p202403',
        partitionName(new Date(at[3]!)),
      ]);
      const months = (
        await sql<{ name: string }>`
          SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           WHERE i.inhparent = 'messages'::regclass ORDER BY 1`.execute(mdb)
      ).rows.map((r) => r.name);
      const now = new Date();
      expect(months).toEqual(
        [
          'messages_p202402',
          'messages_p202403',
          ...[0, 1, 2, 3].map((k) => partitionName(monthStart(now, k))),
          'messages_pdefault',
        ].filter((v, i, all) => all.indexOf(v) === i),
      );
      // Partitioned, and nothing references messages(id) any more (0016's comments: retention deletes dependants).
      const { rows: shape } = await sql<{ kind: string; fks: number; events: number }>`
        SELECT (SELECT relkind::text FROM pg_class WHERE oid = 'messages'::regclass) AS kind,
               (SELECT count(*)::int FROM pg_constraint WHERE confrelid = 'messages'::regclass) AS fks,
               (SELECT count(*)::int FROM message_events) AS events`.execute(mdb);
      expect(shape[0]).toEqual({ kind: 'p', fks: 0, events: 4 });
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
      const drop = await openPostgres(testDatabaseUrl(), 1);
      await drop.execScript(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await drop.close();
    }
  }, 60_000);
});
