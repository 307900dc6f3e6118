import { ErrorCode } from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { ApiKeyError } from '../api-keys/api-key-error';
import * as repo from './sub-accounts.repository';

const LOCKED_MESSAGE =
  'This account is locked by the account that manages it, so it cannot send or use the API';

/**
 * A child locked by its parent: every API-key call (/v1 and user routes called with a key) is
 * refused (403 account_locked on /v1), and so is every session request that sends (a non-GET route
 * needing `messages:send`: 423 SUBACCOUNT_LOCKED). Its members still sign in and read everything.
 * The ledger refuses the debit as well (sends started before the lock: scheduled campaigns, SMPP).
 */
export function registerSubAccountLock(app: FastifyInstance, db: Db) {
  app.addHook('preHandler', async (req) => {
    const auth = req.auth;
    if (!auth) return;
    const viaKey = Boolean(req.apiKey);
    const sends = req.method !== 'GET' && req.routeOptions.config.permission === 'messages:send';
    if (!viaKey && !sends) return;
    const account = await repo.accountOf(db, auth.accountId);
    if (!account?.parent_locked_at) return;
    const reason = account.parent_locked_reason ? ` (${account.parent_locked_reason})` : '';
    if (viaKey) throw new ApiKeyError('account_locked', `${LOCKED_MESSAGE}${reason}.`);
    throw new AppError(ErrorCode.SUBACCOUNT_LOCKED, `${LOCKED_MESSAGE}${reason}.`);
  });
}
