import { MESSAGE_STATUSES, type MessageStatus } from '@wren/contracts';
import {
  CompiledQuery,
  sql,
  type Insertable,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
} from 'kysely';
import type { MessagesTable } from '../../db/schema-messaging';
import { type PgElementType, type Db, insertUnnest, transact } from '../../platform/db';
import type { SmsLogCsvRow } from './sms-log-csv';

export type MessageRow = Selectable<MessagesTable>;

/**
 * The columns a message's DTO shows (toMessageDto): what the SMS log's pages read. The other half
 * of the row (queue, lease, receipt and refund bookkeeping: three more timestamps) is not read for
 * a page; parsing it was a fifth of Wren's time on a 50-row page (bench:log).
 */
export const DTO_COLUMNS = [
  'id',
  'campaign_id',
  'recipient',
  'sender',
  'body',
  'encoding',
  'segments',
  'price_minor',
  'currency',
  'status',
  'error',
  'scheduled_at',
  'created_at',
  'submitted_at',
  'receipt_due_at',
  'done_at',
] as const satisfies readonly (keyof MessagesTable)[];
export type MessageDtoRow = Pick<MessageRow, (typeof DTO_COLUMNS)[number]>;
const LOG_SELECT = DTO_COLUMNS.map((c) => `m.${c}` as const);

const NEW_MESSAGE_COLUMNS = {
  id: 'uuid',
  account_id: 'uuid',
  campaign_id: 'uuid',
  user_id: 'uuid',
  recipient: 'text',
  sender: 'text',
  body: 'text',
  encoding: 'text',
  segments: 'integer',
  price_minor: 'integer',
  currency: 'text',
  status: 'text',
  priority: 'smallint',
  scheduled_at: 'timestamptz',
  timezone: 'text',
  next_attempt_at: 'timestamptz',
  validity_until: 'timestamptz',
} as const satisfies Partial<Record<keyof MessagesTable, PgElementType>>;

/**
 * What the messages of a send batch usually have in common (all but their id, number and price),
 * in two groups (insertUnnest's `shared`): the account's and its sender, which the sends of one
 * account share; and one request's text and times.
 */
const SHARED_MESSAGE_COLUMNS = [
  ['account_id', 'campaign_id', 'user_id', 'sender', 'currency', 'status', 'priority', 'encoding'],
  ['body', 'segments', 'scheduled_at', 'timezone', 'next_attempt_at', 'validity_until'],
] as const satisfies readonly (readonly (keyof typeof NEW_MESSAGE_COLUMNS)[])[];

/** A message as a send stores it; the other columns take their defaults. */
export type NewMessage = {
  [K in keyof typeof NEW_MESSAGE_COLUMNS]-?: Exclude<Insertable<MessagesTable>[K], undefined>;
};

/**
 * Inserts messages (and the work queue's rows of those that wait to be sent) in one statement: one
 * round trip per send, not two (send_queue has no foreign key to wait for). Returns the DTO's
 * columns of the inserted rows; `returning: false` (a campaign's batch, an OTP) returns nothing, so
 * PostgreSQL sends and Wren parses no rows it would not read.
 */
export async function insertMessages(
  trx: Db,
  rows: readonly NewMessage[],
  opts: { returning?: boolean } = {},
): Promise<MessageDtoRow[]> {
  if (rows.length === 0) return [];
  const { queue, messages } = messageInserts(rows, opts.returning !== false);
  const statement = queue ? sql`WITH queued AS (${queue}) ${messages}` : messages;
  return (await sql<MessageDtoRow>`${statement}`.execute(trx)).rows;
}

/**
 * `insertMessages` and a payment, all in one statement, run on its own: its transaction lasts as
 * long as the statement, where BEGIN, insert, debit and COMMIT kept it open across four turns of a
 * busy event loop. `payment(after)` is CTEs that define `debited (start_minor, currency)` (ledger's
 * `debitAllCtes`), debiting once `after` is evaluated.
 *
 * The inserts come first and the debit last: `after` counts what every insert wrote, so PostgreSQL
 * runs them all before it reads and locks the account's row, which is then held only for the debit,
 * its ledger entries and the commit, and two sends of one account overlap. When the balance does
 * not cover the send, wren_send_refused() (0027) aborts the statement with everything it inserted,
 * and this returns `null`.
 */
