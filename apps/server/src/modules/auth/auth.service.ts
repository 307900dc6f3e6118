import {
  ErrorCode,
  type ChangePasswordInput,
  type LoginResponse,
  type RegisterInput,
  type TokenPair,
} from '@wren/contracts';
import { nowMs, type Clock } from '../../platform/clock';
import type { Config } from '../../platform/config';
import { type Db, transact } from '../../platform/db';
import { AppError, FieldError, unauthorized } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { Mailer } from '../../platform/mailer';
import { recordAudit } from '../audit/audit.repository';
import type { LedgerService } from '../ledger/ledger.service';
import { insertAccount, insertUser } from '../users/users.repository';
import type { UsersService } from '../users/users.service';
import * as repo from './auth.repository';
import { assertPasswordAllowed } from './password-policy';
import { openRegistration, sealRegistration, type PendingRegistration } from './registration-token';
import { hashPassword, verifyPassword } from './passwords';
import type { Sessions } from './sessions';
import { hashToken, randomToken, successorToken, type AccessClaims, type TokenSigner } from './tokens';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

interface Deps {
  db: Db;
  config: Config;
  logger: Logger;
  mailer: Mailer;
  tokens: TokenSigner;
  users: UsersService;
  ledger: LedgerService;
  clock: Clock;
  /** Ends sessions everywhere (sessions.ts): every sign-out below goes through it. */
  sessions: Sessions;
}

const RESET_TTL_MS = 30 * 60 * 1000;
const REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;
/** The one answer to a registration whose username or email (or both) is in use (no-email mode). */
export const REGISTRATION_CLASH_MESSAGE =
  'This username or email cannot be used. Choose another username, or sign in if you already have an account.';
const invalidCredentials = () =>
  new AppError(ErrorCode.INVALID_CREDENTIALS, 'Incorrect username or password');
const sessionEnded = () =>
  new AppError(ErrorCode.TOKEN_INVALID, 'Your session has ended. Please sign in again.');

