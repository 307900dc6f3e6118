import { randomUUID } from 'node:crypto';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { insertTestMessage } from '../../../test/messaging';
import { encodeCursor } from './message-dto';
import { openPostgres, transact, type Db } from '../../platform/db';
import { createStatementCache } from '../../platform/statement-cache';
import pg from 'pg';
import {
  listLog,
  logRowsByIds,
  prefixPage,
  RECIPIENT_PROBE_CAP,
  recipientProbe,
} from './log-pages.repository';
import { logQuery, type LogFilter } from './log-query.repository';
import { transition } from './status.repository';
import { until } from '../../realtime/test-client';
import { insertCampaign } from '../dashboard/test-fixtures';

/**
 * The SMS log at a size where the planner must choose (issue #17): 200,000 messages for one account
 * (and 20,000 for another), seeded with one INSERT … SELECT generate_series each. Every page, at any
 * depth and with each filter, is an index seek: the plan has an Index Cond on the keyset, not a Filter.
 */
const N = 200_000;
let server: TestServer;
let accountId: string;
let token: string;
let otherToken: string;
/** A campaign of about 2,000 of the account's messages (1 %), spread over the year. */
let campaignId: string;

/** `campaign`: the campaign of the messages to numbers ending in 07 (a message keeps its campaign). */
async function seed(account: string, count: number, campaign: string | null = null) {
  await sql`
    INSERT INTO messages (account_id, campaign_id, recipient, sender, body, encoding, segments, price_minor,
                          currency, status, priority, validity_until, created_at, submitted_at, done_at)
    SELECT ${account}::uuid,
           CASE WHEN i % 100 = 7 THEN ${campaign}::uuid END,
           '+1' || (ARRAY[212,646,718,917,347,415,310,312,617,202])[1 + (i / 10000) % 10] || '555'
                || lpad((i % 10000)::text, 4, '0'),
           'Wren',
           (ARRAY['Your code is ', 'Your order has shipped, tracking ', 'Reminder: ref '])[1 + i % 3]
                || (i::bigint * 7919 % 1000000)::text,
           'GSM-7', 1, 1, 'USD',
           CASE WHEN i % 100 < 97 THEN 'delivered' ELSE 'rejected' END,
           1, t + interval '1 day', t, t, t
      FROM generate_series(1, ${count}::int) AS i,
           LATERAL (SELECT now() - interval '365 days' + (i::float8 / ${count}::int) * interval '365 days' AS t) ts
  `.execute(server.ctx.db);
}

beforeAll(async () => {
  // Two exports per node here (default 4), so the node's cap is met with one account's big export.
  server = await startServer({ EXPORT_MAX_PER_NODE: '2' });
  const c = server.client();
  const { user } = await c.register();
  accountId = user.accountId;
  token = c.accessToken!;
  const other = server.client();
  const { user: otherUser } = await other.register();
  otherToken = other.accessToken!;
  campaignId = (await insertCampaign(server.ctx.db, accountId)).id;
  await seed(accountId, N, campaignId);
  await seed(otherUser.accountId, N / 10);
  await sql`VACUUM (ANALYZE) messages`.execute(server.ctx.db);
  await sql`ANALYZE message_outcomes`.execute(server.ctx.db);
}, 180_000);
afterAll(async () => {
  await server?.close();
});