export async function insertMessagesPaid(
  db: Db,
  rows: readonly NewMessage[],
  payment: (after: RawBuilder<unknown>) => RawBuilder<unknown>,
  /** Other modules' writes of the send (SendHook.statement): data-modifying statements without RETURNING. */
  also: readonly RawBuilder<unknown>[] = [],
) {
  // Nothing returned per row: the DTO's columns are the rows as built, and created_at (the column's
  // default, now() at its millisecond precision) is one value for the statement (`insertedDtoRow`).
  // Returning them cost PostgreSQL the output and Wren the parsing of 16 columns a message.
  const { queue, messages } = messageInserts(rows, false);
  const writes = [
    ...(queue ? [{ name: 'queued', statement: sql`${queue} RETURNING 1` }] : []),
    ...also.map((statement, i) => ({ name: `also_${i}`, statement: sql`${statement} RETURNING 1` })),
  ];
  const after = sql.join(
    ['inserted', ...writes.map((w) => w.name)].map((name) => sql`(SELECT count(*) FROM ${sql.raw(name)})`),
    sql` + `,
  );
  try {
    const res = await sql<{ debit_start_minor: string | number; debit_currency: string; created_at: Date }>`
      WITH inserted AS (${messages} RETURNING 1),
           ${sql.join(
             writes.map((w) => sql`${sql.raw(w.name)} AS (${w.statement}),`),
             sql` `,
           )}
           ${payment(sql`${after} > 0`)},
           paid AS (SELECT coalesce(max(start_minor), wren_send_refused()) AS start_minor, max(currency) AS currency
                      FROM debited)
      SELECT p.start_minor AS debit_start_minor, p.currency AS debit_currency, now()::timestamptz(3) AS created_at
        FROM paid p`.execute(db);
    const first = res.rows[0];
    if (!first) return null;
    return {
      rows: rows.map((row) => insertedDtoRow(row, first.created_at)),
      startMinor: Number(first.debit_start_minor),
      currency: first.debit_currency,
    };
  } catch (err) {
    if ((err as { code?: unknown }).code === SEND_REFUSED) return null;
    throw err;
  }
}

/**
 * The DTO's columns of a message just inserted from `row`, as RETURNING would give them: the values
 * as built, created_at the statement's (`now()::timestamptz(3)`, the column's default), and null
 * for what only a later status sets. A test compares them with the stored rows.
 */
export function insertedDtoRow(row: NewMessage, createdAt: Date): MessageDtoRow {
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    recipient: row.recipient,
    sender: row.sender,
    body: row.body,
    encoding: row.encoding,
    segments: row.segments,
    price_minor: row.price_minor,
    currency: row.currency,
    status: row.status,
    error: null,
    scheduled_at: row.scheduled_at === null ? null : new Date(row.scheduled_at),
    created_at: createdAt,
    submitted_at: null,
    receipt_due_at: null,
    done_at: null,
  };
}

/** SQLSTATE of wren_send_refused() (0027): the balance did not cover a one-statement send. */
const SEND_REFUSED = 'WR402';

/** The inserts of `rows` into messages (with the DTO's columns returned or not) and send_queue. */
function messageInserts(rows: readonly NewMessage[], returning: boolean) {
  const waiting = rows.filter((r) => r.status === 'queued' || r.status === 'scheduled');
  const messages = sql`${insertUnnest('messages', NEW_MESSAGE_COLUMNS, rows, SHARED_MESSAGE_COLUMNS)}${
    returning ? sql` RETURNING ${sql.join(DTO_COLUMNS.map((c) => sql.ref(c)))}` : sql``
  }`;
  if (waiting.length === 0) return { messages, queue: null };
  const queue = sql`${insertUnnest(
    'send_queue',
    {
      message_id: 'uuid',
      priority: 'smallint',
      due_at: 'timestamptz',
      scheduled: 'boolean',
      validity_until: 'timestamptz',
      campaign_id: 'uuid',
    },
    waiting.map((r) => ({
      message_id: r.id,
      campaign_id: r.campaign_id,
      priority: r.priority,
      due_at: r.status === 'scheduled' && r.scheduled_at ? r.scheduled_at : r.next_attempt_at,
      scheduled: r.status === 'scheduled',
      validity_until: r.validity_until,
    })),
    [
      ['priority', 'scheduled', 'campaign_id'],
      ['due_at', 'validity_until'],
    ],
  )}`;
  return { messages, queue };
}

