import { MESSAGE_STATUSES } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { LOG_SELECT } from './messages.repository';

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
export const PLAIN_ASCII = /^[\x20-\x7e]+$/;
/** Characters of a number in messages_log_head_idx (`left(recipient, 5)`, migration 0021): '+' and four digits. */
export const RECIPIENT_HEAD_LENGTH = 5;

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
export function fetchSize(limit: number) {
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
export const below = (alias: 'm' | 'o', after: { createdAt: Date; id: string }) =>
  sql<boolean>`(${sql.ref(`${alias}.created_at`)}, ${sql.ref(`${alias}.id`)}) < (${after.createdAt}::timestamptz, ${after.id}::uuid)`;

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

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
