import {
  ErrorCode,
  type ChangePasswordInput,
  type LoginResponse,
  type TokenPair,
  type TwoFactorChallenge,
} from '@wren/contracts';
import { nowMs, type Clock } from '../../platform/clock';
import { type Db, transact } from '../../platform/db';
import { AppError, FieldError, unauthorized } from '../../platform/errors';
import { recordAudit } from '../audit/audit.service';
import { defaultAccountOf, memberRole } from '../members/membership';
import type { AuthDeps, ClientInfo } from './auth-deps';
import * as repo from './auth.repository';
import { forgetDevices } from './two-factor.repository';
import { createPasswordRecovery } from './password-recovery';
import { assertPasswordAllowed } from './password-policy';
import { hashPassword, verifyPassword } from './passwords';
import { createRegistration } from './registration';
import { hashToken, randomToken, successorToken, type AccessClaims } from './tokens';
import { createTwoFactor } from './two-factor';

export type { AuthDeps, ClientInfo } from './auth-deps';
export { REGISTRATION_CLASH_MESSAGE } from './registration';

const invalidCredentials = () =>
  new AppError(ErrorCode.INVALID_CREDENTIALS, 'Incorrect username or password');
const notAMember = () => new AppError(ErrorCode.NOT_A_MEMBER, 'You are not a member of this account.');
const sessionEnded = () =>
  new AppError(ErrorCode.TOKEN_INVALID, 'Your session has ended. Please sign in again.');

