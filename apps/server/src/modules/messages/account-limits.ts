import { ErrorCode } from '@wren/contracts';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { sql } from 'kysely';
import { type Db, transact } from '../../platform/db';
import { AppError } from '../../platform/errors';

/**
 * Per-account send limits an operator sets in the console (accounts.max_per_second, daily_cap,
 * allowed_countries; null: no limit). Every accept path calls these: the single send (and through it
 * /v1/messages), campaigns and OTP.
 *
 * - Allowed countries: a destination outside them is refused before anything is stored or charged,
 *   with the numbers and their countries named.
 * - Daily cap: messages accepted per UTC day, counted in `account_send_counters` under that row's
 *   lock, so two concurrent sends cannot pass the cap together. A send (or campaign) larger than what
 *   remains is refused whole, saying how many remain. Accepted means accepted: a message that later
 *   fails or is canceled still counts.
 * - Messages per second: paced at accept time. The account's messages get due times 1/N s apart,
 *   continuing from the last one it was given (`paced_until`), and the dispatcher's claim takes only
 *   messages that are due, so a burst from one account waits in the queue at its own rate while other
 *   accounts' messages are claimed at once. Scheduled messages are not paced (they fall due together
 *   at their time).
 */
export interface AccountLimits {
  maxPerSecond: number | null;
  dailyCap: number | null;
  allowedCountries: string[] | null;
}

const NONE: AccountLimits = { maxPerSecond: null, dailyCap: null, allowedCountries: null };

/** The limits of several accounts in one statement, in the order asked. */
export async function loadLimitsMany(db: Db, accountIds: readonly string[]): Promise<AccountLimits[]> {
  const ids = [...new Set(accountIds)];
  // One account (the usual turn of the loop) by `id = $1`: PostgreSQL never keeps a generic plan for
  // `id = ANY($1)`, whose generic estimate (ten elements) always costs more than a custom plan's
  // one, so every call was planned again (bench:api, pg_stat_statements: 112 µs of planning per
  // call against 3 µs of execution).
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'max_per_second', 'daily_cap', 'allowed_countries'])
    .where('id', '=', ids.length === 1 ? ids[0] : sql<string>`ANY(${ids}::uuid[])`)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return accountIds.map((id) => {
    const row = byId.get(id);
    if (!row) return NONE;
    return {
      maxPerSecond: row.max_per_second ?? null,
      dailyCap: row.daily_cap ?? null,
      allowedCountries: row.allowed_countries ?? null,
    };
  });
}

