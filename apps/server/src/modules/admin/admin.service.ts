import { plural } from '../../shared/plural';
import { checkCountryCodes } from '../../shared/phone';
import {
  ErrorCode,
  type AccountLimits,
  type AdminAccountDetail,
  type AdminAccountPage,
  type AdminAccountSummary,
  type UserRole,
} from '@wren/contracts';
import { z } from 'zod';
import { type Db, transact, transactRetryingDeadlocks } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { cursorId, cursorTime, decodeCursor, encodeCursor } from '../../shared/cursor';
import * as audit from '../audit/audit.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { Sessions } from '../auth/sessions';
import { createAdminAudit } from './admin-audit';
import { createAdminLedger } from './admin-ledger';
import type { Operator } from './operator';
import * as repo from './admin.repository';
import { pricingChanged } from './pricing-sync';

interface Deps {
  db: Db;
  events: EventBus;
  ledger: LedgerService;
  /** ADMIN_ALLOW_OVERDRAFT */
  allowOverdraft: boolean;
  /** Drops this node's price cache (pricing.invalidate); other nodes hear of it by NOTIFY. */
  invalidatePricing?: () => void;
  /** Ends sessions on every node (a lock ends the account's, a role change the user's). */
  sessions: Pick<Sessions, 'invalidate'>;
  /**
   * After a lock or unlock commits: this node forgets what it remembers of the account's API keys,
   * so the change holds at once here (other nodes within their few seconds of memory).
   */
  onLockChanged?: (accountId: string) => void;
  /**
   * In the lock's transaction: cancels and refunds what the account has waiting to be sent (its
   * unfinished campaigns, its queued and scheduled messages) and says how much.
   */
  stopSending?: (trx: Db, accountId: string) => Promise<{ campaigns: number; messages: number }>;
}

const accountCursor = z.object({ t: cursorTime, id: cursorId });

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

function toSummary(r: NonNullable<Awaited<ReturnType<typeof repo.findAccount>>>): AdminAccountSummary {
  return {
    id: r.id,
    name: r.name,
    username: r.username,
    email: r.email,
    phone: r.phone,
    balanceMinor: Number(r.balance_minor),
    currency: r.currency,
    ratePlanId: r.rate_plan_id,
    ratePlanName: r.rate_plan_name,
    status: r.locked_at ? 'locked' : 'active',
    createdAt: r.created_at.toISOString(),
    lastActivityAt: iso(r.last_activity_at),
    parent: r.parent_account_id ? { id: r.parent_account_id, name: r.parent_name ?? '' } : null,
    subAccountCount: r.sub_account_count,
  };
}

/**
 * Accounts, money (admin-ledger.ts), users and the audit log (admin-audit.ts) for operators. Money
 * moves only through the ledger service (one append-only entry per adjustment); every change is
 * audited with the operator and their IP.
 */