export async function insertEvents(
  trx: Db,
  events: readonly { message_id: string; status: string; detail?: string | null; raw?: string | null }[],
) {
  if (events.length === 0) return;
  await insertUnnest(
    'message_events',
    { message_id: 'uuid', status: 'text', detail: 'text', raw: 'text' },
    events.map((e) => ({
      message_id: e.message_id,
      status: e.status,
      detail: e.detail ?? null,
      raw: e.raw ?? null,
    })),
  ).execute(trx);
}

/** A recipient filter, as E.164: one number, numbers starting with a prefix, or (digits typed) anywhere. */
export type RecipientMatch = { exact: string } | { prefix: string } | { contains: string };

export interface LogFilter {
  accountId: string;
  from?: Date;
  to?: Date;
  status?: string;
  recipient?: RecipientMatch;
  sender?: string;
  text?: string;
  campaignId?: string;
  after?: { createdAt: Date; id: string };
  /** Absent: every matching row (an export's cursor). */
  limit?: number;
}

/** Uncommon final statuses: recorded in message_outcomes (0008), where a status filter seeks. */
const OUTCOME_STATUSES: readonly string[] = [
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'canceled',
  'unknown',
];
const PLAIN_ASCII = /^[\x20-\x7e]+$/;
/** Characters of a number in messages_log_head_idx (`left(recipient, 5)`, migration 0021): '+' and four digits. */
const RECIPIENT_HEAD_LENGTH = 5;

/**
 * Statuses of messages that have a send_queue row: a filter for them is bounded by the work in flight
 * (and `sent` by the open parts). `delivered`, most rows, walks the log index and stops at a page.
 */
const QUEUE_STATUSES: readonly string[] = ['scheduled', 'queued', 'sending'];

/**
 * Rows a page statement fetches: the page (plus one, to know whether another follows) rounded up to
 * one of a few sizes, so a page's statement text is one of a few whatever size was asked for.
 */
const FETCH_SIZES = [11, 26, 51, 101, 201, 1001] as const;

/**
 * A page statement's LIMIT and status as literals, where its plan is the same for every value of its
 * parameters (see `logQuery`); `LIMIT $n` elsewhere. Both come from validated input and are checked
 * again here, since they are spliced into the text.
 */
function fetchSize(limit: number) {
  const size = FETCH_SIZES.find((n) => n >= limit);
  if (!Number.isInteger(limit) || limit < 1 || size === undefined) {
    throw new Error(`SMS log page of ${limit} rows`);
  }
  return size;
}
function statusLiteral(status: string) {
  if (!(MESSAGE_STATUSES as readonly string[]).includes(status)) throw new Error(`status ${status}`);
  return sql.lit(status);
}

/**
 * The keyset condition below a cursor, `(created_at, id) < (c, i)`, on the table `alias`: a row
 * comparison, an Index Cond on every index the log's pages use (each ends in created_at DESC, id DESC).
 */
const below = (alias: 'm' | 'o', after: { createdAt: Date; id: string }) =>
  sql<boolean>`(${sql.ref(`${alias}.created_at`)}, ${sql.ref(`${alias}.id`)}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`;

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

