import {
  ErrorCode,
  RECOVERY_CODE_COUNT,
  roleCan,
  REMEMBER_DEVICE_DAYS,
  TWO_FACTOR_CHALLENGE_MINUTES,
  type LoginResponse,
  type TwoFactorChallenge,
  type TwoFactorDisableInput,
  type TwoFactorEnrollment,
  type TwoFactorStatus,
  type TwoFactorVerifyInput,
} from '@wren/contracts';
import { nowMs } from '../../platform/clock';
import { type Db, transact } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { recordAudit } from '../audit/audit.service';
import { defaultAccountOf } from '../members/membership';
import type { AuthDeps, ClientInfo, StartSession } from './auth-deps';
import * as authRepo from './auth.repository';
import { verifyPassword } from './passwords';
import {
  decryptSecret,
  encryptSecret,
  hashRecoveryCode,
  matchingStep,
  newEnrollment,
  newRecoveryCodes,
} from './two-factor-crypto';
import * as repo from './two-factor.repository';
import { hashToken, randomToken, type AccessClaims } from './tokens';

/** The sign-in credentials the gate reads (auth.repository's credential columns). */
type Credentials = NonNullable<Awaited<ReturnType<typeof authRepo.findCredentialsById>>>;

const wrongCode = () => new AppError(ErrorCode.INVALID_CREDENTIALS, 'Incorrect code. Try again.');
const replayedCode = () =>
  new AppError(ErrorCode.INVALID_CREDENTIALS, 'That code was used already. Wait for the next one.');
const challengeEnded = () =>
  new AppError(ErrorCode.TOKEN_INVALID, 'This sign-in has expired. Please sign in again.');
const notEnabled = () => new AppError(ErrorCode.CONFLICT, 'Two-factor sign-in is not turned on.');

/**
 * Two-factor sign-in (issue 39 item 3): enrollment, the code step of sign-in (a 5-minute,
 * single-use challenge after the password), recovery codes, remembered devices and the account's
 * requirement. Every change ends the user's other sessions through sessions.invalidate.
 */