export function createAuthService(deps: AuthDeps) {
  const { db, config, tokens, clock } = deps;
  const refreshTtlMs = config.refreshTokenTtlDays * 86_400_000;
  /**
   * Failed sign-ins for names that match no account, counted and locked like real ones, so a lock
   * does not reveal that an account exists. Kept in memory (per node), bounded.
   */
  const phantomFailures = new Map<string, { count: number; lockedUntil: number }>();
  /** Forgot-password work running after its uniform reply (tests wait for it with whenIdle). */
  const background = new Set<Promise<void>>();
  const { sessions } = deps;
  const sessionActive = (claims: AccessClaims) => sessions.isActive(claims);

  /** Issues an access token and a fresh refresh token in the given session (token family). */
  async function issuePair(trx: Db, claims: AccessClaims, refreshToken = randomToken()): Promise<TokenPair> {
    await repo.insertRefreshToken(trx, {
      sessionId: claims.sessionId,
      tokenHash: hashToken(refreshToken),
      expiresAt: new Date(nowMs(clock) + refreshTtlMs),
    });
    return { accessToken: await tokens.sign(claims), refreshToken };
  }

  async function startSession(
    trx: Db,
    user: { id: string; account_id: string; role: 'user' | 'admin' },
    client: ClientInfo,
    /** The account the session acts on (a switch, an accepted invite); the user's home account by default. */
    requested?: string,
  ): Promise<LoginResponse> {
    const accountId = requested ?? (await defaultAccountOf(trx, user.id, user.account_id));
    const accountRole = await memberRole(trx, accountId, user.id);
    if (!accountRole) throw notAMember();
    const session = await repo.createSession(trx, { userId: user.id, accountId, ...client });
    const pair = await issuePair(trx, {
      userId: user.id,
      accountId,
      sessionId: session.id,
      role: user.role,
      accountRole,
    });
    return { user: await deps.users.getProfile(user.id, trx), ...pair };
  }

  /** Work done after a uniform reply (lookups, emails); failures are logged, whenIdle waits for it. */
  function runInBackground(work: () => Promise<void>): void {
    const run = work().catch((err: unknown) => {
      deps.logger.warn({ err }, 'background auth work failed');
    });
    background.add(run);
    void run.finally(() => background.delete(run));
  }

  const registration = createRegistration(deps, { startSession, runInBackground });
  const recovery = createPasswordRecovery(deps, { runInBackground });
  const twoFactor = createTwoFactor(deps, { startSession });

  return {
    ...registration,
    ...recovery,
    ...twoFactor,

    /** Opens a session in an account the user is a member of (members: a switch, an accepted invite). */
    startSession,

    async login(
      input: { username: string; password: string },
      client: ClientInfo,
      /** The remembered-device cookie: it skips the two-factor step (two-factor.ts). */
      deviceToken?: string,
    ): Promise<LoginResponse | TwoFactorChallenge> {
      const cred = await repo.findCredentialsByLogin(db, input.username);
      if (cred?.locked_until && cred.locked_until > clock.now()) throw lockedError(cred.locked_until, clock);
      const phantomKey = input.username.toLowerCase();
      const phantom = cred ? undefined : phantomFailures.get(phantomKey);
      if (phantom && phantom.lockedUntil > nowMs(clock))
        throw lockedError(new Date(phantom.lockedUntil), clock);
      const ok = await verifyPassword(cred?.password_hash, input.password);
      if (!cred) {
        const entry = phantom ?? { count: 0, lockedUntil: 0 };
        entry.count += 1;
        if (phantomFailures.size >= 10_000 && !phantom) phantomFailures.clear();
        phantomFailures.set(phantomKey, entry);
        if (entry.count >= config.loginLockThreshold) {
          entry.count = 0;
          entry.lockedUntil = nowMs(clock) + config.loginLockMinutes * 60_000;
          throw lockedError(new Date(entry.lockedUntil), clock);
        }
        throw invalidCredentials();
      }
      if (!ok) {
        const now = clock.now();
        const after = await repo.recordFailedLogin(
          db,
          cred.id,
          config.loginLockThreshold,
          new Date(now.getTime() + config.loginLockMinutes * 60_000),
        );
        if (after.locked_until && after.locked_until > now) {
          // A locked account is signed out everywhere: its sessions and refresh tokens end now.
          await sessions.invalidate({ userId: cred.id }, 'account_locked');
          await recordAudit(db, {
            accountId: cred.account_id,
            userId: cred.id,
            kind: 'auth.locked',
            message: 'Sign-in locked after repeated failed attempts',
            ip: client.ip,
          });
          throw lockedError(after.locked_until, clock);
        }
        throw invalidCredentials();
      }
      return transact(db, async (trx) => {
        // A second step (two-factor) keeps the failure count: its wrong codes add to it.
        const secondStep = await twoFactor.signInStep(trx, cred, deviceToken);
        if (secondStep) return secondStep;
        if (cred.failed_logins > 0 || cred.locked_until) await repo.clearFailedLogins(trx, cred.id);
        return startSession(trx, cred, client);
      });
    },

    /**
     * Rotates the refresh token (RFC 9700). A token used twice revokes its whole family, except
     * within a short grace window so concurrent refreshes from one client both succeed.
     */
    async refresh(input: { accessToken: string; refreshToken: string }): Promise<TokenPair> {
      const claims = await tokens.verify(input.accessToken, { allowExpired: true });
      if (!claims) throw sessionEnded();
      return transact(db, async (trx) => {
        const row = await repo.findRefreshToken(trx, hashToken(input.refreshToken));
        if (!row || row.session_id !== claims.sessionId || row.user_id !== claims.userId)
          throw sessionEnded();
        const now = clock.now();
        if (row.revoked_at || row.expires_at <= now) throw sessionEnded();
        const fresh = await repo.markRefreshTokenUsed(trx, row.id, now);
        // Idempotent rotation: the successor is derived from the token, so a replay within the
        // grace window gets the same successor back, never a second live token in the family.
        const successor = successorToken(config.jwtSecret, input.refreshToken);
        if (!fresh) {
          // Read again: a concurrent refresh may have committed its use after our first read.
          const usedAt =
            row.used_at ?? (await repo.findRefreshToken(trx, hashToken(input.refreshToken)))?.used_at;
          const usedAgo = now.getTime() - (usedAt?.getTime() ?? 0);
          if (usedAgo > config.refreshGraceSeconds * 1000) {
            await sessions.invalidate({ sessionId: row.session_id }, 'refresh_token_reuse', trx);
            deps.logger.warn({ sessionId: row.session_id }, 'refresh token reuse: session revoked');
            // Commit the revocation, then refuse.
            return null;
          }
          const next = await repo.findRefreshToken(trx, hashToken(successor));
          if (!next || next.session_id !== row.session_id || next.revoked_at) throw sessionEnded();
        }
        const cred = await repo.findCredentialsById(trx, claims.userId);
        if (!cred) throw sessionEnded();
        // The session's account and the member's role there now (a role change ends the session).
        const accountId = row.account_id ?? cred.account_id;
        const accountRole = await memberRole(trx, accountId, cred.id);
        if (!accountRole) throw sessionEnded();
        const pairClaims: AccessClaims = {
          userId: cred.id,
          accountId,
          sessionId: row.session_id,
          role: cred.role,
          accountRole,
        };
        if (!fresh) return { accessToken: await tokens.sign(pairClaims), refreshToken: successor };
        await repo.touchSession(trx, row.session_id);
        return issuePair(trx, pairClaims, successor);
      }).then((pair) => {
        if (!pair) {
          throw new AppError(
            ErrorCode.TOKEN_REUSED,
            'This session was ended for your security. Please sign in again.',
          );
        }
        return pair;
      });
    },

    async logout(auth: AccessClaims) {
      await sessions.invalidate({ sessionId: auth.sessionId }, 'logout');
    },

    /**
     * Verifies an access token and that its session is still active. Active sessions are remembered
     * for a few seconds, so hot API paths do not query per request; an invalidation clears the
     * memory at once on its node and on the others when its NOTIFY arrives (sessions.ts).
     */
    async authenticate(accessToken: string): Promise<AccessClaims> {
      const claims = await tokens.verify(accessToken);
      if (!claims) throw unauthorized();
      if (!(await sessionActive(claims))) throw unauthorized();
      return claims;
    },

    /**
     * Whether the session behind already-verified claims is still active (not signed out, not
     * revoked by a password change or reset). The hub asks on every call of a long-lived socket.
     */
    sessionActive,

    /** Resolves once background work (reset emails) has finished: for tests and shutdown. */
    async whenIdle(): Promise<void> {
      while (background.size) await Promise.all([...background]);
    },

    async changePassword(auth: AccessClaims, input: ChangePasswordInput, client: ClientInfo) {
      const cred = await repo.findCredentialsById(db, auth.userId);
      if (!cred || !(await verifyPassword(cred.password_hash, input.currentPassword))) {
        throw new AppError(ErrorCode.WRONG_PASSWORD, 'Current password is incorrect');
      }
      if (input.currentPassword === input.newPassword) {
        throw new FieldError({ newPassword: ['Choose a password different from the current one'] });
      }
      assertPasswordAllowed('newPassword', input.newPassword, cred);
      const passwordHash = await hashPassword(input.newPassword);
      await transact(db, async (trx) => {
        await repo.setPasswordHash(trx, auth.userId, passwordHash);
        await sessions.invalidate(
          { userId: auth.userId, exceptSessionId: auth.sessionId },
          'password_changed',
          trx,
        );
        // A remembered device skipped the second step for the old password: not for the new one.
        await forgetDevices(trx, auth.userId);
        await recordAudit(trx, {
          accountId: auth.accountId,
          userId: auth.userId,
          kind: 'auth.password_changed',
          message: 'Password changed; other sessions were signed out',
          ip: client.ip,
        });
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

function lockedError(until: Date, clock: Clock) {
  const minutes = Math.max(1, Math.ceil((until.getTime() - nowMs(clock)) / 60_000));
  return new AppError(
    ErrorCode.ACCOUNT_LOCKED,
    `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  );
}
