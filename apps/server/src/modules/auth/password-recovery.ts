import { ErrorCode } from '@wren/contracts';
import { nowMs } from '../../platform/clock';
import { transact } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { recordAudit } from '../audit/audit.service';
import type { AuthDeps, ClientInfo, RunInBackground } from './auth-deps';
import * as repo from './auth.repository';
import { forgetDevices } from './two-factor.repository';
import { assertPasswordAllowed } from './password-policy';
import { hashPassword } from './passwords';
import { hashToken, randomToken } from './tokens';

const RESET_TTL_MS = 30 * 60 * 1000;

/** Forgot and reset password (the reset ends every session of the user). Part of the auth service. */
export function createPasswordRecovery(deps: AuthDeps, h: { runInBackground: RunInBackground }) {
  const { db, config, clock, sessions } = deps;

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

  return {
    /**
     * Starts the reset and returns at once: the reply, and its timing, are the same whether or not
     * the email belongs to an account (the lookup, token and email happen after the reply).
     */
    forgotPassword(input: { email: string }, client: ClientInfo): Promise<void> {
      h.runInBackground(() => sendResetLink(input, client));
      return Promise.resolve();
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
        // Whoever reset it may not be the one who remembered a device: two-factor asks again.
        await forgetDevices(trx, used.user_id);
        await recordAudit(trx, {
          accountId: cred?.account_id ?? null,
          userId: used.user_id,
          kind: 'auth.password_reset',
          message: 'Password was reset; all sessions were signed out',
          ip: client.ip,
        });
      });
    },
  };
}