export function createTwoFactor(deps: AuthDeps, inner: { startSession: StartSession }) {
  const { db, config, clock, sessions } = deps;
  const now = () => clock.now();
  const secretOf = (stored: string) => decryptSecret(config.jwtSecret, stored);

  async function issueChallenge(trx: Db, userId: string, kind: 'code' | 'enroll', accountId?: string) {
    const token = randomToken();
    const expiresAt = new Date(nowMs(clock) + TWO_FACTOR_CHALLENGE_MINUTES * 60_000);
    await repo.insertChallenge(trx, {
      userId,
      kind,
      tokenHash: hashToken(token),
      expiresAt,
      at: now(),
      accountId,
    });
    return { twoFactor: kind, challenge: token, expiresAt: expiresAt.toISOString() } as const;
  }

  /** A wrong code counts toward the sign-in lock, as a wrong password does (auth.service login). */
  async function countFailure(cred: Credentials, client: ClientInfo) {
    const at = now();
    const after = await authRepo.recordFailedLogin(
      db,
      cred.id,
      config.loginLockThreshold,
      new Date(at.getTime() + config.loginLockMinutes * 60_000),
    );
    if (after.locked_until && after.locked_until > at) {
      await sessions.invalidate({ userId: cred.id }, 'account_locked');
      await recordAudit(db, {
        accountId: cred.account_id,
        userId: cred.id,
        kind: 'auth.locked',
        message: 'Sign-in locked after repeated wrong two-factor codes',
        ip: client.ip,
      });
      throw lockedError(after.locked_until, at);
    }
  }

  /** The user behind a live challenge of `kind`, refusing a locked user. */
  async function challengeUser(challenge: string, kind: 'code' | 'enroll') {
    const row = await repo.findChallenge(db, hashToken(challenge), now());
    if (!row || row.kind !== kind) throw challengeEnded();
    const cred = await authRepo.findCredentialsById(db, row.user_id);
    if (!cred) throw challengeEnded();
    if (cred.locked_until && cred.locked_until > now()) throw lockedError(cred.locked_until, now());
    // As the password step (admin.module's sign-in refusal): no session in an operator-locked account.
    if (await repo.homeAccountLocked(db, cred.id)) {
      throw new AppError(
        ErrorCode.ACCOUNT_LOCKED,
        'This account is locked. Contact support to have it unlocked.',
      );
    }
    return { row, cred };
  }

  /** Checks a code against the user's enabled secret; returns its step or throws (counted). */
  async function checkCode(cred: Credentials, code: string, client: ClientInfo): Promise<number> {
    const tf = await repo.findUserTwoFactor(db, cred.id);
    if (!tf?.secret_enc || !tf.enabled_at) throw notEnabled();
    const step = matchingStep(secretOf(tf.secret_enc), code, nowMs(clock));
    if (step === null || (tf.last_step !== null && step <= Number(tf.last_step))) {
      await countFailure(cred, client);
      throw step === null ? wrongCode() : replayedCode();
    }
    return step;
  }

  async function freshRecoveryCodes(trx: Db, userId: string) {
    const codes = newRecoveryCodes(RECOVERY_CODE_COUNT);
    await repo.replaceRecoveryCodes(trx, userId, codes.map(hashRecoveryCode));
    return codes;
  }

  /** Ends the user's other sessions and records what changed (one transaction with the change). */
  async function changed(
    trx: Db,
    auth: { userId: string; accountId: string; sessionId?: string },
    how: {
      kind: string;
      message: string;
      ip: string | null;
    },
  ) {
    await sessions.invalidate(
      { userId: auth.userId, exceptSessionId: auth.sessionId },
      'two_factor_changed',
      trx,
    );
    await recordAudit(trx, {
      accountId: auth.accountId,
      userId: auth.userId,
      kind: how.kind,
      message: how.message,
      ip: how.ip,
    });
  }

  async function startEnrollment(userId: string): Promise<TwoFactorEnrollment> {
    const cred = await authRepo.findCredentialsById(db, userId);
    if (!cred) throw challengeEnded();
    const tf = await repo.findUserTwoFactor(db, userId);
    if (tf?.enabled_at) throw new AppError(ErrorCode.CONFLICT, 'Two-factor sign-in is already on.');
    const enrollment = await newEnrollment(cred.email || cred.username);
    await repo.savePendingSecret(db, userId, encryptSecret(config.jwtSecret, enrollment.secret));
    return enrollment;
  }

  /** Enables the pending secret with its first code, in `trx`; returns the recovery codes. */
  async function finishEnrollment(trx: Db, userId: string, code: string) {
    const tf = await repo.findUserTwoFactor(trx, userId);
    if (!tf?.secret_enc || tf.enabled_at) {
      throw new AppError(ErrorCode.CONFLICT, 'Start the setup again: there is no pending two-factor setup.');
    }
    const step = matchingStep(secretOf(tf.secret_enc), code, nowMs(clock));
    if (step === null) throw wrongCode();
    if (!(await repo.enable(trx, userId, now(), step))) throw wrongCode();
    await repo.forgetDevices(trx, userId);
    return freshRecoveryCodes(trx, userId);
  }

  return {
    /**
     * The second step a correct password leads to, or null for none: a code (two-factor is on and
     * the device is not remembered), or enrollment (the account requires two-factor). Called in
     * the sign-in transaction after the password was checked.
     */
    async signInStep(
      trx: Db,
      cred: { id: string; account_id: string },
      deviceToken: string | undefined,
    ): Promise<TwoFactorChallenge | null> {
      const tf = await repo.findUserTwoFactor(trx, cred.id);
      if (tf?.enabled_at) {
        if (deviceToken && (await repo.touchDevice(trx, cred.id, hashToken(deviceToken), now()))) return null;
        return issueChallenge(trx, cred.id, 'code');
      }
      // The account the session will act on (membership's default), not only the home account.
      if (await repo.accountRequiresTwoFactor(trx, await defaultAccountOf(trx, cred.id, cred.account_id)))
        return issueChallenge(trx, cred.id, 'enroll');
      return null;
    },

    /**
     * Before a session in `accountId` opens for a user who is signed in already or gave their
     * password (members: an accepted invite, a switch): the enrollment step when the account
     * requires two-factor and the user has not turned it on, else null. The challenge names the
     * account, so finishing the enrollment opens the session there, as sign-in's does.
     */
    async enrollmentBefore(trx: Db, userId: string, accountId: string): Promise<TwoFactorChallenge | null> {
      if (!(await lacksRequiredTwoFactor(trx, userId, accountId))) return null;
      return issueChallenge(trx, userId, 'enroll', accountId);
    },

    /** POST /api/auth/2fa: completes a sign-in with a code or a recovery code. */
    async verifySignIn(
      input: TwoFactorVerifyInput,
      client: ClientInfo,
    ): Promise<{ login: LoginResponse; deviceToken: string | null }> {
      const { row, cred } = await challengeUser(input.challenge, 'code');
      let step: number | null = null;
      let recoveryHash: string | null = null;
      if (input.code !== undefined) step = await checkCode(cred, input.code, client);
      else {
        recoveryHash = hashRecoveryCode(input.recoveryCode ?? '');
        if (!(await repo.hasRecoveryCode(db, cred.id, recoveryHash))) {
          await countFailure(cred, client);
          throw new AppError(ErrorCode.INVALID_CREDENTIALS, 'That recovery code is not valid or was used.');
        }
      }
      return transact(db, async (trx) => {
        if (!(await repo.consumeChallenge(trx, row.id, now()))) throw challengeEnded();
        if (step !== null && !(await repo.acceptStep(trx, cred.id, step))) throw replayedCode();
        if (recoveryHash && !(await repo.useRecoveryCode(trx, cred.id, recoveryHash, now()))) {
          throw new AppError(ErrorCode.INVALID_CREDENTIALS, 'That recovery code is not valid or was used.');
        }
        if (cred.failed_logins > 0 || cred.locked_until) await authRepo.clearFailedLogins(trx, cred.id);
        let deviceToken: string | null = null;
        if (input.rememberDevice) {
          deviceToken = randomToken();
          await repo.insertDevice(trx, {
            userId: cred.id,
            tokenHash: hashToken(deviceToken),
            userAgent: client.userAgent,
            expiresAt: new Date(nowMs(clock) + REMEMBER_DEVICE_DAYS * 86_400_000),
            at: now(),
          });
        }
        if (recoveryHash) {
          await recordAudit(trx, {
            accountId: cred.account_id,
            userId: cred.id,
            kind: 'auth.two_factor_recovery_used',
            message: 'Signed in with a recovery code',
            ip: client.ip,
          });
        }
        return { login: await inner.startSession(trx, cred, client), deviceToken };
      });
    },

    /** POST /api/auth/2fa/enroll: the secret for a member whose account requires two-factor. */
    async signInEnrollStart(challenge: string): Promise<TwoFactorEnrollment> {
      const { cred } = await challengeUser(challenge, 'enroll');
      return startEnrollment(cred.id);
    },

    /** POST /api/auth/2fa/enroll/confirm: enables two-factor and completes the sign-in. */
    async signInEnrollConfirm(
      input: { challenge: string; code: string },
      client: ClientInfo,
    ): Promise<LoginResponse & { recoveryCodes: string[] }> {
      const { row, cred } = await challengeUser(input.challenge, 'enroll');
      return transact(db, async (trx) => {
        if (!(await repo.consumeChallenge(trx, row.id, now()))) throw challengeEnded();
        const recoveryCodes = await finishEnrollment(trx, cred.id, input.code);
        if (cred.failed_logins > 0 || cred.locked_until) await authRepo.clearFailedLogins(trx, cred.id);
        await changed(
          trx,
          { userId: cred.id, accountId: row.account_id ?? cred.account_id },
          {
            kind: 'auth.two_factor_enabled',
            message: 'Two-factor sign-in turned on (required by the account); other sessions were signed out',
            ip: client.ip,
          },
        );
        const login = await inner.startSession(trx, cred, client, row.account_id ?? undefined);
        return { ...login, recoveryCodes };
      });
    },

    async twoFactorStatus(auth: AccessClaims): Promise<TwoFactorStatus> {
      const tf = await repo.findUserTwoFactor(db, auth.userId);
      const enabled = Boolean(tf?.enabled_at);
      return {
        enabled,
        enabledAt: tf?.enabled_at?.toISOString() ?? null,
        recoveryCodesLeft: enabled ? await repo.recoveryCodesLeft(db, auth.userId) : 0,
        accountRequires: await repo.accountRequiresTwoFactor(db, auth.accountId),
        canSetRequirement: roleCan(auth.accountRole, 'members:manage'),
      };
    },

    enrollStart: (auth: AccessClaims) => startEnrollment(auth.userId),

    async enrollConfirm(auth: AccessClaims, code: string, client: ClientInfo) {
      return transact(db, async (trx) => {
        const recoveryCodes = await finishEnrollment(trx, auth.userId, code);
        await changed(trx, auth, {
          kind: 'auth.two_factor_enabled',
          message: 'Two-factor sign-in turned on; other sessions were signed out',
          ip: client.ip,
        });
        return { recoveryCodes };
      });
    },

    async disable(auth: AccessClaims, input: TwoFactorDisableInput, client: ClientInfo) {
      const cred = await authRepo.findCredentialsById(db, auth.userId);
      if (!cred || !(await verifyPassword(cred.password_hash, input.password))) {
        throw new AppError(ErrorCode.WRONG_PASSWORD, 'Current password is incorrect');
      }
      if (await repo.accountRequiresTwoFactor(db, auth.accountId)) {
        throw new AppError(
          ErrorCode.FORBIDDEN,
          'This account requires two-factor sign-in of its members, so it cannot be turned off.',
        );
      }
      const step = await checkCode(cred, input.code, client);
      await transact(db, async (trx) => {
        if (!(await repo.acceptStep(trx, auth.userId, step))) throw replayedCode();
        await repo.removeAll(trx, auth.userId);
        await changed(trx, auth, {
          kind: 'auth.two_factor_disabled',
          message: 'Two-factor sign-in turned off; other sessions were signed out',
          ip: client.ip,
        });
      });
    },

    async regenerateRecoveryCodes(auth: AccessClaims, code: string, client: ClientInfo) {
      const cred = await authRepo.findCredentialsById(db, auth.userId);
      if (!cred) throw challengeEnded();
      const step = await checkCode(cred, code, client);
      return transact(db, async (trx) => {
        if (!(await repo.acceptStep(trx, auth.userId, step))) throw replayedCode();
        const recoveryCodes = await freshRecoveryCodes(trx, auth.userId);
        await changed(trx, auth, {
          kind: 'auth.two_factor_recovery_regenerated',
          message: 'New recovery codes made (the old ones no longer work); other sessions were signed out',
          ip: client.ip,
        });
        return { recoveryCodes };
      });
    },

    async setAccountRequirement(auth: AccessClaims, requireTwoFactor: boolean, client: ClientInfo) {
      await transact(db, async (trx) => {
        await repo.setAccountRequiresTwoFactor(trx, auth.accountId, requireTwoFactor);
        await recordAudit(trx, {
          accountId: auth.accountId,
          userId: auth.userId,
          kind: 'account.two_factor_required',
          message: requireTwoFactor
            ? 'Two-factor sign-in is now required of every member'
            : 'Two-factor sign-in is no longer required',
          ip: client.ip,
        });
      });
      return { requireTwoFactor };
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactor>;

function lockedError(until: Date, at: Date) {
  const minutes = Math.max(1, Math.ceil((until.getTime() - at.getTime()) / 60_000));
  return new AppError(
    ErrorCode.ACCOUNT_LOCKED,
    `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}

/** Whether the user signs in with two-factor (members: an invite accepted with a password alone). */
export async function twoFactorEnabled(db: Db, userId: string): Promise<boolean> {
  return Boolean((await repo.findUserTwoFactor(db, userId))?.enabled_at);
}

/** Whether `accountId` requires two-factor and the user has not turned it on (members: a switch). */
export async function lacksRequiredTwoFactor(db: Db, userId: string, accountId: string): Promise<boolean> {
  return (await repo.accountRequiresTwoFactor(db, accountId)) && !(await twoFactorEnabled(db, userId));
}