/** The monthly partitions with no row, by the statistics of beforeAll's VACUUM (ANALYZE): the months ahead. */
async function emptyPartitions() {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'messages'::regclass AND c.reltuples <= 0`.execute(server.ctx.db);
  return new Set(rows.map((r) => r.name));
}

/** Lines of a plan without the scans of empty partitions (the months ahead) and what they hold. */
const withoutEmpty = (text: string, empty: ReadonlySet<string>) => {
  const kept: string[] = [];
  let skipDeeperThan = -1;
  for (const line of text.split('\n')) {
    const depth = line.search(/\S/);
    if (skipDeeperThan >= 0 && depth > skipDeeperThan) continue;
    skipDeeperThan = -1;
    const scan = /(?:Scan|Scan using \S+) on (messages_(?:p\d{6}|legacy))\b/.exec(line);
    if (scan && empty.has(scan[1]!)) {
      skipDeeperThan = depth;
      continue;
    }
    kept.push(line);
  }
  return kept.join('\n');
};

/**
 * The plan as text, read through the partitions (0018): each partition's index is named by the
 * index of `messages` it belongs to, and the scans of empty partitions (the months ahead; nothing to
 * seek in, the planner reads their zero pages) are left out with their lines.
 */
async function plan(f: Omit<LogFilter, 'accountId'>) {
  const rows = await logQuery(server.ctx.db, { accountId, limit: 51, ...f }).explain();
  const lines = rows.map((r) => String(r['QUERY PLAN']));
  const { rows: parents } = await sql<{ child: string; parent: string }>`
    SELECT c.relname AS child, p.relname AS parent
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
     WHERE p.relkind = 'I'`.execute(server.ctx.db);
  let text = withoutEmpty(lines.join('\n'), await emptyPartitions());
  parents.sort((a, b) => b.child.length - a.child.length);
  for (const { child, parent } of parents) text = text.split(child).join(parent);
  return text;
}

/** The row at `offset` in the log's order, as the ground truth for a deep cursor. */
async function rowAt(offset: number, where = sql`true`) {
  const { rows } = await sql<{ created_at: Date; id: string }>`
    SELECT created_at, id FROM messages WHERE account_id = ${accountId}::uuid AND ${where}
     ORDER BY created_at DESC, id DESC OFFSET ${offset} LIMIT 51`.execute(server.ctx.db);
  return rows;
}

const get = async (path: string) => {
  const res = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { items: { id: string }[]; nextCursor: string } };
};

describe('SMS log at scale: keyset pages are index seeks', () => {
  it('a page 99% deep seeks with a row comparison in the Index Cond, not a Filter', async () => {
    const [deep, ...expected] = await rowAt(Math.floor(N * 0.99));
    const after = { createdAt: deep!.created_at, id: deep!.id };
    const text = await plan({ after });
    expect(text).toMatch(/Index Cond: .*ROW\(created_at, id\) < ROW\(/);
    expect(text).not.toMatch(/Filter: .*created_at/);

    const page = await get(`/api/sms/log?limit=50&cursor=${encodeCursor(deep!)}`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((m) => m.id)).toEqual(expected.slice(0, 50).map((r) => r.id));
  });

  it("a campaign's page seeks on the campaign index with the keyset in its Index Cond", async () => {
    const [deep, ...expected] = await rowAt(1000, sql`campaign_id = ${campaignId}::uuid`);
    expect(expected).toHaveLength(50);
    const text = await plan({ campaignId, after: { createdAt: deep!.created_at, id: deep!.id } });
    expect(text).toMatch(/messages_campaign_keyset_idx/);
    expect(text).toMatch(/Index Cond: .*campaign_id = .*ROW\(created_at, id\) < ROW\(/);
    expect(text).not.toMatch(/Filter: .*created_at/);

    const page = await get(`/api/sms/log?limit=50&campaignId=${campaignId}&cursor=${encodeCursor(deep!)}`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((m) => m.id)).toEqual(expected.map((r) => r.id));
  });

  it('a date range is an Index Cond on the log index, with the keyset', async () => {
    const from = new Date(Date.now() - 200 * 86_400_000);
    const to = new Date(Date.now() - 190 * 86_400_000);
    const text = await plan({
      from,
      to,
      after: { createdAt: to, id: '00000000-0000-0000-0000-000000000000' },
    });
    expect(text).toMatch(/Index Cond: .*created_at >= .*created_at < /s);
    expect(text).not.toMatch(/Filter: .*created_at/);
  });

  it('an uncommon status (none, or 3%) seeks in message_outcomes; a status change lands there', async () => {
    expect(await plan({ status: 'failed' })).toMatch(/message_outcomes_pkey/);
    const [deep, ...expected] = await rowAt(3000, sql`status = 'rejected'`);
    const text = await plan({ status: 'rejected', after: { createdAt: deep!.created_at, id: deep!.id } });
    expect(text).toMatch(
      /message_outcomes_pkey on message_outcomes o.*\n.*Index Cond: .*ROW\(created_at, id\) < ROW\(/,
    );
    expect(text).not.toMatch(/Filter: .*created_at/);
    const page = await get(`/api/sms/log?limit=50&status=rejected&cursor=${encodeCursor(deep!)}`);
    expect(page.body.items.map((m) => m.id)).toEqual(expected.slice(0, 50).map((r) => r.id));
    expect((await get('/api/sms/log?status=failed')).body.items).toEqual([]);

    // A message that ends as failed (through the one status writer) is found by the filter.
    const id = await insertTestMessage(server, { accountId, status: 'queued' });
    await transition(server.ctx.db, { to: 'failed', from: ['queued'], rows: [id], error: 'test' });
    expect((await get('/api/sms/log?status=failed')).body.items.map((m) => m.id)).toEqual([id]);
    expect((await get('/api/sms/log?status=queued')).body.items).toEqual([]);

    // In-flight statuses are bounded by the work queue and the open parts, not the log.
    expect(await plan({ status: 'sending' })).toMatch(/send_queue/);
    expect(await plan({ status: 'sent' })).toMatch(/message_parts_open_idx/);
    const sent = await insertTestMessage(server, { accountId, status: 'queued' });
    await transition(server.ctx.db, { to: 'sending', from: ['queued'], rows: [sent] });
    expect((await get('/api/sms/log?status=sending')).body.items.map((m) => m.id)).toEqual([sent]);
    await transition(server.ctx.db, { to: 'sent', from: ['sending'], rows: [sent] });
    await sql`INSERT INTO message_parts (connection, smsc_key, message_id, part)
              VALUES ('default', 'k1', ${sent}::uuid, 1)`.execute(server.ctx.db);
    expect((await get('/api/sms/log?status=sent')).body.items.map((m) => m.id)).toEqual([sent]);
  });

  it('an uncommon status page picks its ids first and starts no parallel workers, even free ones', async () => {
    // Joined to messages, each probe is priced as a search of every monthly partition (run-time
    // pruning is not foreseen), so with 10M messages PostgreSQL chose two parallel workers: 8 ms of
    // set-up for a 0.3 ms page. Here starting them is made free, as the inflated estimate made it look.
    const text = await transact(server.ctx.db, async (trx) => {
      await sql`SET LOCAL parallel_setup_cost = 0`.execute(trx);
      await sql`SET LOCAL parallel_tuple_cost = 0`.execute(trx);
      await sql`SET LOCAL min_parallel_index_scan_size = 0`.execute(trx);
      await sql`SET LOCAL min_parallel_table_scan_size = 0`.execute(trx);
      const rows = await logQuery(trx, { accountId, limit: 51, status: 'rejected' }).explain();
      return rows.map((r) => String(r['QUERY PLAN'])).join('\n');
    });
    expect(text).not.toMatch(/Gather/);
    expect(text).toMatch(/Limit[^\n]*\n[^\n]*Index Only Scan Backward using message_outcomes_pkey/);
    // With another filter the ids cannot be picked first: the join stays, and finds the same rows.
    const [first] = await rowAt(0, sql`status = 'rejected'`);
    const { rows: one } = await sql<{ recipient: string }>`
      SELECT recipient FROM messages WHERE id = ${first!.id}::uuid`.execute(server.ctx.db);
    const both = await get(
      `/api/sms/log?limit=50&status=rejected&recipient=${encodeURIComponent(one[0]!.recipient)}`,
    );
    expect(both.body.items[0]!.id).toBe(first!.id);
    expect(both.body.items.length).toBeGreaterThan(1);
  });

  it('recipient exact and prefix (E.164) and text search use their indexes', async () => {
    const exact = await plan({ recipient: { exact: '+14155550123' } });
    // Per partition, either recipient index (the planner's choice per partition).
    expect(exact).toMatch(/messages_(log_)?recipient_idx/);
    expect(exact).not.toMatch(/Seq Scan/);
    expect(exact).toMatch(/Index Cond: .*recipient = /);
    // A prefix is served by an index whichever the planner picks from its sample: a recipient index
    // (the account's log one, or the reply-matching one of 0006 that leads with the recipient), or
    // (when it expects many matches, as PostgreSQL 15 does here) the log index in keyset order,
    // stopped by the LIMIT.
    const prefix = await plan({ recipient: { prefix: '+1415555012' } });
    expect(prefix).not.toMatch(/Seq Scan/);
    expect(prefix).toMatch(/messages_(log_)?recipient_idx|Limit[\s\S]*Index Scan using messages_log_idx/);
    // An area code ('+1415': a tenth of the log, in runs of 10,000 messages) seeks the head index
    // (0021) in keyset order, with the cursor in the Index Cond: no sort of its 20,000 matches.
    const deep = (await rowAt(N / 20, sql`recipient LIKE '+1415%'`))[0]!;
    const area = await plan({
      recipient: { prefix: '+1415' },
      after: { createdAt: deep.created_at, id: deep.id },
    });
    expect(area).toMatch(/Index (Only )?Scan using messages_log_head_idx/);
    expect(area).toMatch(/Index Cond: .*left"?\(recipient, 5\)+ = '\+1415'.*ROW\(created_at, id\) </);
    expect(area).not.toMatch(/(^|->\s+)(Incremental )?Sort\s+\(/m);
    expect(area).not.toMatch(/Seq Scan/);
    expect(await plan({ text: 'zebra quokka' })).toMatch(/messages_body_trgm_idx/);
    expect(await plan({ sender: 'Nobody' })).toMatch(/messages_log_sender_idx/);
    expect((await get('/api/sms/log?sender=Nobody')).body.items).toEqual([]);
    expect((await get('/api/sms/log?sender=wren&limit=3')).body.items).toHaveLength(3);

    const one = await get(`/api/sms/log?recipient=${encodeURIComponent('+1 415 555 0123')}`);
    const truth = await rowAt(0, sql`recipient = '+14155550123'`);
    expect(one.body.items.map((m) => m.id)).toEqual(truth.slice(0, 50).map((r) => r.id));
    expect(truth.length).toBeGreaterThan(0);
    const byPrefix = await get(`/api/sms/log?limit=200&recipient=${encodeURIComponent('+1415555012')}`);
    const prefixTruth = await rowAt(0, sql`recipient LIKE '+1415555012%'`);
    expect(prefixTruth.length).toBeGreaterThanOrEqual(20);
    expect(byPrefix.body.items.map((m) => m.id)).toEqual(prefixTruth.map((r) => r.id));
    expect((await get('/api/sms/log?text=zebra%20quokka')).body.items).toEqual([]);
  });

  it("a recipient prefix's pages (ids first, then their rows) follow the log's order to the end", async () => {
    // '+1415' matches a tenth of the log (20,000 rows); '+14155550' 10 numbers' worth.
    for (const prefix of ['+14155550', '+1415']) {
      const truth = await rowAt(0, sql`recipient LIKE ${prefix + '%'}`);
      let cursor = '';
      const seen: string[] = [];
      for (let page = 0; page < 4; page++) {
        const res = await get(`/api/sms/log?limit=7&recipient=${encodeURIComponent(prefix)}${cursor}`);
        expect(res.status).toBe(200);
        seen.push(...res.body.items.map((m) => m.id));
        if (!res.body.nextCursor) break;
        cursor = `&cursor=${res.body.nextCursor}`;
      }
      expect(seen).toEqual(truth.slice(0, seen.length).map((r) => r.id));
      expect(seen.length).toBe(Math.min(28, truth.length));
    }
    // The whole prefix of 10 numbers, paged to its end: every row once, in order.
    const all = await sql<{ id: string }>`
      SELECT id FROM messages WHERE account_id = ${accountId}::uuid AND recipient LIKE '+1415555012%'
       ORDER BY created_at DESC, id DESC`.execute(server.ctx.db);
    const walked: string[] = [];
    let cursor = '';
    for (;;) {
      const res = await get(`/api/sms/log?limit=6&recipient=${encodeURIComponent('+1415555012')}${cursor}`);
      walked.push(...res.body.items.map((m) => m.id));
      if (!res.body.nextCursor) break;
      cursor = `&cursor=${res.body.nextCursor}`;
    }
    expect(walked).toEqual(all.rows.map((r) => r.id));
    // Another account's prefix pages show none of these rows.
    const theirs = await fetch(
      `${server.url}/api/sms/log?limit=200&recipient=${encodeURIComponent('+1415555012')}`,
      {
        headers: { authorization: `Bearer ${otherToken}` },
      },
    );
    const theirIds = new Set(((await theirs.json()) as { items: { id: string }[] }).items.map((m) => m.id));
    expect(walked.some((id) => theirIds.has(id))).toBe(false);
  });

  it('a broad prefix looks back a month, then a year, then everything, and pages like the truth', async () => {
    // '+1415' last ran about 73 days ago: 3 newer matches a few days back (one with an id of now, in
    // this month's partition), 2 at 200 days among the seeded runs. A page of 7 from the top needs
    // the month's 3 and 4 from the year; pages then continue past every window to the oldest run.
    const day = 86_400_000;
    const extra = [2, 3, 4].map((d) => new Date(Date.now() - d * day));
    const ids: string[] = [];
    for (const [i, t] of [
      ...extra,
      new Date(Date.now() - 200 * day),
      new Date(Date.now() - 201 * day),
    ].entries()) {
      const { rows } = await sql<{ id: string }>`
        INSERT INTO messages (id, account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                              status, priority, validity_until, created_at)
        VALUES (${i === 0 ? sql`DEFAULT` : sql`wren_uuidv7(${t}::timestamptz)`}, ${accountId}::uuid,
                ${'+141599900' + i}, 'Wren', 'Window ' || ${i}::int, 'GSM-7', 1, 1, 'USD', 'delivered', 1,
                ${t}::timestamptz + interval '1 day', ${t}::timestamptz)
        RETURNING id`.execute(server.ctx.db);
      ids.push(rows[0]!.id);
    }
    try {
      const walk = async (query: string, pages: number) => {
        const seen: string[] = [];
        let cursor = '';
        for (let page = 0; page < pages; page++) {
          const res = await get(
            `/api/sms/log?limit=7&recipient=${encodeURIComponent('+1415')}${query}${cursor}`,
          );
          expect(res.status).toBe(200);
          seen.push(...res.body.items.map((m) => m.id));
          if (!res.body.nextCursor) break;
          cursor = `&cursor=${res.body.nextCursor}`;
        }
        return seen;
      };
      const truth = (
        await sql<{ id: string }>`
        SELECT id FROM messages WHERE account_id = ${accountId}::uuid AND recipient LIKE '+1415%'
         ORDER BY created_at DESC, id DESC LIMIT 70`.execute(server.ctx.db)
      ).rows.map((r) => r.id);
      // (Other tests here sent to '+1415…' just now: those come first.)
      const at = ids.slice(0, 3).map((id) => truth.indexOf(id));
      expect(at.every((k, i) => k >= 0 && k < 7 && (i === 0 || k > at[i - 1]!))).toBe(true);
      expect(await walk('', 10)).toEqual(truth);
      // From a cursor just above the two rows at 200 days: the month and the year before it.
      const [older] = (
        await sql<{ created_at: Date; id: string }>`
        SELECT created_at, id FROM messages WHERE id = ${ids[3]!}::uuid`.execute(server.ctx.db)
      ).rows;
      const cursor = encodeCursor({ created_at: new Date(older!.created_at.getTime() + 1), id: older!.id });
      const below = await get(
        `/api/sms/log?limit=7&recipient=${encodeURIComponent('+1415')}&cursor=${cursor}`,
      );
      const belowTruth = await rowAt(
        0,
        sql`recipient LIKE '+1415%' AND (created_at, id) < (${new Date(older!.created_at.getTime() + 1)}::timestamptz, ${older!.id}::uuid)`,
      );
      expect(below.body.items.map((m) => m.id)).toEqual(belowTruth.slice(0, 7).map((r) => r.id));
      expect(below.body.items.slice(0, 2).map((m) => m.id)).toEqual(ids.slice(3, 5));
      // A date range narrower than the windows: one query, the same rows as the truth.
      const from = new Date(Date.now() - 10 * day).toISOString();
      const ranged = await get(
        `/api/sms/log?limit=7&recipient=${encodeURIComponent('+1415')}&from=${encodeURIComponent(from)}`,
      );
      const rangedTruth = await rowAt(0, sql`recipient LIKE '+1415%' AND created_at >= ${from}::timestamptz`);
      expect(ranged.body.items.map((m) => m.id)).toEqual(rangedTruth.slice(0, 7).map((r) => r.id));
      expect(ranged.body.items.map((m) => m.id)).toEqual(expect.arrayContaining(ids.slice(0, 3)));
    } finally {
      await sql`DELETE FROM messages WHERE id = ANY(${ids}::uuid[])`.execute(server.ctx.db);
    }
  });

  it("a prefix page's rows are read by id from the partitions their ids fall in, and only the account's", async () => {
    const ids = (await rowAt(0, sql`recipient LIKE '+1415555012%'`)).slice(0, 3).map((r) => r.id);
    const rows = await logRowsByIds(server.ctx.db, accountId, ids).explain();
    const text = rows.map((r) => String(r['QUERY PLAN'])).join('\n');
    const partitions = new Set([...text.matchAll(/ on (messages_(?:p\d{6}|legacy))\b/g)].map((m) => m[1]));
    const months = new Set(
      ids
        .map((id) => Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16))
        .map((ms) => new Date(ms).toISOString().slice(0, 7)),
    );
    expect(partitions.size).toBeGreaterThan(0);
    expect(partitions.size).toBeLessThanOrEqual(months.size);
    expect(text).toMatch(/_pkey/);
    // Scoped: the same ids asked for by another account return nothing.
    expect(await logRowsByIds(server.ctx.db, randomUUID(), ids).execute()).toEqual([]);
  });
});

/**
 * The plan PostgreSQL keeps for a prepared page statement once it stops planning each execution:
 * the generic one (forced here), of the statement's text as the server sends it, with `values`.
 */
async function genericPlan(f: Omit<LogFilter, 'accountId'>) {
  return genericPlanOf(logQuery(server.ctx.db, { accountId, limit: 51, ...f }).compile());
}
async function genericPlanOf(
  q: { sql: string; parameters: readonly unknown[] },
  settings: (trx: Db) => Promise<void> = async (trx) => {
    await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx);
  },
) {
  const literal = (v: unknown) =>
    v instanceof Date ? `'${v.toISOString()}'` : typeof v === 'number' ? String(v) : `'${String(v)}'`;
  return transact(server.ctx.db, async (trx) => {
    await settings(trx);
    await sql.raw(`PREPARE page_plan AS ${q.sql}`).execute(trx);
    try {
      const { rows } = await sql
        .raw<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE page_plan(${q.parameters.map(literal).join(', ')})`)
        .execute(trx);
      return { sql: q.sql, plan: rows.map((r) => r['QUERY PLAN']).join('\n') };
    } finally {
      await sql`DEALLOCATE page_plan`.execute(trx);
    }
  });
}

