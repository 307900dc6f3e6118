import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ErrorCode, type LedgerEntryDto, type LedgerPage } from '@wren/contracts';
import { z } from 'zod';
import { type Db, transact } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import { attachment } from '../../shared/csv';
import { decodeCursor, encodeCursor } from '../../shared/cursor';
import * as audit from '../audit/audit.service';
import { ledgerCsvLines } from '../ledger/ledger-csv';
import { format, lockAccount, type LedgerService } from '../ledger/ledger.service';
import * as repo from './admin.repository';
import type { Operator } from './operator';

const idCursor = z.object({ id: z.number().int().positive() });

function toEntry(e: Awaited<ReturnType<typeof repo.ledgerPage>>[number]): LedgerEntryDto {
  return {
    id: String(e.id),
    amountMinor: Number(e.amount_minor),
    currency: e.currency,
    kind: e.kind,
    reference: e.reference,
    note: e.note,
    createdAt: e.created_at.toISOString(),
  };
}

/** An adjustment's reason that asks for an overdraft. */
export const saysOverdraft = (reason: string) => /\boverdraft\b/i.test(reason);

/**
 * An operator's money tools: credits and debits (one append-only ledger entry each, audited), the
 * ledger page by page and as CSV. Part of the admin service.
 */
export function createAdminLedger(
  deps: { db: Db; ledger: LedgerService; allowOverdraft: boolean },
  account: (id: string) => Promise<NonNullable<Awaited<ReturnType<typeof repo.findAccount>>>>,
) {
  const { db, ledger } = deps;
  return {
    /**
     * Credits (amount > 0) or debits (amount < 0) an account with a ledger entry of kind
     * `adjustment` carrying the reason. A debit may not take the balance below zero, unless the
     * reason says "overdraft" and ADMIN_ALLOW_OVERDRAFT is on.
     */
    async adjust(input: {
      op: Operator;
      accountId: string;
      amountMinor: number;
      reason: string;
      requestId?: string;
    }) {
      const reference = `adj:${input.requestId ?? randomUUID()}`;
      const result = await transact(db, async (trx) => {
        const acc = await lockAccount(trx, input.accountId);
        if (!acc) throw notFound('Account');
        const after = Number(acc.balance_minor) + input.amountMinor;
        if (after < 0) {
          const overdraft = saysOverdraft(input.reason);
          if (!overdraft || !deps.allowOverdraft) {
            throw new AppError(
              ErrorCode.INSUFFICIENT_BALANCE,
              `This debit of ${format(-input.amountMinor, acc.currency)} would take the balance (${format(Number(acc.balance_minor), acc.currency)}) below zero. ` +
                (deps.allowOverdraft
                  ? 'Say "overdraft" in the reason to allow it.'
                  : 'Overdrafts are turned off (ADMIN_ALLOW_OVERDRAFT).'),
            );
          }
        }
        const posted = await ledger.post(trx, {
          accountId: input.accountId,
          amountMinor: input.amountMinor,
          kind: 'adjustment',
          reference,
          note: input.reason,
        });
        const entry = await repo.findEntryByReference(trx, input.accountId, 'adjustment', reference);
        // Already posted by the same request (its requestId): the first entry again, audited once.
        if (!posted.posted) return { entry: toEntry(entry), balanceMinor: posted.balanceMinor };
        await audit.recordAudit(trx, {
          accountId: input.accountId,
          userId: null,
          actorUserId: input.op.userId,
          ip: input.op.ip,
          kind: input.amountMinor > 0 ? 'admin.credit' : 'admin.debit',
          message: `${input.amountMinor > 0 ? 'Credited' : 'Debited'} ${format(Math.abs(input.amountMinor), acc.currency)}: ${input.reason}`,
          resourceType: 'ledger_entry',
          resourceId: String(entry.id),
        });
        return { entry: toEntry(entry), balanceMinor: posted.balanceMinor };
      });
      return result;
    },

    async ledgerPage(input: { accountId: string; cursor?: string; limit: number }): Promise<LedgerPage> {
      const acc = await account(input.accountId);
      const before = input.cursor ? decodeCursor(input.cursor, idCursor).id : undefined;
      const rows = await repo.ledgerPage(db, input.accountId, before, input.limit + 1);
      const page = rows.slice(0, input.limit);
      const last = page[page.length - 1];
      return {
        items: page.map(toEntry),
        nextCursor: rows.length > input.limit && last ? encodeCursor({ id: Number(last.id) }) : null,
        balanceMinor: Number(acc.balance_minor),
        currency: acc.currency,
      };
    },

    /** The whole ledger as CSV, oldest first, streamed page by page; the export is audited. */
    async ledgerCsv(input: { op: Operator; accountId: string }) {
      const acc = await account(input.accountId);
      await audit.recordAudit(db, {
        accountId: acc.id,
        userId: null,
        actorUserId: input.op.userId,
        ip: input.op.ip,
        kind: 'admin.export',
        message: `Exported the ledger of "${acc.name}"`,
        resourceType: 'ledger',
        resourceId: acc.id,
      });
      return {
        fileName: `ledger-${acc.name.replace(/[^\w.-]+/g, '_').slice(0, 40)}.csv`,
        disposition: attachment,
        stream: Readable.from(
          ledgerCsvLines(
            (after) =>
              db
                .selectFrom('ledger_entries')
                .select(['id', 'amount_minor', 'currency', 'kind', 'reference', 'note', 'created_at'])
                .where('account_id', '=', acc.id)
                .where('id', '>', after)
                .orderBy('id')
                .limit(2000)
                .execute(),
            { reference: true },
          ),
        ),
      };
    },
  };
}
