import { ErrorCode, type LoginResponse, type RegisterInput } from '@wren/contracts';
import { nowMs } from '../../platform/clock';
import { transact } from '../../platform/db';
import { AppError, FieldError } from '../../platform/errors';
import { recordAudit } from '../audit/audit.service';
import { addMember } from '../members/membership';
import { insertAccount, insertUser } from '../users/users.service';
import type { AuthDeps, ClientInfo, RunInBackground, StartSession } from './auth-deps';
import * as repo from './auth.repository';
import { assertPasswordAllowed } from './password-policy';
import { hashPassword } from './passwords';
import { openRegistration, sealRegistration, type PendingRegistration } from './registration-token';

const REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;
/** The one answer to a registration whose username or email (or both) is in use (no-email mode). */
export const REGISTRATION_CLASH_MESSAGE =
  'This username or email cannot be used. Choose another username, or sign in if you already have an account.';

/**
 * Registration: at once without email (REGISTRATION_CONFIRM off), or by an emailed link that
 * reveals nothing about existing accounts (REGISTRATION_CONFIRM on). Part of the auth service.
 */
export function createRegistration(
  deps: AuthDeps,
  h: { startSession: StartSession; runInBackground: RunInBackground },
) {
  const { db, config, clock } = deps;
  const { startSession, runInBackground } = h;

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
      await addMember(trx, { accountId: account.id, userId: user.id, role: 'owner' });
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
  };
}
