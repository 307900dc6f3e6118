import { sql } from 'kysely';
import type { Db } from '../../platform/db';

export const credentialColumns = [
  'id',
  'account_id',
  'username',
  'email',
  'password_hash',
  'role',
  'failed_logins',
  'locked_until',
] as const;

export async function findCredentialsByLogin(db: Db, login: string) {
  const l = login.toLowerCase();
  return db
    .selectFrom('users')
    .select(credentialColumns)
    .where((eb) => eb.or([eb(sql`lower(username)`, '=', l), eb(sql`lower(email)`, '=', l)]))
    .executeTakeFirst();
}

export async function findCredentialsById(db: Db, userId: string) {
  return db.selectFrom('users').select(credentialColumns).where('id', '=', userId).executeTakeFirst();
}

export async function findUserIdByEmail(db: Db, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'account_id', 'email', 'name'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function usernameOrEmailTaken(db: Db, username: string, email: string) {
  const rows = await db
    .selectFrom('users')
    .select([
      sql<boolean>`lower(username) = ${username.toLowerCase()}`.as('username'),
      sql<boolean>`lower(email) = ${email.toLowerCase()}`.as('email'),
    ])
    .where((eb) =>
      eb.or([
        eb(sql`lower(username)`, '=', username.toLowerCase()),
        eb(sql`lower(email)`, '=', email.toLowerCase()),
      ]),
    )
    .execute();
  return { username: rows.some((r) => r.username), email: rows.some((r) => r.email) };
}

/** Counts a failed sign-in; the one that reaches `threshold` locks the account until `lockUntil`. */
export async function recordFailedLogin(db: Db, userId: string, threshold: number, lockUntil: Date) {
  return db
    .updateTable('users')
    .set({
      failed_logins: sql`CASE WHEN failed_logins + 1 >= ${threshold} THEN 0 ELSE failed_logins + 1 END`,
      locked_until: sql`CASE WHEN failed_logins + 1 >= ${threshold} THEN ${lockUntil}::timestamptz ELSE locked_until END`,
    })
    .where('id', '=', userId)
    .returning(['failed_logins', 'locked_until'])
    .executeTakeFirstOrThrow();
}

export async function clearFailedLogins(db: Db, userId: string) {
  await db
    .updateTable('users')
    .set({ failed_logins: 0, locked_until: null })
    .where('id', '=', userId)
    .execute();
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string) {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, failed_logins: 0, locked_until: null, updated_at: new Date() })
    .where('id', '=', userId)
    .execute();
}

// Sessions (refresh-token families) -----------------------------------------------------------

export async function createSession(
  db: Db,
  s: { userId: string; accountId: string; ip: string | null; userAgent: string | null },
) {
  return db
    .insertInto('sessions')
    .values({
      user_id: s.userId,
      account_id: s.accountId,
      ip: s.ip,
      user_agent: s.userAgent?.slice(0, 300) ?? null,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

export async function insertRefreshToken(
  db: Db,
  t: { sessionId: string; tokenHash: string; expiresAt: Date },
) {
  await db
    .insertInto('refresh_tokens')
    .values({ session_id: t.sessionId, token_hash: t.tokenHash, expires_at: t.expiresAt })
    .execute();
}

export async function findRefreshToken(db: Db, tokenHash: string) {
  return db
    .selectFrom('refresh_tokens as t')
    .innerJoin('sessions as s', 's.id', 't.session_id')
    .select([
      't.id',
      't.session_id',
      't.expires_at',
      't.used_at',
      's.user_id',
      's.account_id',
      's.revoked_at',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a refresh token used at `now`; returns false when it had been used already (a race or a replay). */
export async function markRefreshTokenUsed(db: Db, id: string, now: Date) {
  const r = await db
    .updateTable('refresh_tokens')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function touchSession(db: Db, sessionId: string) {
  await db.updateTable('sessions').set({ last_used_at: new Date() }).where('id', '=', sessionId).execute();
}

// Password resets ----------------------------------------------------------------------------

export async function insertPasswordReset(db: Db, r: { userId: string; tokenHash: string; expiresAt: Date }) {
  await db
    .insertInto('password_resets')
    .values({ user_id: r.userId, token_hash: r.tokenHash, expires_at: r.expiresAt })
    .execute();
}

/** Consumes a reset token atomically: single use, unexpired at `now`. */
export async function consumePasswordReset(db: Db, tokenHash: string, now: Date) {
  return db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id'])
    .executeTakeFirst();
}