export async function loadLimits(db: Db, accountId: string): Promise<AccountLimits> {
  const row = await db
    .selectFrom('accounts')
    .select(['max_per_second', 'daily_cap', 'allowed_countries'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row) return NONE;
  return {
    maxPerSecond: row.max_per_second ?? null,
    dailyCap: row.daily_cap ?? null,
    allowedCountries: row.allowed_countries ?? null,
  };
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "Kenya (KE)"; an unknown code as itself. */
export function countryLabel(code: string): string {
  let name: string | undefined;
  try {
    name = regionNames.of(code);
  } catch {
    name = undefined;
  }
  return name && name !== code ? `${name} (${code})` : code;
}

/** The ISO country of an E.164 number (null: none, e.g. a non-geographic number). */
export function countryOf(e164: string): string | null {
  return parsePhoneNumberFromString(e164)?.country ?? null;
}

/** Recipients outside the account's allowed countries, with the country each is in. */
export function outsideCountries(
  limits: AccountLimits,
  recipients: Iterable<string>,
): { number: string; country: string | null }[] {
  const allowed = limits.allowedCountries;
  if (allowed === null) return [];
  const out: { number: string; country: string | null }[] = [];
  for (const number of recipients) {
    const country = countryOf(number);
    if (!country || !allowed.includes(country)) out.push({ number, country });
  }
  return out;
}

/** The message for recipients outside the allowed countries, naming (up to five of) them. */
export function countriesMessage(
  limits: AccountLimits,
  outside: { number: string; country: string | null }[],
) {
  const shown = outside
    .slice(0, 5)
    .map((o) => `${o.number} (${o.country ? countryLabel(o.country) : 'no country'})`)
    .join(', ');
  const more = outside.length > 5 ? ` and ${outside.length - 5} more` : '';
  const allowed = limits.allowedCountries?.length
    ? `Allowed: ${limits.allowedCountries.join(', ')}.`
    : 'No country is allowed.';
  return `Your account may not send to ${shown}${more}. ${allowed} Ask support to allow more countries.`;
}

/** Throws 422 when a recipient is outside the allowed countries. */
export function assertCountries(limits: AccountLimits, recipients: Iterable<string>) {
  const outside = outsideCountries(limits, recipients);
  if (outside.length) throw new AppError(ErrorCode.UNPROCESSABLE, countriesMessage(limits, outside));
}

const dailyCapError = (cap: number, used: number, n: number) => {
  const left = Math.max(0, cap - used);
  return new AppError(
    ErrorCode.RATE_LIMITED,
    `Daily limit reached: your account may send ${cap} messages a day (UTC) and ${left} remain today; ` +
      `this send has ${n}. ${left > 0 ? `Send to at most ${left} recipients, or wait` : 'Wait'} until ` +
      `00:00 UTC, or ask support to raise the limit.`,
  );
};

export interface Admission {
  /** The UTC day the messages were counted on (for release). */
  day: string;
  /** When each message may be sent (paced accounts), else null. */
  dueAt: Date[] | null;
}

/**
 * Counts `n` messages against today's cap and paces them, inside the caller's transaction (the
 * counter row stays locked until it commits; a rollback undoes both). Throws 429 when the cap would
 * be passed. Accounts with neither a cap nor a rate pay nothing (no row is touched).
 */
export async function admit(
  trx: Db,
  accountId: string,
  limits: AccountLimits,
  n: number,
  opts: { paced: boolean; start?: Date } = { paced: true },
): Promise<Admission | null> {
  const pace = opts.paced ? limits.maxPerSecond : null;
  if (limits.dailyCap === null && pace === null) return null;
  await sql`INSERT INTO account_send_counters (account_id, day)
            VALUES (${accountId}::uuid, (now() AT TIME ZONE 'UTC')::date)
            ON CONFLICT (account_id) DO NOTHING`.execute(trx);
  const { rows } = await sql<{ used: number; today: string; paced_until: Date | null; now: Date }>`
    SELECT CASE WHEN day = (now() AT TIME ZONE 'UTC')::date THEN accepted ELSE 0 END AS used,
           ((now() AT TIME ZONE 'UTC')::date)::text AS today, paced_until, clock_timestamp() AS now
      FROM account_send_counters WHERE account_id = ${accountId}::uuid FOR UPDATE`.execute(trx);
  const row = rows[0];
  if (limits.dailyCap !== null && row.used + n > limits.dailyCap) {
    throw dailyCapError(limits.dailyCap, row.used, n);
  }
  let dueAt: Date[] | null = null;
  let pacedUntil = row.paced_until;
  if (pace !== null && n > 0) {
    const step = 1000 / pace;
    const from = Math.max(
      (opts.start ?? new Date(row.now)).getTime(),
      row.paced_until ? new Date(row.paced_until).getTime() : 0,
    );
    dueAt = Array.from({ length: n }, (_, i) => new Date(Math.round(from + i * step)));
    pacedUntil = new Date(Math.round(from + n * step));
  }
  await sql`UPDATE account_send_counters
               SET day = ${row.today}::date, accepted = ${row.used + n}, paced_until = ${pacedUntil}
             WHERE account_id = ${accountId}::uuid`.execute(trx);
  return { day: row.today, dueAt };
}

/**
 * Admits in a transaction of its own (for a send whose rows are written elsewhere); see release.
 * Its commit does not wait for the WAL flush (synchronous_commit off): every send of the account
 * queues on the counter row until the holder commits, so a flush under the lock would cap a limited
 * account at one send per fsync. Nothing is lost by it: the send's own (synchronous) commit comes
 * later in the WAL and flushes it too; a crash before that loses only the count of a send that was
 * never stored.
 */
export async function admitNow(db: Db, accountId: string, limits: AccountLimits, n: number, paced: boolean) {
  // Most accounts have no limits: no transaction (two round trips per send) for nothing to count.
  if (limits.dailyCap === null && (!paced || limits.maxPerSecond === null)) return null;
  return transact(db, async (trx) => {
    await sql`SET LOCAL synchronous_commit = off`.execute(trx);
    return admit(trx, accountId, limits, n, { paced });
  });
}

/** Gives back what admitNow counted when the send was then refused (balance, database error). */
export async function release(db: Db, accountId: string, admission: Admission | null, n: number) {
  if (!admission || n <= 0) return;
  await sql`UPDATE account_send_counters SET accepted = greatest(accepted - ${n}, 0)
             WHERE account_id = ${accountId}::uuid AND day = ${admission.day}::date`.execute(db);
}
