import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  type AccountStatusSummary,
  type CreateSubAccountInput,
  type CreateTransferInput,
  type SubAccountDetail,
  type SubAccountList,
  type SubAccountSummary,
  type TransferResult,
} from '@wren/contracts';
import type { Clock } from '../../platform/clock';
import { afterCommit, transact, type Db } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { AccessClaims } from '../../platform/http/principals';
import type { Logger } from '../../platform/logger';
import { decodeCursor, encodeCursor, timeIdCursor } from '../../shared/cursor';
import { recordAudit } from '../audit/audit.service';
import type { ClientInfo } from '../auth/auth-deps';
import { format, type LedgerService } from '../ledger/ledger.service';
import type { createMembersService } from '../members/members.service';
import * as repo from './sub-accounts.repository';

export interface SubAccountsDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  ledger: LedgerService;
  members: Pick<ReturnType<typeof createMembersService>, 'inviteFirstOwner'>;
}

const oneLevel = () =>
  new AppError(
    ErrorCode.CONFLICT,
    'This account is a sub-account: sub-accounts are one level deep, so it cannot have sub-accounts of its own.',
  );

export function toSummary(r: repo.ChildRow): SubAccountSummary {
  return {
    id: r.id,
    name: r.name,
    balanceMinor: Number(r.balance_minor),
    currency: r.currency,
    status: r.parent_locked_at ? 'locked' : 'active',
    lockedReason: r.parent_locked_reason,
    lockedAt: r.parent_locked_at?.toISOString() ?? null,
    markupBp: r.child_markup_bp,
    members: r.members,
    pendingOwnerEmail: r.pending_owner_email,
    createdAt: r.created_at.toISOString(),
  };
}

/**
 * Sub-accounts for resellers (issue 39 item 4). Every call acts for the account in the caller's
 * token (the parent) and reaches only that account's own children: another account's child, or
 * any account that is not a child of the caller, is 404.
 */