describe('SMS log pages planned once per connection', () => {
  const deepCursor = async () => {
    const [deep] = await rowAt(Math.floor(N * 0.9));
    return { createdAt: deep!.created_at, id: deep!.id };
  };

  it('a page by time, cursor and status has one text for every account, cursor and page size', async () => {
    const after = await deepCursor();
    const a = logQuery(server.ctx.db, { accountId, limit: 51, after, status: 'rejected' }).compile();
    const b = logQuery(server.ctx.db, {
      accountId: randomUUID(),
      limit: 40,
      after: { createdAt: new Date(), id: randomUUID() },
      status: 'rejected',
    }).compile();
    expect(b.sql).toBe(a.sql);
    expect(a.sql).not.toMatch(/limit \$/i);
    expect(a.sql).toMatch(/limit 51\b/i);
    // The value-dependent filters keep their LIMIT as a parameter (a custom plan per page).
    for (const f of [
      { sender: 'Nobody' },
      { text: 'zebra' },
      { recipient: { prefix: '+1415' } },
      { campaignId: randomUUID() },
    ]) {
      expect(logQuery(server.ctx.db, { accountId, limit: 51, ...f }).compile().sql).toMatch(/limit \$\d+/i);
    }
    // A page asked with any size gets exactly that many rows (the statement may fetch a few more).
    const rows = await listLog(server.ctx.db, { accountId, limit: 30 });
    expect(rows.map((r) => r.id)).toEqual((await rowAt(0)).slice(0, 30).map((r) => r.id));
  });

  it('the generic plan of each such page is an index seek in the keyset order, as its custom plan is', async () => {
    const after = await deepCursor();
    const from = new Date(Date.now() - 200 * 86_400_000);
    const to = new Date(Date.now() - 190 * 86_400_000);
    const cases: Omit<LogFilter, 'accountId'>[] = [
      {},
      { after },
      { from, to },
      { from, to, after: { createdAt: to, id: '00000000-0000-0000-0000-000000000000' } },
      { status: 'delivered' },
      { status: 'delivered', after },
      { status: 'rejected', after },
      { status: 'failed', from, to },
      { status: 'sending' },
      { status: 'sent' },
    ];
    // A plan's shape: its nodes, indexes and conditions, without costs, estimates or values.
    const shape = (text: string) =>
      text
        .replace(/\s*\(cost=[^)]*\)/g, '')
        .replace(/'[^']*'::(?:timestamp with time zone|[a-z_]+)|\$\d+/g, '?')
        .replace(/\b(m|o)_\d+\b/g, '$1');
    for (const f of cases) {
      const label = JSON.stringify(f);
      const { plan: generic } = await genericPlan(f);
      const custom = (await logQuery(server.ctx.db, { accountId, limit: 51, ...f }).explain())
        .map((r) => String(r['QUERY PLAN']))
        .join('\n');
      expect(shape(generic), label).toBe(shape(custom));
      expect(generic, label).not.toMatch(/Gather/);
      if (f.after) expect(generic, label).toMatch(/Index Cond: .*ROW\(created_at, id\) < ROW\(/);
      if (f.from) expect(generic, label).not.toMatch(/Filter: .*created_at/);
    }
  });

  it('a connection prepares the page once and then runs it on a generic plan', async () => {
    // One connection, with the statement cache the server uses.
    const one = await openPostgres(server.databaseUrl, 1, createStatementCache());
    try {
      const after = await deepCursor();
      for (let i = 0; i < 12; i++) {
        const rows = await listLog(one.db, { accountId, limit: 50, after });
        expect(rows).toHaveLength(50);
      }
      const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
        SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements
         WHERE statement LIKE '%from "messages" as "m"%'`.execute(one.db);
      expect(rows).toHaveLength(1);
      // Prepared on its third use; planned for its first five executions, then generic.
      expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(4);
      expect(Number(rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
    } finally {
      await one.close();
    }
  });
});

describe('SMS log export at scale', () => {
  it('streams from one server-side cursor, every row of the range once, in log order', async () => {
    const from = new Date(Date.now() - 250 * 86_400_000);
    const to = new Date(Date.now() - 50 * 86_400_000);
    const range = sql`created_at >= ${from} AND created_at < ${to}`;
    const { rows: count } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM messages WHERE account_id = ${accountId}::uuid AND ${range}`.execute(
      server.ctx.db,
    );
    const res = await fetch(
      `${server.url}/api/sms/log/export.csv?from=${from.toISOString()}&to=${to.toISOString()}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    // While the client holds the stream, the export's connection sits on its cursor (no page queries).
    const { rows: active } = await sql<{ query: string }>`
      SELECT query FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'FETCH FORWARD%'`.execute(
      server.ctx.db,
    );
    expect(active.map((a) => a.query)).toEqual([expect.stringMatching(/FROM sms_log_export/)]);

    let text = new TextDecoder().decode(first.value);
    for (let r = await reader.read(); !r.done; r = await reader.read())
      text += new TextDecoder().decode(r.value);
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(count[0]!.n + 1);
    const ids = lines.slice(1).map((l) => l.slice(l.lastIndexOf(',') + 1));
    expect(new Set(ids).size).toBe(count[0]!.n);
    const truth = await rowAt(0, range);
    expect(ids.slice(0, 51)).toEqual(truth.map((r) => r.id));
    // The same values as the log shows (times as ISO text).
    const [shown] = (await get(`/api/sms/log?limit=1&from=${from.toISOString()}&to=${to.toISOString()}`)).body
      .items as unknown as Record<string, string | number | null>[];
    // (the + of an E.164 recipient is data: quoted, not formula-escaped)
    expect(
      lines[1]!.startsWith(`${String(shown!.createdAt)},"${String(shown!.recipient)}",Wren,delivered,`),
    ).toBe(true);
    expect(lines[1]).toContain(
      `,${String(shown!.submittedAt)},${String(shown!.doneAt)},${String(shown!.id)}`,
    );
  });

  it('caps running exports: a third for one account, or one over the node cap, is 429 with Retry-After', async () => {
    const url = `${server.url}/api/sms/log/export.csv`;
    // One connection per request: no keep-alive connection is left for the server's close to wait on.
    const auth = (t: string) => ({ headers: { authorization: `Bearer ${t}`, connection: 'close' } });
    const held: IncomingMessage[] = [];
    /**
     * Starts an export (200) and holds it after its first chunk, unread: 200,000 rows do not fit the
     * socket buffers. Destroying it closes the connection, as a browser tab that goes away does.
     */
    const hold = (t: string) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpGet(url, auth(t), (res) => {
          held.push(res);
          if (res.statusCode !== 200) reject(new Error(`export: ${res.statusCode}`));
          res.once('data', () => {
            res.pause();
            resolve(res);
          });
        });
        req.on('error', reject);
      });
    const refused = async (t: string) => {
      const res = await fetch(url, auth(t));
      const body = (await res.json()) as { code: string; message: string };
      return { status: res.status, retryAfter: res.headers.get('retry-after'), ...body };
    };
    try {
      const first = await hold(token);
      await hold(token);
      expect(await refused(token)).toEqual({
        status: 429,
        retryAfter: '10',
        code: 'RATE_LIMITED',
        message:
          '2 exports are already running for your account. Please wait for one to finish, then try again.',
      });
      // A campaign's export counts against the same slots.
      const campaignExport = await fetch(
        `${server.url}/api/campaigns/${randomUUID()}/messages/export.csv`,
        auth(token),
      );
      expect(campaignExport.status).toBe(429);
      await campaignExport.body?.cancel();
      // Another account has none running, but this node's two slots are taken.
      expect(await refused(otherToken)).toEqual({
        status: 429,
        retryAfter: '10',
        code: 'RATE_LIMITED',
        message: 'The server is busy with other exports. Please try again in a few seconds.',
      });

      // A client that goes away frees its slot: the other account's export then runs to its end.
      first.destroy();
      let res: Response | undefined;
      await until(
        async () => {
          res = await fetch(url, auth(otherToken));
          if (res.status === 200) return true;
          await res.body?.cancel();
          return false;
        },
        15_000,
        'a freed export slot',
      );
      const lines = (await res!.text()).trim().split('\r\n');
      expect(lines).toHaveLength(N / 10 + 1);
      // A finished export frees its slot too: the account holding one export may start a second.
      await hold(token);
    } finally {
      for (const r of held) r.destroy();
    }
    // Every export the client left closed its cursor and returned its connection.
    await until(
      async () => {
        const { rows } = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND query LIKE 'FETCH FORWARD%'
             AND state <> 'idle'`.execute(server.ctx.db);
        return rows[0]!.n === 0;
      },
      15_000,
      'the left exports to end their transactions',
    );
  });
});

