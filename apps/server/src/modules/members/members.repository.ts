import type { AccountRole } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/** The members module's SQL (account_members, account_invites; users read for names and emails). */

export function listMembers(db: Db, accountId: string) {
  return db
    .selectFrom('account_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.role', 'm.created_at', 'u.name', 'u.username', 'u.email'])
    .where('m.account_id', '=', accountId)
    .orderBy('m.created_at')
    .orderBy('u.username')
    .execute();
}

/** The account's members, locked for a role change or removal (one at a time per account). */
export function lockMembers(trx: Db, accountId: string) {
  return trx
    .selectFrom('account_members')
    .select(['user_id', 'role'])
    .where('account_id', '=', accountId)
    .forUpdate()
    .execute();
}

export async function setRole(trx: Db, accountId: string, userId: string, role: AccountRole) {
  await trx
    .updateTable('account_members')
    .set({ role })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
}

export async function deleteMember(trx: Db, accountId: string, userId: string) {
  await trx
    .deleteFrom('account_members')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
}

export function accountsOf(db: Db, userId: string) {
  return db
    .selectFrom('account_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['m.account_id', 'm.role', 'a.name'])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at')
    .execute();
}

export function findUserByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'account_id', 'role', 'email', 'username', 'name', 'password_hash'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export function findUserById(db: Db, id: string) {
  return db
    .selectFrom('users')
    .select(['id', 'account_id', 'role', 'email', 'username', 'name'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function usernameTaken(db: Db, username: string) {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export function accountName(db: Db, accountId: string) {
  return db.selectFrom('accounts').select('name').where('id', '=', accountId).executeTakeFirst();
}

// Invites -------------------------------------------------------------------------------------

export function insertInvite(
  trx: Db,
  i: {
    accountId: string;
    email: string;
    role: AccountRole;
    tokenHash: string;
    expiresAt: Date;
    /** Null for a sub-account's first owner (the parent's members stay unnamed to the child). */
    invitedBy: string | null;
  },
) {
  return trx
    .insertInto('account_invites')
    .values({
      account_id: i.accountId,
      email: i.email,
      role: i.role,
      token_hash: i.tokenHash,
      expires_at: i.expiresAt,
      invited_by: i.invitedBy,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Pending invites: neither accepted nor revoked (expired ones too, shown as such). */
export function listInvites(db: Db, accountId: string) {
  return db
    .selectFrom('account_invites as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.email', 'i.role', 'i.expires_at', 'i.created_at', 'u.name as invited_by_name'])
    .where('i.account_id', '=', accountId)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .orderBy('i.created_at', 'desc')
    .execute();
}

export function revokeInvite(trx: Db, accountId: string, id: string, now: Date) {
  return trx
    .updateTable('account_invites')
    .set({ revoked_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning(['id', 'email', 'role'])
    .executeTakeFirst();
}

export function findInviteByHash(db: Db, tokenHash: string, lock = false) {
  const q = db
    .selectFrom('account_invites as i')
    .innerJoin('accounts as a', 'a.id', 'i.account_id')
    .select([
      'i.id',
      'i.account_id',
      'i.email',
      'i.role',
      'i.expires_at',
      'i.accepted_at',
      'i.revoked_at',
      'i.invited_by',
      'a.name as account_name',
    ])
    .where('i.token_hash', '=', tokenHash);
  return (lock ? q.forUpdate('i') : q).executeTakeFirst();
}

export async function markAccepted(trx: Db, id: string, userId: string, now: Date) {
  await trx
    .updateTable('account_invites')
    .set({ accepted_at: now, accepted_by: userId })
    .where('id', '=', id)
    .execute();
}
