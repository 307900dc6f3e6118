import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/** Two-factor sign-in's tables (migration 0033). Times come from the app clock, never now(). */

/** The user's two-factor row and whether their home account requires two-factor. */
export async function findUserTwoFactor(db: Db, userId: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .leftJoin('user_two_factor as t', 't.user_id', 'u.id')
    .select(['t.secret_enc', 't.enabled_at', 't.last_step', 'a.require_two_factor'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/** Whether an operator locked the user's home account (admin's sign-in refusal, 0012). */
export async function homeAccountLocked(db: Db, userId: string) {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select('a.locked_at')
    .where('u.id', '=', userId)
    .executeTakeFirst();
  return Boolean(row?.locked_at);
}

export async function accountRequiresTwoFactor(db: Db, accountId: string) {
  const row = await db
    .selectFrom('accounts')
    .select('require_two_factor')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row?.require_two_factor ?? false;
}

export async function setAccountRequiresTwoFactor(db: Db, accountId: string, on: boolean) {
  await db.updateTable('accounts').set({ require_two_factor: on }).where('id', '=', accountId).execute();
}

/** Starts (or restarts) an enrollment: a pending secret, not enabled yet. */
export async function savePendingSecret(db: Db, userId: string, secretEnc: string) {
  await db
    .insertInto('user_two_factor')
    .values({ user_id: userId, secret_enc: secretEnc, enabled_at: null, last_step: null })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ secret_enc: secretEnc, enabled_at: null, last_step: null }),
    )
    .execute();
}

/** Enables the pending secret, taking `step` as its first used code; false if none was pending. */
export async function enable(db: Db, userId: string, at: Date, step: number) {
  const r = await db
    .updateTable('user_two_factor')
    .set({ enabled_at: at, last_step: step })
    .where('user_id', '=', userId)
    .where('enabled_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Takes `step` as used; false when it (or a later one) was used before: a replayed code. */
export async function acceptStep(db: Db, userId: string, step: number) {
  const r = await db
    .updateTable('user_two_factor')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', sql<string>`${step}`)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Removes two-factor: secret, recovery codes and remembered devices. */
export async function removeAll(db: Db, userId: string) {
  await db.deleteFrom('two_factor_devices').where('user_id', '=', userId).execute();
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('user_two_factor').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: Db, userId: string, hashes: string[]) {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
}

export async function hasRecoveryCode(db: Db, userId: string, hash: string) {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select('id')
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Boolean(row);
}

/** Uses a recovery code once; false when it is unknown or used. */
export async function useRecoveryCode(db: Db, userId: string, hash: string, at: Date) {
  const r = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(db: Db, userId: string) {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// Remembered devices ---------------------------------------------------------------------------

export async function insertDevice(
  db: Db,
  d: { userId: string; tokenHash: string; userAgent: string | null; expiresAt: Date; at: Date },
) {
  await db
    .insertInto('two_factor_devices')
    .values({
      user_id: d.userId,
      token_hash: d.tokenHash,
      user_agent: d.userAgent?.slice(0, 300) ?? null,
      expires_at: d.expiresAt,
      last_used_at: d.at,
      created_at: d.at,
    })
    .execute();
}

/** Marks the user's remembered device used at `at`; false when unknown or expired. */
export async function touchDevice(db: Db, userId: string, tokenHash: string, at: Date) {
  const r = await db
    .updateTable('two_factor_devices')
    .set({ last_used_at: at })
    .where('user_id', '=', userId)
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function forgetDevices(db: Db, userId: string) {
  await db.deleteFrom('two_factor_devices').where('user_id', '=', userId).execute();
}

// Sign-in challenges ---------------------------------------------------------------------------

export async function insertChallenge(
  db: Db,
  c: {
    userId: string;
    kind: 'code' | 'enroll';
    tokenHash: string;
    expiresAt: Date;
    at: Date;
    /** The account the session will act on (0036); the sign-in's default when absent. */
    accountId?: string;
  },
) {
  await db
    .insertInto('two_factor_challenges')
    .values({
      user_id: c.userId,
      kind: c.kind,
      token_hash: c.tokenHash,
      expires_at: c.expiresAt,
      created_at: c.at,
      account_id: c.accountId ?? null,
    })
    .execute();
}

/** An unused, unexpired challenge. */
export async function findChallenge(db: Db, tokenHash: string, at: Date) {
  return db
    .selectFrom('two_factor_challenges')
    .select(['id', 'user_id', 'kind', 'account_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
}

/** Uses a challenge once; false when it was used (or expired) meanwhile. */
export async function consumeChallenge(db: Db, id: string, at: Date) {
  const r = await db
    .updateTable('two_factor_challenges')
    .set({ used_at: at })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