/**
 * The SMS log query, newest first, by keyset: the row comparison `(created_at, id) < (c, i)` is an
 * index condition on every index the planner may use (each ends in created_at DESC, id DESC), so a
 * page at any depth is a seek. No status index exists on `messages` (status updates stay HOT): an
 * uncommon final status seeks in message_outcomes and its keyset runs there.
 *
 * A page filtered by nothing but time, cursor and status (the first page, the pages after it, a
 * status, a date range) has its LIMIT and status spliced in as literals: its text is then the same
 * for every account and cursor, the statement cache names it (statement-cache.ts), and PostgreSQL
 * keeps one generic plan for it per connection instead of planning each page across every monthly
 * partition (bench:log, 1M messages: planning was 0.6 ms of a 1 ms page, and 4-9 ms when the
 * backend lost its core meanwhile). Its remaining parameters (account, cursor, dates) bound an index
 * walk in the keyset's order whatever their values, so the generic plan is the custom one (a test
 * compares them). A recipient, sender, text or campaign filter keeps `LIMIT $n` and a custom plan:
 * their best plan depends on the value (a generic plan of `lower(sender) = $1` assumed every row
 * matched and walked the whole log for a sender that sent nothing: 520 ms).
 */
export function logQuery(db: Db, f: LogFilter) {
  const planOnce = !f.recipient && !f.sender && !f.text && !f.campaignId;
  const limit = (n: number) => (planOnce ? sql.lit(fetchSize(n)) : n);
  const status = planOnce && f.status !== undefined ? statusLiteral(f.status) : f.status;
  const viaOutcomes = f.status !== undefined && OUTCOME_STATUSES.includes(f.status);
  // A page of an uncommon final status, filtered by nothing but time: its ids are the first rows of
  // message_outcomes' index, so they are chosen there (a LIMIT in a subquery), then fetched by id.
  // Joined instead, the planner prices each probe as if it searched every monthly partition (it
  // cannot foresee run-time pruning), expects a costly walk to fill the page and starts two parallel
  // workers: 8 ms of set-up for a page that takes 0.3 ms (bench:log, 10M messages, p50 12.9 ms).
  const idsFirst =
    viaOutcomes && f.limit !== undefined && !f.recipient && !f.sender && !f.text && !f.campaignId;
  // The table whose (created_at, id) carries the order and the keyset.
  const k = viaOutcomes && !idsFirst ? 'o' : 'm';
  const createdAt = sql.ref(`${k}.created_at`);
  const id = sql.ref(`${k}.id`);
  let q = db.selectFrom('messages as m').select(LOG_SELECT);
  if (idsFirst) {
    let ids = db
      .selectFrom('message_outcomes as o')
      .select('o.id')
      .where('o.account_id', '=', f.accountId)
      .where('o.status', '=', status!);
    if (f.from) ids = ids.where('o.created_at', '>=', f.from);
    if (f.to) ids = ids.where('o.created_at', '<', f.to);
    if (f.after) {
      ids = ids.where(below('o', f.after));
    }
    ids = ids.orderBy('o.created_at', 'desc').orderBy('o.id', 'desc').limit(limit(f.limit!));
    q = q.where('m.id', 'in', ids).where('m.account_id', '=', f.accountId).where('m.status', '=', status!);
    return q.orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(limit(f.limit!));
  }
  if (viaOutcomes) {
    q = q
      .innerJoin('message_outcomes as o', 'o.id', 'm.id')
      .where('o.account_id', '=', f.accountId)
      .where('o.status', '=', status!);
  }
  q = q.where('m.account_id', '=', f.accountId);
  if (f.from) q = q.where(sql<boolean>`${createdAt} >= ${f.from}::timestamptz`);
  if (f.to) q = q.where(sql<boolean>`${createdAt} < ${f.to}::timestamptz`);
  if (status) q = q.where('m.status', '=', status);
  if (f.status && QUEUE_STATUSES.includes(f.status)) {
    q = q.where('m.id', 'in', (eb) => eb.selectFrom('send_queue').select('send_queue.message_id'));
  }
  if (f.status === 'sent') {
    // A sent message waits for a receipt on at least one part (the receipt-deadline sweep relies on
    // the same): bounded by the open parts index (message_parts_open_idx).
    q = q.where('m.id', 'in', (eb) =>
      eb.selectFrom('message_parts as p').select('p.message_id').where('p.stat', 'is', null),
    );
  }
  const r = f.recipient;
  if (r && 'exact' in r) q = q.where('m.recipient', '=', r.exact);
  if (r && 'prefix' in r) {
    q = q.where('m.recipient', 'like', `${escapeLike(r.prefix)}%`);
    // The head index (migration 0021): a prefix of at least its length walks it in the keyset's order.
    if (r.prefix.length >= RECIPIENT_HEAD_LENGTH) {
      q = q.where(
        sql<string>`left(m.recipient, ${sql.lit(RECIPIENT_HEAD_LENGTH)})`,
        '=',
        r.prefix.slice(0, RECIPIENT_HEAD_LENGTH),
      );
    }
  }
  if (r && 'contains' in r) q = q.where('m.recipient', 'like', `%${escapeLike(r.contains)}%`);
  if (f.sender) q = q.where(sql`lower(m.sender)`, '=', f.sender.toLowerCase());
  if (f.text) q = q.where('m.body', 'ilike', `%${escapeLike(f.text)}%`);
  if (f.campaignId) q = q.where('m.campaign_id', '=', f.campaignId);
  if (f.after) {
    q = q.where(below(k, f.after));
  }
  q = q.orderBy(createdAt, 'desc').orderBy(id, 'desc');
  return f.limit === undefined ? q : q.limit(limit(f.limit));
}

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
 * The whole filtered log (an export) from ONE server-side cursor on a connection held for the
 * stream: one snapshot, one plan, no re-seek per page. Yields batches of `batchSize` rows. Closing
 * the generator early (the client went away) closes the cursor and returns the connection. Rows come
 * as the CSV's columns of the log's DTO (SmsLogCsvRow).
 */
