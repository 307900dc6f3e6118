import { sql, type SelectQueryBuilder } from 'kysely';
import { type Db, transact } from '../../platform/db';
import {
  below,
  escapeLike,
  fetchSize,
  logQuery,
  PLAIN_ASCII,
  RECIPIENT_HEAD_LENGTH,
  type LogFilter,
} from './log-query.repository';
import { LOG_SELECT, type MessageDtoRow } from './messages.repository';

/**
 * One page of the SMS log (see `logQuery`); never OFFSET.
 *
 * A recipient's page (one number, or a prefix) starts from the account's recipient index:
 * - If the recipient has at most RECIPIENT_PROBE_CAP messages below the page's cursor (almost every
 *   number has), one statement reads them from that index alone, keeps the newest and joins their
 *   rows (`recipientProbe`). Its plan is the same for every value, and it runs generic: planned per
 *   page, for two references to a table of monthly partitions, it cost 3-4 ms before it ran in
 *   1-2 ms (10M messages, PostgreSQL 15). PostgreSQL's own choice (plan_cache_mode = auto) kept
 *   planning it for a prefix, whose generic estimate is a guess, so the probe sets the mode itself.
 * - A prefix of five characters or more with more matches (an area code: '+1415') walks the head
 *   index (migration 0021: the number's first five characters, then time) in the keyset's order,
 *   also generic, looking back a week, a month, a year, then everything. For such a prefix the
 *   probe and the walk are one call of a server function (`prefixPage`, migration 0022).
 * - Otherwise the page is planned for its values (a custom plan: a number with many messages is
 *   best found by walking the log in time order). A short prefix picks its ids first, then reads
 *   their rows by primary key (`pageFromKeys`): a prefix is a range of the recipient index, which
 *   is not in time order, so in one statement every matching row was read from the table to be
 *   sorted.
 */
export async function listLog(db: Db, f: LogFilter & { limit: number }): Promise<MessageDtoRow[]> {
  const rows = await pageRows(db, f);
  // A page statement may fetch a few more rows than asked for (FETCH_SIZES).
  return rows.length > f.limit ? rows.slice(0, f.limit) : rows;
}

async function pageRows(db: Db, f: LogFilter & { limit: number }): Promise<MessageDtoRow[]> {
  const generic = await genericPageRows(db, f);
  if (generic) return generic;
  const r = f.recipient;
  if (r && 'prefix' in r && !f.text) return pageFromKeys(db, f.accountId, await prefixPageKeys(db, f));
  return logQuery(db, f).execute();
}

/**
 * A recipient's page from the statements that run generic (planned once per connection):
 * - A prefix of five characters or more (and its cursor alone): one call of wren_log_prefix_page
 *   (`prefixPage`), which probes, then walks the head index, on the server.
 * - A number or a shorter prefix: the probe, in a transaction whose planner mode ends with it (the
 *   connection plans its other statements as before).
 * Null when neither applies, or the probe found too many matches of a number or a short prefix: the
 * page is then planned for its values.
 */
async function genericPageRows(db: Db, f: LogFilter & { limit: number }) {
  const prefix = prefixPage(f);
  if (prefix) return (await prefix.execute(db)).rows;
  const probe = recipientProbe(db, f)?.compile();
  if (!probe) return null;
  return transact(db, async (trx) => {
    await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(trx);
    const { rows } = await trx.executeQuery(probe);
    return rows.length === 0 || Number(rows[0].matches) <= RECIPIENT_PROBE_CAP ? rows : null;
  });
}

/** The look-back windows of a page before its cursor (or now): the last is unbounded (null). */
function lookBack(f: LogFilter) {
  const top = f.after?.createdAt.getTime() ?? Date.now();
  return [...PREFIX_WINDOWS_DAYS.map((days) => new Date(top - days * DAY_MS)), null];
}

/**
 * The bounds of a prefix as a range of the recipient index (text_pattern_ops, which compares bytes:
 * exact for ASCII, and E.164 prefixes are '+' and digits): [low, high).
 */
