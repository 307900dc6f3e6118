import { MONTH_MESSAGE, MONTH_PATTERN } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { FieldError } from '../../platform/errors';

/** YYYY-MM of `at` in `timeZone`. */
export function monthOf(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(at);
  const y = parts.find((p) => p.type === 'year')?.value;
  const m = parts.find((p) => p.type === 'month')?.value;
  return `${y}-${m}`;
}

/**
 * Checks a month parameter: YYYY-MM, and not after the current month in the statement's time zone
 * (a month that has not started is a 400, not an empty statement). A month before the account
 * existed is allowed: its statement is empty.
 */
export function checkMonth(month: string, current: string): void {
  if (!MONTH_PATTERN.test(month)) throw new FieldError({ month: [MONTH_MESSAGE] });
  if (month > current)
    throw new FieldError({
      month: [`${month} has not started yet: the latest statement is for ${current}`],
    });
}

/**
 * The month's first instant and the next month's, in `timeZone`, computed by PostgreSQL (DST and
 * historical offsets included): local midnight of the 1st, as an instant.
 */
export async function monthBounds(db: Db, month: string, timeZone: string) {
  const first = `${month}-01`;
  const { rows } = await sql<{ start: Date; end: Date }>`
    SELECT (${first}::date::timestamp AT TIME ZONE ${timeZone}) AS start,
           ((${first}::date + interval '1 month')::timestamp AT TIME ZONE ${timeZone}) AS end`.execute(db);
  const r = rows[0];
  if (!r) throw new Error('month bounds: no row');
  return { start: new Date(r.start), end: new Date(r.end) };
}