export async function* streamLog(
  db: Db,
  f: Omit<LogFilter, 'after' | 'limit'>,
  batchSize = 10_000,
): AsyncGenerator<SmsLogCsvRow[]> {
  // The CSV's columns straight from SQL (times as ISO text, as toISOString writes them): no Date
  // parsing and re-formatting per row, and none of the columns an export does not show.
  const iso = (column: string) =>
    sql<string | null>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const query = logQuery(db, f)
    .clearSelect()
    .select([
      'm.id',
      'm.recipient',
      'm.sender',
      'm.body as text',
      'm.encoding',
      'm.segments',
      'm.price_minor as priceMinor',
      'm.currency',
      sql<MessageStatus>`m.status`.as('status'),
      'm.error',
      sql<string>`${iso('m.created_at')}`.as('createdAt'),
      iso('m.submitted_at').as('submittedAt'),
      iso('m.done_at').as('doneAt'),
    ])
    .compile();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let got!: (conn: Db) => void;
  const acquired = new Promise<Db>((resolve) => (got = resolve));
  const session = db.connection().execute(async (conn) => {
    got(conn);
    await held;
  });
  try {
    const conn = await Promise.race([
      acquired,
      session.then(() => Promise.reject(new Error('the export connection closed'))),
    ]);
    await sql`BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`.execute(conn);
    try {
      await conn.executeQuery(
        CompiledQuery.raw(`DECLARE sms_log_export NO SCROLL CURSOR FOR ${query.sql}`, [...query.parameters]),
      );
      const size = Math.max(1, Math.floor(batchSize));
      const fetchBatch = () => {
        const p = conn.executeQuery<SmsLogCsvRow>(
          CompiledQuery.raw(`FETCH FORWARD ${size} FROM sms_log_export`),
        );
        p.catch(() => undefined); // awaited below; a fetch left pending by an early close must not go unhandled
        return p;
      };
      // The next batch is fetched while the caller writes this one out.
      let next = fetchBatch();
      for (;;) {
        const { rows } = await next;
        const more = rows.length === size;
        if (more) next = fetchBatch();
        if (rows.length) yield rows;
        if (!more) return;
      }
    } finally {
      await sql`ROLLBACK`.execute(conn).catch(() => undefined);
    }
  } finally {
    release();
    await session.catch(() => undefined);
  }
}

export async function findMessage(db: Db, accountId: string, id: string) {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listEvents(db: Db, messageId: string) {
  return db
    .selectFrom('message_events')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('id')
    .execute();
}

/** The SMSC ids of a message's parts, in part order, with the receipt that settled each. */
export async function listPartIds(db: Db, messageId: string) {
  return db
    .selectFrom('message_parts')
    .select(['part', 'smsc_key', 'connection', 'stat', 'err', 'raw'])
    .where('message_id', '=', messageId)
    .orderBy('part')
    .execute();
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