function prefixRange(prefix: string) {
  if (!PLAIN_ASCII.test(prefix)) throw new Error('a byte range of a prefix that is not plain ASCII');
  const last = prefix.length - 1;
  return { low: prefix, high: prefix.slice(0, last) + String.fromCharCode(prefix.charCodeAt(last) + 1) };
}

/**
 * A broad prefix's page (at least the head index's five characters, and its cursor alone) in one
 * call of wren_log_prefix_page (migration 0022), or null for other filters. The function runs the
 * probe (at most RECIPIENT_PROBE_CAP matches from the recipient index: a prefix of a few numbers),
 * else walks the head index in the keyset's order through the look-back windows (see
 * `prefixPageKeys`), each window adding its rows to the page, all on generic plans. As a
 * transaction of its statements it took six round trips (bench:log, 10M messages, '+14155550':
 * p50 5.5 ms over HTTP). A prefix of exactly five characters (an area code) skips the probe: every
 * entry of its head matches, so the walk stops at the page, and the probe would only count 2,000
 * matches first (2 ms at 10M messages). So does a prefix that is not plain ASCII, which the
 * recipient index's byte range would not bound.
 */
export function prefixPage(f: LogFilter & { limit: number }) {
  const r = f.recipient;
  if (!r || !('prefix' in r) || r.prefix.length < RECIPIENT_HEAD_LENGTH) return null;
  if (f.status || f.sender || f.text || f.campaignId || f.from || f.to) return null;
  const probe = r.prefix.length > RECIPIENT_HEAD_LENGTH && PLAIN_ASCII.test(r.prefix);
  // Without a probe its range is unused.
  const { low, high } = probe ? prefixRange(r.prefix) : { low: r.prefix, high: r.prefix };
  const windows = lookBack(f).map((from) => from?.toISOString() ?? '-infinity');
  const columns = sql.join(LOG_SELECT.map((c) => sql.ref(c)));
  return sql<MessageDtoRow>`SELECT ${columns}
      FROM wren_log_prefix_page(${f.accountId}::uuid, ${r.prefix.slice(0, RECIPIENT_HEAD_LENGTH)},
             ${`${escapeLike(r.prefix)}%`}, ${low}, ${high}, ${f.after?.createdAt ?? null}::timestamptz,
             ${f.after?.id ?? null}::uuid, ${windows}::timestamptz[], ${fetchSize(f.limit)}::int,
             ${probe ? RECIPIENT_PROBE_CAP : 0}::int) WITH ORDINALITY AS m
     ORDER BY m.ordinality`;
}

/**
 * Days before the cursor (or now) that a broad prefix's page looks back first, then wider: the last
 * window is unbounded.
 */
const PREFIX_WINDOWS_DAYS = [7, 31, 366] as const;
const DAY_MS = 86_400_000;

/**
 * The ids of a prefix page with more matches than the probe reads, newest first. Walked in the
 * keyset's order (the head index for five characters or more, else the log index), every monthly
 * partition starts its walk at once (Merge Append), and in a partition whose matches are far back a
 * walk passes every newer entry first: a prefix whose messages come in bursts walked 9,000 entries
 * in each of 12 months for one page (10M messages, '+14155550': 13 ms warm). So the page first looks
 * only at the last week before its cursor (a lower bound on created_at, an Index Cond that stops
 * the walk of older months at once), then the last month, the last year, then everything: a window
 * that fills the page is its answer, since nothing newer was left out.
 */
async function prefixPageKeys(db: Db, f: LogFilter & { limit: number }) {
  for (const from of lookBack(f)) {
    if (from === null || (f.from && f.from >= from)) break; // unbounded, or the page's own range is narrower
    const keys = await logQuery(db, { ...f, from })
      .clearSelect()
      .select('m.id')
      .execute();
    if (keys.length >= f.limit) return keys;
  }
  return logQuery(db, f).clearSelect().select('m.id').execute();
}

/** Matches of a recipient's page that `recipientProbe` reads at most (bench:log: 1,000 in ~1 ms). */
export const RECIPIENT_PROBE_CAP = 2_000;

