import {
  ErrorCode,
  NUMBER_GRACE_DAYS,
  NUMBER_RENTAL_KIND,
  type NumberCreate,
  type NumberDto,
  type NumberList,
  type NumberListQuery,
  type NumberUpdate,
  type OwnNumberDto,
} from '@wren/contracts';
import { afterCommit, type Db, transact } from '../../platform/db';
import { AppError, FieldError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import type { Operator } from '../admin/operator';
import { recordAudit } from '../audit/audit.service';
import type { LedgerService } from '../ledger/ledger.service';
import * as repo from './numbers.repository';

const PAGE = 50;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toDto(r: repo.NumberRow): NumberDto {
  return {
    id: r.id,
    number: r.number,
    kind: r.kind,
    country: r.country,
    connection: r.connection,
    monthlyPriceMinor: Number(r.monthly_price_minor),
    accountId: r.account_id,
    accountName: r.account_name,
    assignedAt: iso(r.assigned_at),
    paidUntil: iso(r.paid_until),
    pastDueSince: iso(r.past_due_since),
    createdAt: r.created_at.toISOString(),
  };
}

const own = (d: NumberDto): OwnNumberDto => ({
  id: d.id,
  number: d.number,
  kind: d.kind,
  country: d.country,
  monthlyPriceMinor: d.monthlyPriceMinor,
  assignedAt: d.assignedAt,
  paidUntil: d.paidUntil,
  pastDueSince: d.pastDueSince,
});

/** One month's rental of a number, charged once per period (the period's start is the reference). */
const rentalReference = (id: string, periodStart: Date) => `number:${id}:${periodStart.toISOString()}`;

/**
 * Numbers (issue 40 item 0). Operators keep the inventory and assign numbers to accounts; the
 * first month is charged at assignment and each next month in advance by `renewDue` (a periodic
 * job), once per period whatever retries happen (the ledger's reference). A renewal the balance
 * does not cover marks the number past due and is tried again; NUMBER_GRACE_DAYS later the number
 * is released. An assigned number is an approved sender ID of its account; an inbound message to it
 * goes to that account (inbound.repository's findSendingAccount).
 */
export function createNumbersService(deps: {
  db: Db;
  ledger: LedgerService;
  events: EventBus;
  logger: Logger;
  /** The platform's currency (CURRENCY): monthly prices are in its minor units. */
  currency: string;
}) {
  const { db, ledger, events } = deps;
  const senderChanged = (trx: Db, accountId: string) =>
    afterCommit(trx, () => events.publish('sender.changed', { accountId }));

  async function audit(
    trx: Db,
    actor: Operator | null,
    kind: string,
    n: { id: string; number: string },
    message: string,
    accountId: string | null = null,
  ) {
    await recordAudit(trx, {
      accountId,
      userId: null,
      actorUserId: actor?.userId ?? null,
      ip: actor?.ip ?? null,
      kind,
      message,
      resourceType: 'phone_number',
      resourceId: n.id,
    });
  }

  async function checkConnection(trx: Db, connection: string | null | undefined) {
    if (!connection) return;
    if (!(await repo.connectionExists(trx, connection))) {
      throw new FieldError({ connection: [`There is no connection named ${connection}`] });
    }
  }

  /** Takes the number off its account: no sender ID from it, no rental. Caller's transaction. */
  async function unassign(trx: Db, row: repo.NumberRow, actor: Operator | null, why: string) {
    if (!row.account_id) return;
    await repo.clearAssignment(trx, row.id);
    await repo.removeNumberSender(trx, row.id);
    senderChanged(trx, row.account_id);
    await audit(
      trx,
      actor,
      'admin.number_released',
      row,
      `Number ${row.number} released: ${why}`,
      row.account_id,
    );
  }

  return {
    async list(q: NumberListQuery): Promise<NumberList> {
      const rows = await repo.listNumbers(db, { ...q, limit: PAGE + 1 });
      const page = rows.slice(0, PAGE);
      return {
        items: page.map(toDto),
        nextCursor: rows.length > PAGE ? (page[page.length - 1]?.number ?? null) : null,
        currency: deps.currency,
      };
    },

    async listOwn(accountId: string): Promise<{ items: OwnNumberDto[]; currency: string }> {
      const rows = await repo.listNumbers(db, { status: 'assigned', accountId, limit: 1000 });
      return { items: rows.map((r) => own(toDto(r))), currency: deps.currency };
    },

    async create(op: Operator, input: NumberCreate): Promise<NumberDto> {
      return transact(db, async (trx) => {
        await checkConnection(trx, input.connection);
        const id = await repo.insertNumber(trx, input);
        if (!id) throw new FieldError({ number: [`${input.number} is already in the inventory`] });
        await audit(
          trx,
          op,
          'admin.number_created',
          { id, number: input.number },
          `Number ${input.number} added (${input.kind}, ${input.country})`,
        );
        return toDto(await repo.getNumber(trx, id));
      });
    },

    async update(op: Operator, id: string, input: NumberUpdate): Promise<NumberDto> {
      return transact(db, async (trx) => {
        const row = await repo.lockNumber(trx, id);
        if (!row) throw notFound('Number');
        await checkConnection(trx, input.connection);
        await repo.updateNumber(trx, id, input);
        const changes = [
          input.monthlyPriceMinor !== undefined && input.monthlyPriceMinor !== Number(row.monthly_price_minor)
            ? `price ${row.monthly_price_minor} → ${input.monthlyPriceMinor}`
            : null,
          input.connection !== undefined && input.connection !== row.connection
            ? `connection ${row.connection ?? 'any'} → ${input.connection ?? 'any'}`
            : null,
        ].filter(Boolean);
        await audit(
          trx,
          op,
          'admin.number_changed',
          row,
          `Number ${row.number} changed: ${changes.join(', ') || 'nothing'}`,
        );
        return toDto(await repo.getNumber(trx, id));
      });
    },

    async remove(op: Operator, id: string): Promise<void> {
      await transact(db, async (trx) => {
        const row = await repo.lockNumber(trx, id);
        if (!row) throw notFound('Number');
        if (row.account_id) {
          throw new AppError(
            ErrorCode.CONFLICT,
            `${row.number} is assigned to ${row.account_name ?? 'an account'}: release it first`,
          );
        }
        await repo.deleteNumber(trx, id);
        await audit(trx, op, 'admin.number_removed', row, `Number ${row.number} removed from the inventory`);
      });
    },

    /** Assigns a free number and charges its first month (refused, nothing written, if the balance is short). */
    async assign(op: Operator, id: string, accountId: string): Promise<NumberDto> {
      return transact(db, async (trx) => {
        const row = await repo.lockNumber(trx, id);
        if (!row) throw notFound('Number');
        if (row.account_id === accountId) return toDto(row);
        if (row.account_id) {
          throw new AppError(
            ErrorCode.CONFLICT,
            `${row.number} is assigned to ${row.account_name ?? 'another account'}: release it first`,
          );
        }
        if (!(await repo.accountExists(trx, accountId)))
          throw new FieldError({ accountId: ['There is no such account'] });
        const start = await repo.now(trx);
        const price = Number(row.monthly_price_minor);
        if (price > 0) {
          await ledger.post(trx, {
            accountId,
            amountMinor: -price,
            kind: NUMBER_RENTAL_KIND,
            reference: rentalReference(id, start),
            note: `Number ${row.number}, first month`,
            requireFunds: true,
          });
        }
        await repo.setAssignment(trx, id, accountId, start);
        // Numeric sender IDs are digits only (contracts/sender-ids.ts), as SMPP source addresses are.
        await repo.addNumberSender(trx, { accountId, numberId: id, value: row.number.replace(/^\+/, '') });
        senderChanged(trx, accountId);
        await audit(trx, op, 'admin.number_assigned', row, `Number ${row.number} assigned`, accountId);
        return toDto(await repo.getNumber(trx, id));
      });
    },

    async release(op: Operator, id: string): Promise<NumberDto> {
      return transact(db, async (trx) => {
        const row = await repo.lockNumber(trx, id);
        if (!row) throw notFound('Number');
        await unassign(trx, row, op, 'by an operator');
        return toDto(await repo.getNumber(trx, id));
      });
    },

    /**
     * Charges every assigned number whose paid month has ended for its next month, each in its own
     * transaction: paid (paid_until a month on), or past due (retried at the next run), or, past
     * due for NUMBER_GRACE_DAYS, released. Returns what it did.
     */
    async renewDue(limit = 500): Promise<{ renewed: number; pastDue: number; released: number }> {
      const out = { renewed: 0, pastDue: 0, released: 0 };
      for (const id of await repo.dueNumbers(db, limit)) {
        try {
          await transact(db, async (trx) => {
            const row = await repo.lockNumber(trx, id);
            const now = await repo.now(trx);
            if (!row?.account_id || !row.paid_until || row.paid_until > now) return;
            const price = Number(row.monthly_price_minor);
            try {
              if (price > 0) {
                await ledger.post(trx, {
                  accountId: row.account_id,
                  amountMinor: -price,
                  kind: NUMBER_RENTAL_KIND,
                  reference: rentalReference(id, row.paid_until),
                  note: `Number ${row.number}, month from ${row.paid_until.toISOString().slice(0, 10)}`,
                  requireFunds: true,
                });
              }
              await repo.extendPaid(trx, id);
              out.renewed += 1;
            } catch (err) {
              if (!(err instanceof AppError) || err.code !== ErrorCode.INSUFFICIENT_BALANCE) throw err;
              const since = row.past_due_since ?? now;
              if (now.getTime() - since.getTime() >= NUMBER_GRACE_DAYS * 86_400_000) {
                await unassign(trx, row, null, `its rental was not paid for ${NUMBER_GRACE_DAYS} days`);
                out.released += 1;
              } else {
                if (!row.past_due_since) {
                  await repo.markPastDue(trx, id);
                  await audit(
                    trx,
                    null,
                    'number.past_due',
                    row,
                    `Number ${row.number}: the balance does not cover its next month`,
                    row.account_id,
                  );
                }
                out.pastDue += 1;
              }
            }
          });
        } catch (err) {
          deps.logger.warn({ err, numberId: id }, 'number renewal failed; tried again at the next run');
        }
      }
      return out;
    },
  };
}

export type NumbersService = ReturnType<typeof createNumbersService>;
