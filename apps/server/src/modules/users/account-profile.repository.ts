import type { Db } from '../../platform/db';

/** The account's name and currency, and the time zone of its first owner (who registered it). */
export async function accountProfile(db: Db, accountId: string) {
  return db
    .selectFrom('accounts as a')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('account_members as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select(['m.account_id', 'u.timezone'])
          .where('m.account_id', '=', accountId)
          .where('m.role', '=', 'owner')
          .orderBy('m.created_at')
          .orderBy('m.user_id')
          .limit(1)
          .as('o'),
      (join) => join.onRef('o.account_id', '=', 'a.id'),
    )
    .select(['a.id', 'a.name', 'a.currency', 'o.timezone'])
    .where('a.id', '=', accountId)
    .executeTakeFirst();
}