/**
 * The page of a recipient (and its cursor) alone: the newest ids read from the account's recipient
 * index (messages_log_recipient_idx: account, recipient, created_at, id) with no row of the table,
 * their rows joined by id, and on each row how many matches were read (RECIPIENT_PROBE_CAP + 1:
 * more than the cap, and the ids are not the newest). The plan is the same for every value: a seek
 * on the index bounded by the LIMIT, then one primary-key lookup per id in the partition the id
 * falls in. Its sizes are literals, so its text is one per filter shape, prepared once per
 * connection by the statement cache, and listLog runs it generic. Null where another filter needs
 * the row, or a prefix is not plain ASCII.
 */
export function recipientProbe(db: Db, f: LogFilter & { limit: number }) {
  const r = f.recipient;
  // A date range is left to a custom plan: with unknown values, PostgreSQL rates a range on
  // created_at as selective as the recipient's, and a generic plan walked the log index through the
  // whole range, reading every row to test its recipient.
  if (!r || 'contains' in r || f.status || f.sender || f.text || f.campaignId || f.from || f.to) return null;
  if ('prefix' in r && !PLAIN_ASCII.test(r.prefix)) return null; // see prefixRange
  let inner = db
    .selectFrom('messages as m')
    .select(['m.created_at', 'm.id'])
    .where('m.account_id', '=', f.accountId);
  if ('exact' in r) {
    inner = inner.where('m.recipient', '=', r.exact);
    // A number's entries are in time order: the keyset bounds the seek.
    if (f.after) inner = inner.where(below('m', f.after));
  } else {
    const { low, high } = prefixRange(r.prefix);
    inner = inner.where(sql<boolean>`m.recipient ~>=~ ${low} AND m.recipient ~<~ ${high}`);
    // A range of numbers is not in time order, so the keyset cannot bound its scan: it is tested on
    // each entry, and written so that no index takes it as a condition. As an Index Cond, it made
    // the head index (0021) look cheaper on PostgreSQL 18, which can skip its leading columns: the
    // generic plan read every entry of the account below the cursor (bench:log, PostgreSQL 18,
    // 1M messages, a 10-number prefix: 207 ms). wren_log_prefix_page's probe does the same.
    if (f.after) inner = inner.where(sql<boolean>`(${below('m', f.after)}) IS TRUE`);
  }
  const keys = db
    .selectFrom(inner.limit(sql.lit(RECIPIENT_PROBE_CAP + 1)).as('s'))
    .select(['s.id', 's.created_at', sql<string>`count(*) OVER ()`.as('matches')])
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(sql.lit(fetchSize(f.limit)));
  return rowsOfKeys(db, keys, f.accountId).select('k.matches');
}

/** The account's log rows of these ids (in no order). */
export const logRowsByIds = (db: Db, accountId: string, ids: readonly string[]) =>
  db
    .selectFrom('messages as m')
    .select(LOG_SELECT)
    .where('m.account_id', '=', accountId)
    .where(sql<boolean>`m.id = ANY(${ids}::uuid[])`);

/** A page's rows, read by id, in the order of its ids (a row gone meanwhile, a dropped month, is left out). */
async function pageFromKeys(
  db: Db,
  accountId: string,
  keys: readonly { id: string }[],
): Promise<MessageDtoRow[]> {
  if (keys.length === 0) return [];
  const rows = await logRowsByIds(
    db,
    accountId,
    keys.map((k) => k.id),
  ).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return keys.flatMap((k) => byId.get(k.id) ?? []);
}

/**
 * A page's rows for its keys (a subquery `k` of id and created_at, at most a page): joined by id,
 * each looked up in the one partition it can be in (pruned as the join runs), newest first.
 */
function rowsOfKeys<D, TB extends keyof D, K extends { id: string; created_at: Date }>(
  db: Db,
  keys: SelectQueryBuilder<D, TB, K>,
  accountId: string,
) {
  return db
    .selectFrom(keys.as('k'))
    .innerJoin('messages as m', 'm.id', 'k.id')
    .select(LOG_SELECT)
    .where('m.account_id', '=', accountId)
    .orderBy('k.created_at', 'desc')
    .orderBy('k.id', 'desc');
}