describe("SMS log: a recipient's page from the recipient index", () => {
  /** The partitions holding rows (the seed's ids are all of this month). */
  const filled = async () =>
    (
      await sql<{ name: string }>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'messages'::regclass AND c.reltuples > 0`.execute(server.ctx.db)
    ).rows.map((r) => r.name);

  it('has one text per filter shape and a generic plan that seeks the recipient index alone', async () => {
    const [deep] = await rowAt(Math.floor(N * 0.5));
    const after = { createdAt: deep!.created_at, id: deep!.id };
    const from = new Date(Date.now() - 200 * 86_400_000);
    const to = new Date(Date.now() - 10 * 86_400_000);
    const probe = (f: Omit<LogFilter, 'accountId' | 'limit'>, account = accountId, limit = 51) =>
      recipientProbe(server.ctx.db, { accountId: account, limit, ...f });
    // The same text for any account, number, cursor and page size up to the same fetch size.
    const a = probe({ recipient: { prefix: '+1415555012' }, after })!.compile();
    const b = probe(
      { recipient: { prefix: '+4420' }, after: { createdAt: new Date(), id: randomUUID() } },
      randomUUID(),
      45,
    )!.compile();
    expect(b.sql).toBe(a.sql);
    expect(a.sql).not.toMatch(/limit \$/i);
    expect(probe({ recipient: { exact: '+14155550123' } })!.compile().sql).toBe(
      probe({ recipient: { exact: '+447700900123' } }, randomUUID())!.compile().sql,
    );
    // Filters the index cannot answer alone keep the planned query.
    for (const f of [
      { recipient: { exact: '+14155550123' }, status: 'delivered' },
      { recipient: { prefix: '+1415' }, sender: 'Wren' },
      { recipient: { prefix: '+1415' }, text: 'code' },
      { recipient: { prefix: '+1415' }, campaignId: campaignId },
      { recipient: { contains: '555' } },
      { recipient: { prefix: '+1415555012' }, from, to },
      { recipient: { exact: '+14155550123' }, from },
      { recipient: { prefix: '+14\u00e9' } },
      {},
    ]) {
      expect(probe(f), JSON.stringify(f)).toBeNull();
    }

    const partitions = await filled();
    expect(partitions.length).toBeGreaterThan(0);
    for (const f of [
      { recipient: { exact: '+14155550123' } },
      { recipient: { prefix: '+1415555012' } },
      { recipient: { exact: '+14155550123' }, after },
      { recipient: { prefix: '+1415555012' }, after },
    ]) {
      const { plan: generic } = await genericPlanOf(probe(f)!.compile());
      for (const p of partitions) {
        expect(generic, JSON.stringify(f)).toMatch(
          new RegExp(`Index Only Scan using ${p}_account_id_recipient_created_at_id_idx on ${p}\\b`),
        );
        expect(generic, JSON.stringify(f)).not.toMatch(new RegExp(`Seq Scan on ${p}\\b`));
        // The page's rows: one primary-key lookup per id, in the partition the id falls in.
        expect(generic, JSON.stringify(f)).toMatch(
          new RegExp(`Index Scan using ${p}_pkey on ${p} m[^\\n]*\\n\\s+Index Cond: \\(id = \\w+\\.id\\)`),
        );
      }
      expect(generic).toMatch(/^Nested Loop/);
      expect(generic).not.toMatch(/Gather/);
      expect(generic, JSON.stringify(f)).not.toMatch(/Index Only Scan using \S+_account_id_left_/);
    }
  });

  /**
   * The plans of the statements that wren_log_prefix_page (migration 0022) ran for `f`, as the
   * server logged them (auto_explain, nested statements, sent to this client as notices), with the
   * page's rows: the plans PostgreSQL chose inside the function, for the values it was given.
   */
  async function prefixPagePlans(f: Omit<LogFilter, 'accountId' | 'limit'>) {
    const q = prefixPage({ accountId, limit: 51, ...f })!.compile(server.ctx.db);
    const client = new pg.Client({ connectionString: server.databaseUrl });
    const plans: string[] = [];
    client.on('notice', (n) => {
      if (n.message?.includes('Query Text:')) plans.push(n.message);
    });
    await client.connect();
    try {
      await client.query(`LOAD 'auto_explain'`);
      await client.query(`SET auto_explain.log_min_duration = 0`);
      await client.query(`SET auto_explain.log_nested_statements = on`);
      await client.query(`SET auto_explain.log_analyze = on`);
      await client.query(`SET auto_explain.log_timing = off`);
      await client.query(`SET client_min_messages = log`);
      const { rows } = await client.query<{ id: string }>(q.sql, [...q.parameters]);
      return { rows, plans: plans.filter((p) => !p.includes('wren_log_prefix_page(')) };
    } finally {
      await client.end();
    }
  }
  it("a broad prefix's page is one call, whose statements run generic and walk the head index in keyset order", async () => {
    const [deep] = await rowAt(Math.floor(N * 0.5));
    const after = { createdAt: deep!.created_at, id: deep!.id };
    // The same text for any account, prefix of five or more, cursor and page size of one fetch size.
    const a = prefixPage({ accountId, limit: 50, recipient: { prefix: '+1415' }, after })!.compile(
      server.ctx.db,
    );
    const b = prefixPage({
      accountId: randomUUID(),
      limit: 40,
      recipient: { prefix: '+4420794' },
    })!.compile(server.ctx.db);
    expect(b.sql).toBe(a.sql);
    // Shorter prefixes, numbers and other filters are not its: they keep the planned query.
    const month = new Date(Date.now() - 31 * 86_400_000);
    for (const f of [
      { recipient: { prefix: '+141' } },
      { recipient: { exact: '+14155550123' } },
      { recipient: { contains: '555' } },
      { recipient: { prefix: '+1415' }, status: 'delivered' },
      { recipient: { prefix: '+1415' }, sender: 'Wren' },
      { recipient: { prefix: '+1415' }, text: 'code' },
      { recipient: { prefix: '+1415' }, campaignId },
      { recipient: { prefix: '+1415' }, from: month },
      { recipient: { prefix: '+1415' }, to: month },
      {},
    ]) {
      expect(prefixPage({ accountId, limit: 50, ...f }), JSON.stringify(f)).toBeNull();
    }

    const partitions = await filled();
    expect(partitions.length).toBeGreaterThan(0);
    const empty = await emptyPartitions();
    const truth = async (prefix: string, below: { createdAt: Date; id: string } | null) =>
      (
        await sql<{ id: string }>`
          SELECT id FROM messages WHERE account_id = ${accountId}::uuid AND recipient LIKE ${`${prefix}%`}
             AND (created_at, id) < (${below?.createdAt ?? 'infinity'}::timestamptz,
                                     ${below?.id ?? 'ffffffff-ffff-ffff-ffff-ffffffffffff'}::uuid)
           ORDER BY created_at DESC, id DESC LIMIT 51`.execute(server.ctx.db)
      ).rows.map((r) => r.id);
    // An area code (no probe); its exchange, all 20,000 of its messages (more than the probe reads),
    // with and without a cursor; ten numbers (20: the probe reads them all).
    for (const [prefix, below, probes, walks] of [
      ['+1415', null, false, true],
      ['+1415555', after, true, true],
      ['+1415555', null, true, true],
      ['+1415555012', after, true, false],
    ] as const) {
      const label = JSON.stringify({ prefix, below });
      const { rows, plans } = await prefixPagePlans({
        recipient: { prefix },
        ...(below ? { after: below } : {}),
      });
      expect(
        rows.map((r) => r.id),
        label,
      ).toEqual(await truth(prefix, below));
      const probe = plans.filter((p) => p.includes('~>=~'));
      const walk = plans.filter((p) => p.includes('left(w.recipient, 5)'));
      expect(probe.length, label).toBe(probes ? 1 : 0);
      if (!walks) expect(walk.length, label).toBe(0);
      else expect(walk.length, label).toBeGreaterThanOrEqual(1);
      for (const text of walk.map((p) => withoutEmpty(p, empty))) {
        for (const p of partitions) {
          // Each filled month: the head index alone, its lower bound and the keyset in the Index
          // Cond, the prefix tested on the number the index keeps.
          expect(text, label).toMatch(
            new RegExp(
              `Index Only Scan using ${p}_account_id_left_\\w+ on ${p} w_\\d+[^\\n]*\\n\\s+Index Cond: \\(\\(account_id = \\$1\\) AND \\(\\("left"\\(recipient, 5\\)\\) = \\$2\\) AND \\(created_at >= \\$\\d+\\) AND \\(ROW\\(created_at, id\\) < ROW\\(\\$\\d+, \\$\\d+\\)\\)\\)\\n\\s+Filter: \\(recipient ~~ \\$3\\)`,
            ),
          );
          expect(text, label).not.toMatch(new RegExp(`Seq Scan on ${p}\\b`));
        }
        // In the keyset's order: no sort of the matches, no workers.
        expect(text, label).not.toMatch(/(^|->\s+)(Incremental )?Sort\s+\(/m);
        expect(text, label).not.toMatch(/Gather/);
      }
      for (const text of probe.map((p) => withoutEmpty(p, empty))) {
        // The recipient index alone: the head index would read every entry below the cursor.
        expect(text, label).not.toMatch(/Index Only Scan using \S+_account_id_left_/);
        for (const p of partitions) {
          expect(text, label).toMatch(
            new RegExp(`Index Only Scan using ${p}_account_id_recipient_created_at_id_idx on ${p}\\b`),
          );
        }
      }
      // Generic plans: parameters ($n) in every condition, no value of this page.
      for (const text of [...walk, ...probe]) {
        expect(text, label).not.toContain(accountId);
        expect(text, label).not.toContain(prefix);
      }
    }
  });

  it("a broad prefix's pages through listLog are the truth's, page after page", async () => {
    const one = await openPostgres(server.databaseUrl, 1, createStatementCache());
    try {
      for (const prefix of ['+1415', '+14155550']) {
        let cursor: { createdAt: Date; id: string } | undefined;
        const truth = await sql<{ id: string }>`
          SELECT id FROM messages WHERE account_id = ${accountId}::uuid AND recipient LIKE ${`${prefix}%`}
           ORDER BY created_at DESC, id DESC LIMIT 400`.execute(server.ctx.db);
        const walked: string[] = [];
        for (let i = 0; i < 8; i++) {
          const rows = await listLog(one.db, { accountId, limit: 50, recipient: { prefix }, after: cursor });
          walked.push(...rows.map((r) => r.id));
          const last = rows[rows.length - 1]!;
          cursor = { createdAt: last.created_at, id: last.id };
        }
        expect(walked, prefix).toEqual(truth.rows.map((r) => r.id));
      }
      // The function's settings were its own: the connection plans and sorts as before.
      const { rows: settings } = await sql<{ mode: string; sort: string }>`
        SELECT current_setting('plan_cache_mode') AS mode, current_setting('enable_sort') AS sort`.execute(
        one.db,
      );
      expect(settings[0]).toEqual({ mode: 'auto', sort: 'on' });
      // A prefix that is not plain ASCII skips the probe (no byte range of it) and still answers.
      expect(await listLog(one.db, { accountId, limit: 50, recipient: { prefix: '+1415\u00e9' } })).toEqual(
        [],
      );
      // Another account's messages are never in it.
      const other = await listLog(one.db, {
        accountId: randomUUID(),
        limit: 50,
        recipient: { prefix: '+1415' },
      });
      expect(other).toEqual([]);
    } finally {
      await one.close();
    }
  });

  it('a connection prepares the probe once and runs it on a generic plan, for numbers and prefixes', async () => {
    const one = await openPostgres(server.databaseUrl, 1, createStatementCache());
    try {
      for (let i = 0; i < 8; i++) {
        const number = `+1415555${String(100 + i).padStart(4, '0')}`;
        const byNumber = await listLog(one.db, { accountId, limit: 50, recipient: { exact: number } });
        expect(byNumber.map((r) => r.id)).toEqual(
          (await rowAt(0, sql`recipient = ${number}`)).slice(0, 50).map((r) => r.id),
        );
        // A prefix shorter than the head index's (longer ones are wren_log_prefix_page's).
        const prefix = `+44${i}`;
        const byPrefix = await listLog(one.db, { accountId, limit: 50, recipient: { prefix } });
        expect(byPrefix.map((r) => r.id)).toEqual(
          (await rowAt(0, sql`recipient LIKE ${prefix + '%'}`)).slice(0, 50).map((r) => r.id),
        );
      }
      const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
        SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements
         WHERE statement LIKE '%count(*) OVER ()%'`.execute(one.db);
      // One statement for a number, one for a prefix; named on their third use, generic from then on.
      expect(rows).toHaveLength(2);
      for (const r of rows) {
        expect(Number(r.generic_plans)).toBeGreaterThanOrEqual(6);
        expect(Number(r.custom_plans)).toBe(0);
      }
      // The mode was the probe's own: the connection plans as before.
      const { rows: mode } = await sql<{ plan_cache_mode: string }>`SHOW plan_cache_mode`.execute(one.db);
      expect(mode[0]!.plan_cache_mode).toBe('auto');
    } finally {
      await one.close();
    }
  });

  it('a number with more messages than the probe reads gets the planned query; pages agree across the cap', async () => {
    const number = '+15550001111';
    const count = RECIPIENT_PROBE_CAP + 300;
    await sql`
      INSERT INTO messages (account_id, recipient, sender, body, encoding, segments, price_minor, currency,
                            status, priority, validity_until, created_at, submitted_at, done_at)
      SELECT ${accountId}::uuid, ${number}, 'Wren', 'Busy line ' || i, 'GSM-7', 1, 1, 'USD', 'delivered', 1,
             t + interval '1 day', t, t, t
        FROM generate_series(1, ${count}::int) AS i,
             LATERAL (SELECT now() - interval '100 days' + (i::float8 / ${count}::int) * interval '99 days' AS t) ts
    `.execute(server.ctx.db);
    const truth = await sql<{ id: string; created_at: Date }>`
      SELECT id, created_at FROM messages WHERE account_id = ${accountId}::uuid AND recipient = ${number}
       ORDER BY created_at DESC, id DESC`.execute(server.ctx.db);
    expect(truth.rows).toHaveLength(count);

    // The first page's probe reads one past the cap and gives way; 400 rows on, the rest fit.
    const first = await recipientProbe(server.ctx.db, {
      accountId,
      limit: 51,
      recipient: { exact: number },
    })!.execute();
    expect(Number(first[0]!.matches)).toBe(RECIPIENT_PROBE_CAP + 1);
    const at = truth.rows[399]!;
    const later = await recipientProbe(server.ctx.db, {
      accountId,
      limit: 51,
      recipient: { exact: number },
      after: { createdAt: at.created_at, id: at.id },
    })!.execute();
    expect(Number(later[0]!.matches)).toBe(count - 400);
    expect(later.map((r) => r.id)).toEqual(truth.rows.slice(400, 451).map((r) => r.id));

    // Through HTTP, both as the number and as a prefix of it: every row once, in the log's order.
    for (const recipient of [number, '+1555000111']) {
      const walked: string[] = [];
      let cursor = '';
      for (;;) {
        const res = await get(`/api/sms/log?limit=200&recipient=${encodeURIComponent(recipient)}${cursor}`);
        expect(res.status).toBe(200);
        walked.push(...res.body.items.map((m) => m.id));
        if (!res.body.nextCursor) break;
        cursor = `&cursor=${res.body.nextCursor}`;
      }
      expect(walked, recipient).toEqual(truth.rows.map((r) => r.id));
    }
    // A date range around part of them (a custom plan).
    const from = truth.rows[1500]!.created_at;
    const to = truth.rows[100]!.created_at;
    const ranged = await listLog(server.ctx.db, {
      accountId,
      limit: 1000,
      recipient: { exact: number },
      from,
      to,
    });
    const inRange = truth.rows.filter((r) => r.created_at >= from && r.created_at < to);
    expect(ranged.map((r) => r.id)).toEqual(inRange.slice(0, 1000).map((r) => r.id));
    // Another account sees none of them.
    const theirs = await fetch(`${server.url}/api/sms/log?recipient=${encodeURIComponent(number)}`, {
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(((await theirs.json()) as { items: unknown[] }).items).toEqual([]);
  });
});
