import { PERFORMANCE_FAILED_STATUSES, PERFORMANCE_SENT_STATUSES } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';

export interface PeriodBounds {
  /** Local midnight today, as an instant. */
  today: Date;
  /** Local midnight 6 days ago (7 days including today). */
  week: Date;
  /** Local midnight `days - 1` days ago. */
  month: Date;
  /** Today's date in the time zone, YYYY-MM-DD. */
  localDate: string;
}

/**
 * Day boundaries in an IANA time zone, computed by PostgreSQL so DST changes are handled: local
 * wall-clock midnights, converted back to instants.
 */
export async function periodBounds(db: Db, timezone: string, days: number): Promise<PeriodBounds> {
  const { rows } = await sql<{ today: Date; week: Date; month: Date; local_date: string }>`
    SELECT d0 AT TIME ZONE ${timezone} AS today,
           (d0 - interval '6 days') AT TIME ZONE ${timezone} AS week,
           (d0 - make_interval(days => ${days - 1})) AT TIME ZONE ${timezone} AS month,
           to_char(d0, 'YYYY-MM-DD') AS local_date
    FROM (SELECT date_trunc('day', now() AT TIME ZONE ${timezone}) AS d0) b`.execute(db);
  const r = rows[0];
  if (!r) throw new Error('period bounds: no row');
  return {
    today: new Date(r.today),
    week: new Date(r.week),
    month: new Date(r.month),
    localDate: r.local_date,
  };
}

/** Per status: messages of the account created since each bound (uses messages_log_idx). */
export async function statusCountsSince(db: Db, accountId: string, b: PeriodBounds) {
  return db
    .selectFrom('messages')
    .select((eb) => [
      'status',
      sql<number>`count(*) FILTER (WHERE created_at >= ${b.today})::int`.as('today'),
      sql<number>`count(*) FILTER (WHERE created_at >= ${b.week})::int`.as('week'),
      eb.fn.countAll<number>().as('month'),
    ])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', b.month)
    .groupBy('status')
    .execute();
}

const sentList = sql.join(PERFORMANCE_SENT_STATUSES.map((s) => sql.lit(s)));
const failedList = sql.join(PERFORMANCE_FAILED_STATUSES.map((s) => sql.lit(s)));

/** Per local day (only days that have messages): sent, delivered and failed counts. */
export async function dailyCounts(db: Db, accountId: string, timezone: string, since: Date) {
  const day = sql<string>`to_char(created_at AT TIME ZONE ${timezone}, 'YYYY-MM-DD')`;
  return db
    .selectFrom('messages')
    .select([
      day.as('day'),
      sql<number>`count(*) FILTER (WHERE status IN (${sentList}))::int`.as('sent'),
      sql<number>`count(*) FILTER (WHERE status = 'delivered')::int`.as('delivered'),
      sql<number>`count(*) FILTER (WHERE status IN (${failedList}))::int`.as('failed'),
    ])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', since)
    .groupBy(sql`1`)
    .execute();
}

/** The account's campaign, or undefined (unknown id or another account's). */
export async function findCampaign(db: Db, accountId: string, campaignId: string) {
  return db
    .selectFrom('campaigns')
    .select(['id', 'kind', 'name', 'created_at'])
    .where('id', '=', campaignId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** Per status: the campaign's message count and price (uses messages_campaign_keyset_idx). */
export async function campaignStatusTotals(db: Db, accountId: string, campaignId: string) {
  return db
    .selectFrom('messages')
    .select((eb) => [
      'status',
      eb.fn.countAll<number>().as('count'),
      sql<number>`coalesce(sum(price_minor), 0)::int8`.as('price_minor'),
      eb.fn.max('currency').as('currency'),
    ])
    .where('campaign_id', '=', campaignId)
    .where('account_id', '=', accountId)
    .groupBy('status')
    .execute();
}
