import type { Db } from '../../platform/db';

/**
 * What the inbound module asks of numbers (issue 40 item 0): the account a number is assigned to.
 * An inbound message addressed to it is that account's.
 */
/** The account a number is assigned to, by any spelling of it (`+447…` or `447…`). */
export async function accountOfNumber(db: Db, spellings: string[]): Promise<string | null> {
  if (spellings.length === 0) return null;
  const row = await db
    .selectFrom('phone_numbers')
    .select('account_id')
    .where('number', 'in', spellings)
    .where('account_id', 'is not', null)
    .executeTakeFirst();
  return row?.account_id ?? null;
}
