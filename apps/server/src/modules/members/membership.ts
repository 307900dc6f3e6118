import type { AccountRole } from '@wren/contracts';
import type { Db } from '../../platform/db';

/**
 * Membership as other modules need it (auth signs a session into an account with the member's
 * role; registration makes the first owner). The members module's public face for that; its
 * repository stays private.
 */

/** The user's role in the account, or null when they are not a member. */
export async function memberRole(db: Db, accountId: string, userId: string): Promise<AccountRole | null> {
  const row = await db
    .selectFrom('account_members')
    .select('role')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role ?? null;
}

/** Makes the user a member of the account (registration: the owner; an accepted invite: its role). */
export async function addMember(
  trx: Db,
  m: { accountId: string; userId: string; role: AccountRole; invitedBy?: string | null },
): Promise<void> {
  await trx
    .insertInto('account_members')
    .values({ account_id: m.accountId, user_id: m.userId, role: m.role, invited_by: m.invitedBy ?? null })
    .onConflict((oc) => oc.columns(['account_id', 'user_id']).doUpdateSet({ role: m.role }))
    .execute();
}

/**
 * The account a sign-in acts on: the user's home account while they are a member there, else the
 * first account they joined (a member removed from their home account), else the home account
 * (which then refuses the sign-in: not a member).
 */
export async function defaultAccountOf(db: Db, userId: string, home: string): Promise<string> {
  const rows = await db
    .selectFrom('account_members')
    .select('account_id')
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  if (rows.some((r) => r.account_id === home)) return home;
  return rows[0]?.account_id ?? home;
}