export function createAuthService(deps: Deps) {
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
  ): Promise<LoginResponse> {
    const session = await repo.createSession(trx, { userId: user.id, ...client });
    const pair = await issuePair(trx, {
      userId: user.id,
      accountId: user.account_id,
      sessionId: session.id,
      role: user.role,
    });
    return { user: await deps.users.getProfile(user.id, trx), ...pair };
  }

  async function sendResetLink(input: { email: string }, client: ClientInfo): Promise<void> {
    const user = await repo.findUserIdByEmail(db, input.email);
    if (!user) {
      deps.logger.info({ ip: client.ip }, 'password reset requested for unknown email');
      return;
    }
    const token = randomToken();
    await repo.insertPasswordReset(db, {
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(nowMs(clock) + RESET_TTL_MS),
    });
    const link = `${config.publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
    await deps.mailer.send({
      to: user.email,
      subject: 'Reset your Wren password',
      text: `Hello ${user.name},\n\nUse this link within 30 minutes to choose a new password:\n\n${link}\n\nIf you did not ask for this, you can ignore this email.\n`,
    });
    await recordAudit(db, {
      accountId: user.account_id,
      userId: user.id,
      kind: 'auth.reset_requested',
      message: 'Password reset requested',
      ip: client.ip,
    });
  }

  /** Creates the account with its trial credit and signs in; `clash` makes the error for a taken name. */
  function createAccount(
    u: { username: string; name: string; email: string; phone: string; passwordHash: string },
    client: ClientInfo,
    clash: (taken: { username: boolean; email: boolean }) => Error,
  ): Promise<LoginResponse> {
    return transact(db, async (trx) => {
      const taken = await repo.usernameOrEmailTaken(trx, u.username, u.email);
      if (taken.username || taken.email) throw clash(taken);
      const account = await insertAccount(trx, { name: u.name, currency: config.currency });
      const user = await insertUser(trx, { ...u, accountId: account.id });
      if (config.trialBalanceMinor > 0) {
        await deps.ledger.post(trx, {
          accountId: account.id,
          amountMinor: config.trialBalanceMinor,
          kind: 'trial_credit',
          reference: 'trial',
          note: 'Trial balance',
        });
      }
      await recordAudit(trx, {
        accountId: account.id,
        userId: user.id,
        kind: 'account.created',
        message: 'Welcome to Wren! Your account was created with a trial balance.',
        ip: client.ip,
      });
      return startSession(trx, { id: user.id, account_id: account.id, role: 'user' }, client);
    });
  }

  /** Work done after a uniform reply (lookups, emails); failures are logged, whenIdle waits for it. */
  function runInBackground(work: () => Promise<void>): void {
    const run = work().catch((err: unknown) => {
      deps.logger.warn({ err }, 'background auth work failed');
    });
    background.add(run);
    void run.finally(() => background.delete(run));
  }

  return {
    /**
     * Registers and signs in at once (REGISTRATION_CONFIRM off: no email delivery to rely on).
     * Without email there is no private way to tell the owner of a taken username or address, so a
     * clash gets one answer whichever of them (or both) is taken, after the same work as a new
     * registration's checks (policy, hash, lookup): it never says that an email has an account.
     */
    async register(input: RegisterInput, client: ClientInfo): Promise<LoginResponse> {
      const phone = deps.users.normalisePhone(input.phone);
      assertPasswordAllowed('password', input.password, input);
      const passwordHash = await hashPassword(input.password);
      return createAccount({ ...input, phone, passwordHash }, client, () => {
        deps.logger.info({ ip: client.ip }, 'registration refused: username or email in use');
        return new FieldError({
          username: [REGISTRATION_CLASH_MESSAGE],
          email: [REGISTRATION_CLASH_MESSAGE],
        });
      });
    },

    /**
     * Registration that reveals nothing (REGISTRATION_CONFIRM): the reply is the same whether the
     * username or email exist, and the lookup and the email happen after it. The address owner
     * gets a link that creates the account, or, on a clash, an email saying so.
     */
    async registerStart(input: RegisterInput, client: ClientInfo): Promise<void> {
      const phone = deps.users.normalisePhone(input.phone);
      assertPasswordAllowed('password', input.password, input);
      const passwordHash = await hashPassword(input.password);
      const pending: PendingRegistration = {
        username: input.username,
        name: input.name,
        email: input.email,
        phone,
        passwordHash,
        exp: nowMs(clock) + REGISTRATION_TTL_MS,
      };
      runInBackground(async () => {
        const taken = await repo.usernameOrEmailTaken(db, input.username, input.email);
        const hello = `Hello ${input.name},\n\n`;
        if (taken.email) {
          const reset = `${config.publicUrl}/auth/forgot-password`;
          await deps.mailer.send({
            to: input.email,
            subject: 'You already have a Wren account',
            text: `${hello}Someone, perhaps you, tried to create a Wren account with this email address, which already has one. Sign in at ${config.publicUrl}/auth/login, or choose a new password at ${reset}.\n\nIf it was not you, you can ignore this email.\n`,
          });
          deps.logger.info({ ip: client.ip }, 'registration for an existing email: owner told by email');
        } else if (taken.username) {
          await deps.mailer.send({
            to: input.email,
            subject: 'Choose another Wren username',
            text: `${hello}The username "${input.username}" is already taken, so no account was created. Register again with another username at ${config.publicUrl}/auth/register.\n`,
          });
        } else {
          const token = sealRegistration(config.jwtSecret, pending);
          const link = `${config.publicUrl}/auth/confirm-registration?token=${encodeURIComponent(token)}`;
          await deps.mailer.send({
            to: input.email,
            subject: 'Finish creating your Wren account',
            text: `${hello}Use this link within 24 hours to create your account and sign in:\n\n${link}\n\nIf you did not ask for this, you can ignore this email.\n`,
          });
        }
      });
    },

    /** Follows a confirmation link: creates the account it carries and signs in. */
    async registerConfirm(input: { token: string }, client: ClientInfo): Promise<LoginResponse> {
      const invalid = () =>
        new AppError(ErrorCode.RESET_TOKEN_INVALID, 'This link is invalid or expired. Register again.');
      const pending = openRegistration(config.jwtSecret, input.token, nowMs(clock));
      if (!pending) throw invalid();
      return createAccount(
        pending,
        client,
        () =>
          new AppError(
            ErrorCode.CONFLICT,
            'This account exists already (was the link used before?). Sign in.',
          ),
      );
    },

    async login(input: { username: string; password: string }, client: ClientInfo): Promise<LoginResponse> {
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
        const pairClaims: AccessClaims = {
          userId: cred.id,
          accountId: cred.account_id,
          sessionId: row.session_id,
          role: cred.role,
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

    /**
     * Starts the reset and returns at once: the reply, and its timing, are the same whether or not
     * the email belongs to an account (the lookup, token and email happen after the reply).
     */
    forgotPassword(input: { email: string }, client: ClientInfo): Promise<void> {
      runInBackground(() => sendResetLink(input, client));
      return Promise.resolve();
    },

    /** Resolves once background work (reset emails) has finished: for tests and shutdown. */
    async whenIdle(): Promise<void> {
      while (background.size) await Promise.all([...background]);
    },

    async resetPassword(input: { token: string; password: string }, client: ClientInfo) {
      const passwordHash = await hashPassword(input.password);
      await transact(db, async (trx) => {
        const used = await repo.consumePasswordReset(trx, hashToken(input.token), clock.now());
        if (!used) {
          throw new AppError(
            ErrorCode.RESET_TOKEN_INVALID,
            'This reset link is invalid, used or expired. Request a new one.',
          );
        }
        const cred = await repo.findCredentialsById(trx, used.user_id);
        // Refused here, the transaction rolls back and the link stays usable for a better password.
        if (cred) assertPasswordAllowed('password', input.password, cred);
        await repo.setPasswordHash(trx, used.user_id, passwordHash);
        await sessions.invalidate({ userId: used.user_id }, 'password_reset', trx);
        await recordAudit(trx, {
          accountId: cred?.account_id ?? null,
          userId: used.user_id,
          kind: 'auth.password_reset',
          message: 'Password was reset; all sessions were signed out',
          ip: client.ip,
        });
      });
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