export function createAdminService(deps: Deps) {
  const { db } = deps;

  async function account(id: string) {
    const row = await repo.findAccount(db, id);
    if (!row) throw notFound('Account');
    return row;
  }

  return {
    ...createAdminLedger(deps, account),
    ...createAdminAudit(db),

    async searchAccounts(q: {
      q?: string;
      status?: 'active' | 'locked';
      cursor?: string;
      limit: number;
    }): Promise<AdminAccountPage> {
      const after = q.cursor ? decodeCursor(q.cursor, accountCursor) : undefined;
      const rows = await repo.searchAccounts(db, { ...q, after, limit: q.limit + 1 });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        items: page.map(toSummary),
        nextCursor:
          rows.length > q.limit && last
            ? encodeCursor({ t: last.created_at.toISOString(), id: last.id })
            : null,
      };
    },

    async accountDetail(id: string): Promise<AdminAccountDetail> {
      const row = await account(id);
      const users = await repo.accountUsers(db, id);
      const children = await repo.subAccountsOf(db, id);
      const acceptedToday = row.daily_cap === null ? null : await repo.acceptedToday(db, id);
      return {
        ...toSummary(row),
        lockedAt: iso(row.locked_at),
        lockedReason: row.locked_reason,
        limits: {
          maxPerSecond: row.max_per_second,
          dailyCap: row.daily_cap,
          allowedCountries: row.allowed_countries,
        },
        acceptedToday,
        subAccounts: children.map((c) => ({
          id: c.id,
          name: c.name,
          balanceMinor: Number(c.balance_minor),
          currency: c.currency,
          lockedByParent: c.parent_locked_at !== null,
        })),
        users: users.map((u) => ({
          id: u.id,
          username: u.username,
          name: u.name,
          email: u.email,
          phone: u.phone,
          role: u.role,
          createdAt: u.created_at.toISOString(),
          lastActivityAt: iso(u.last_activity_at),
          activeSessions: Number(u.active_sessions),
        })),
      };
    },

    /**
     * Locks an account: its users cannot sign in, every session of theirs is revoked at once, and its
     * sending stops (stopSending; messages already with the SMSC go on).
     */
    async lock(input: { op: Operator; accountId: string; reason: string }) {
      if (input.accountId === input.op.accountId) {
        throw new AppError(ErrorCode.CONFLICT, 'You cannot lock your own account');
      }
      await transactRetryingDeadlocks(db, async (trx) => {
        // Sending stops first: it locks the account's campaigns before the account's row, in the order
        // a user's cancel and the campaign materialiser take them. Refused below (already locked, no
        // such account), all of it rolls back.
        const stopped = (await deps.stopSending?.(trx, input.accountId)) ?? { campaigns: 0, messages: 0 };
        const acc = await repo.lockAccountRow(trx, input.accountId);
        if (!acc) throw notFound('Account');
        if (acc.locked_at) throw new AppError(ErrorCode.CONFLICT, `"${acc.name}" is already locked`);
        await repo.setLock(trx, acc.id, { at: new Date(), reason: input.reason });
        const revoked = await deps.sessions.invalidate(
          { accountId: acc.id },
          'account_locked_by_operator',
          trx,
        );
        const ended = [
          `${plural(revoked, 'session')} ended`,
          ...(stopped.campaigns ? [`${plural(stopped.campaigns, 'campaign')} canceled`] : []),
          ...(stopped.messages
            ? [`${plural(stopped.messages, 'waiting message')} canceled and refunded`]
            : []),
        ];
        await audit.recordAudit(trx, {
          accountId: acc.id,
          userId: null,
          actorUserId: input.op.userId,
          ip: input.op.ip,
          kind: 'admin.account_locked',
          message: `Locked "${acc.name}" (${ended.join(', ')}): ${input.reason}`,
          resourceType: 'account',
          resourceId: acc.id,
        });
      });
      deps.onLockChanged?.(input.accountId);
      deps.events.publish('account.event', {
        accountId: input.accountId,
        kind: 'account.locked',
        message: 'Your account was locked by an operator',
      });
      return this.accountDetail(input.accountId);
    },

    async unlock(input: { op: Operator; accountId: string; reason?: string }) {
      await transact(db, async (trx) => {
        const acc = await repo.lockAccountRow(trx, input.accountId);
        if (!acc) throw notFound('Account');
        if (!acc.locked_at) throw new AppError(ErrorCode.CONFLICT, `"${acc.name}" is not locked`);
        await repo.setLock(trx, acc.id, null);
        await audit.recordAudit(trx, {
          accountId: acc.id,
          userId: null,
          actorUserId: input.op.userId,
          ip: input.op.ip,
          kind: 'admin.account_unlocked',
          message: `Unlocked "${acc.name}"${input.reason ? `: ${input.reason}` : ''}`,
          resourceType: 'account',
          resourceId: acc.id,
        });
      });
      deps.onLockChanged?.(input.accountId);
      return this.accountDetail(input.accountId);
    },

    async assignRatePlan(input: { op: Operator; accountId: string; ratePlanId: string | null }) {
      await transact(db, async (trx) => {
        const acc = await repo.lockAccountRow(trx, input.accountId);
        if (!acc) throw notFound('Account');
        let planName = 'the default plan';
        if (input.ratePlanId) {
          const plan = await trx
            .selectFrom('rate_plans')
            .select(['id', 'name'])
            .where('id', '=', input.ratePlanId)
            .executeTakeFirst();
          if (!plan) throw notFound('Rate plan');
          planName = `"${plan.name}"`;
        }
        await trx
          .updateTable('accounts')
          .set({ rate_plan_id: input.ratePlanId })
          .where('id', '=', acc.id)
          .execute();
        await pricingChanged(trx, deps.invalidatePricing ?? (() => undefined));
        await audit.recordAudit(trx, {
          accountId: acc.id,
          userId: null,
          actorUserId: input.op.userId,
          ip: input.op.ip,
          kind: 'admin.rate_plan_assigned',
          message: `Assigned ${planName} to "${acc.name}"`,
          resourceType: 'account',
          resourceId: acc.id,
        });
      });
      return this.accountDetail(input.accountId);
    },

    async setLimits(input: { op: Operator; accountId: string; limits: AccountLimits }) {
      const { maxPerSecond, dailyCap, allowedCountries } = input.limits;
      checkCountryCodes('allowedCountries', allowedCountries);
      const countries = allowedCountries ? [...new Set(allowedCountries)].sort() : null;
      await transact(db, async (trx) => {
        const acc = await repo.lockAccountRow(trx, input.accountId);
        if (!acc) throw notFound('Account');
        await trx
          .updateTable('accounts')
          .set({ max_per_second: maxPerSecond, daily_cap: dailyCap, allowed_countries: countries })
          .where('id', '=', acc.id)
          .execute();
        await audit.recordAudit(trx, {
          accountId: acc.id,
          userId: null,
          actorUserId: input.op.userId,
          ip: input.op.ip,
          kind: 'admin.limits_changed',
          message:
            `Limits of "${acc.name}": ${maxPerSecond ?? 'no'} per second, ` +
            `daily cap ${dailyCap ?? 'none'}, countries ${countries ? countries.join(' ') || 'none' : 'all'}`,
          resourceType: 'account',
          resourceId: acc.id,
        });
      });
      return this.accountDetail(input.accountId);
    },

    /**
     * Changes a user's role. The role is in the access token, so the user's sessions end at once
     * on every node (and their hub sockets close): the new role applies from their next sign-in.
     */
    async setRole(input: { op: Operator; userId: string; role: UserRole }) {
      if (input.userId === input.op.userId && input.role !== 'admin') {
        throw new AppError(ErrorCode.CONFLICT, 'You cannot remove your own admin role');
      }
      const accountId = await transact(db, async (trx) => {
        const user = await trx
          .selectFrom('users')
          .select(['id', 'username', 'role', 'account_id'])
          .where('id', '=', input.userId)
          .forUpdate()
          .executeTakeFirst();
        if (!user) throw notFound('User');
        if (user.role === input.role) {
          throw new AppError(
            ErrorCode.CONFLICT,
            `${user.username} is already ${input.role === 'admin' ? 'an admin' : 'a user'}`,
          );
        }
        await trx
          .updateTable('users')
          .set({ role: input.role, updated_at: new Date() })
          .where('id', '=', user.id)
          .execute();
        await deps.sessions.invalidate({ userId: user.id }, 'role_changed', trx);
        await audit.recordAudit(trx, {
          accountId: user.account_id,
          userId: user.id,
          actorUserId: input.op.userId,
          ip: input.op.ip,
          kind: 'admin.role_changed',
          message: `${user.username}: role ${user.role} → ${input.role}`,
          resourceType: 'user',
          resourceId: user.id,
        });
        return user.account_id;
      });
      return this.accountDetail(accountId);
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