export function createSubAccountsService(deps: SubAccountsDeps) {
  const { db, clock, ledger } = deps;

  /** The caller's child, or 404 (never another account's, never the caller itself). */
  async function child(actor: AccessClaims, childId: string) {
    const row = await repo.findChild(db, actor.accountId, childId);
    if (!row) throw notFound('Sub-account');
    return row;
  }

  /** The parent as the caller's own account; a child asking for children is refused. */
  async function parentOf(actor: AccessClaims, exec: Db = db) {
    const parent = await repo.accountOf(exec, actor.accountId);
    if (!parent) throw notFound('Account');
    if (parent.parent_account_id) throw oneLevel();
    return parent;
  }

  return {
    child,

    async list(actor: AccessClaims, q: { cursor?: string; limit?: number }): Promise<SubAccountList> {
      const limit = q.limit ?? 50;
      const after = q.cursor ? decodeCursor(q.cursor, timeIdCursor) : null;
      const rows = await repo.listChildren(
        db,
        actor.accountId,
        after ? { createdAt: new Date(after[0]), id: after[1] } : null,
        limit + 1,
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toSummary),
        nextCursor:
          rows.length > limit && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null,
      };
    },

    async get(actor: AccessClaims, childId: string): Promise<SubAccountDetail> {
      const row = await child(actor, childId);
      const transfers = await repo.childTransfers(db, childId, 20);
      return {
        ...toSummary(row),
        transfers: transfers.map((t) => ({
          reference: t.reference ?? '',
          amountMinor: Number(t.amount_minor),
          note: t.note,
          createdAt: t.created_at.toISOString(),
        })),
      };
    },

    /**
     * A child account (the parent's currency, no balance) and an invite for its first owner, in one
     * transaction; the invite's email goes out after the commit.
     */
    async create(actor: AccessClaims, input: CreateSubAccountInput, client: ClientInfo) {
      const { id, send } = await transact(db, async (trx) => {
        const parent = await parentOf(actor, trx);
        const created = await repo.insertChild(trx, {
          name: input.name,
          currency: parent.currency,
          parentId: parent.id,
        });
        const mail = await deps.members.inviteFirstOwner(trx, created.id, input.name, input.ownerEmail);
        await recordAudit(trx, {
          accountId: parent.id,
          userId: actor.userId,
          kind: 'subaccount.created',
          message: `Created sub-account "${input.name}" (owner invited: ${input.ownerEmail})`,
          ip: client.ip,
          resourceType: 'account',
          resourceId: created.id,
        });
        return { id: created.id, send: mail };
      });
      await send().catch((err: unknown) =>
        deps.logger.warn({ err, accountId: id }, 'sub-account owner invite email failed'),
      );
      const row = await repo.findChild(db, actor.accountId, id);
      return toSummary(row!);
    },

    /**
     * Moves balance between the parent and one of its children (ledger.transfer: two entries, one
     * reference, rows locked by id, never overdrawn). The idempotency key makes a retry a no-op.
     */
    async transfer(
      actor: AccessClaims,
      childId: string,
      input: CreateTransferInput,
      client: ClientInfo,
    ): Promise<TransferResult> {
      const c = await child(actor, childId);
      const reference = input.idempotencyKey ?? randomUUID();
      const toChild = input.direction === 'to_child';
      return transact(db, async (trx) => {
        const moved = await ledger.transfer(trx, {
          fromAccountId: toChild ? actor.accountId : childId,
          toAccountId: toChild ? childId : actor.accountId,
          amountMinor: input.amountMinor,
          kind: repo.TRANSFER_KIND,
          reference,
          note: input.note ?? null,
          insufficient: (balance, amount) =>
            toChild
              ? `Your balance (${balance}) does not cover this transfer of ${amount}.`
              : `The sub-account's balance (${balance}) does not cover taking back ${amount}.`,
        });
        if (moved.posted) {
          await recordAudit(trx, {
            accountId: actor.accountId,
            userId: actor.userId,
            kind: 'subaccount.transfer',
            message: `${toChild ? 'Moved' : 'Took back'} ${format(input.amountMinor, moved.currency)} ${toChild ? 'to' : 'from'} sub-account "${c.name}"`,
            ip: client.ip,
            resourceType: 'account',
            resourceId: childId,
          });
        }
        return {
          reference,
          posted: moved.posted,
          parentBalanceMinor: toChild ? moved.fromBalanceMinor : moved.toBalanceMinor,
          childBalanceMinor: toChild ? moved.toBalanceMinor : moved.fromBalanceMinor,
          currency: moved.currency,
        };
      });
    },

    /** Locks (with a reason) or unlocks a child: its sends and API calls are refused while locked. */
    async setLock(actor: AccessClaims, childId: string, reason: string | null, client: ClientInfo) {
      await transact(db, async (trx) => {
        const row = await repo.lockChildRow(trx, actor.accountId, childId);
        if (!row) throw notFound('Sub-account');
        if (reason !== null && row.parent_locked_at)
          throw new AppError(ErrorCode.CONFLICT, `"${row.name}" is already locked`);
        if (reason === null && !row.parent_locked_at)
          throw new AppError(ErrorCode.CONFLICT, `"${row.name}" is not locked`);
        await repo.setParentLock(trx, childId, reason === null ? null : { at: clock.now(), reason });
        await recordAudit(trx, {
          accountId: actor.accountId,
          userId: actor.userId,
          kind: reason === null ? 'subaccount.unlocked' : 'subaccount.locked',
          message:
            reason === null
              ? `Unlocked sub-account "${row.name}"`
              : `Locked sub-account "${row.name}": ${reason}`,
          ip: client.ip,
          resourceType: 'account',
          resourceId: childId,
        });
        afterCommit(trx, () => deps.logger.info({ childId, locked: reason !== null }, 'sub-account lock'));
      });
      return toSummary(await child(actor, childId));
    },

    /** Any member's view of their own account: locked by its parent (and why), and whether it is a child. */
    async status(accountId: string): Promise<AccountStatusSummary> {
      const row = await repo.accountOf(db, accountId);
      if (!row) throw notFound('Account');
      return {
        locked: row.parent_locked_at !== null,
        reason: row.parent_locked_reason,
        isChild: row.parent_account_id !== null,
      };
    },
  };
}

export type SubAccountsService = ReturnType<typeof createSubAccountsService>;
