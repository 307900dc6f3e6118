import {
  ErrorCode,
  TOP_UP_MAX_MINOR,
  TOP_UP_MIN_MINOR,
  type AdminTopUpDto,
  type BillingSummaryDto,
  type TopUpDto,
  type TopUpStatus,
} from '@wren/contracts';
import type { Db } from '../../platform/db';
import { transact } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import * as audit from '../audit/audit.service';
import { format, type LedgerService } from '../ledger/ledger.service';
import type { PaymentEvent, PaymentProvider } from './payment-provider';
import * as repo from './top-ups.repository';

/** A top-up's ledger entry: kind `topup`, reference `topup:<id>` (unique per account and kind). */
export const TOP_UP_KIND = 'topup';
const referenceOf = (id: string) => `topup:${id}`;
/** Pending requests an account may have at once. */
export const MAX_PENDING_REQUESTS = 5;
const LIST_LIMIT = 100;

function toDto(r: repo.TopUpRow & { requested_by_name?: string | null }): TopUpDto {
  return {
    id: r.id,
    provider: r.provider,
    status: r.status,
    amountMinor: Number(r.amount_minor),
    currency: r.currency,
    note: r.note,
    decisionNote: r.decision_note,
    requestedBy: r.requested_by_name ?? null,
    createdAt: r.created_at.toISOString(),
    decidedAt: r.decided_at?.toISOString() ?? null,
  };
}

export interface Actor {
  accountId: string;
  userId: string;
  ip: string | null;
}

/** What a verified event did (kept in payment_events.outcome, answered to the provider). */
export type EventOutcome =
  | 'duplicate'
  | 'credited'
  | 'already_credited'
  | 'awaiting_payment'
  | 'expired'
  | 'unknown_session'
  | 'ignored';

/**
 * Top-ups (issue 47 item 1). With a provider (Stripe): a checkout session for a stored amount, and
 * a credit of exactly that amount from its verified completion event, once. Without one: a request
 * an operator approves (credited once) or rejects in /admin.
 */
export function createTopUpsService(deps: {
  db: Db;
  ledger: LedgerService;
  logger: Logger;
  publicUrl: string;
  /** Null: the embedded default (operator-approved requests). */
  provider: PaymentProvider | null;
}) {
  const { db, ledger, logger } = deps;
  const providerName = () => (deps.provider ? deps.provider.name : 'manual');

  async function accountOf(accountId: string) {
    const acc = await repo.accountOf(db, accountId);
    if (!acc) throw notFound('Account');
    return acc;
  }

  /** Credits the top-up's own stored amount, once (under its row lock, in the caller's transaction). */
  async function credit(trx: Db, t: repo.TopUpRow, note: string) {
    return ledger.post(trx, {
      accountId: t.account_id,
      amountMinor: Number(t.amount_minor),
      kind: TOP_UP_KIND,
      reference: referenceOf(t.id),
      note,
    });
  }

  return {
    get provider() {
      return deps.provider;
    },

    async summary(accountId: string): Promise<BillingSummaryDto> {
      const acc = await accountOf(accountId);
      return {
        balanceMinor: Number(acc.balance_minor),
        currency: acc.currency,
        provider: providerName(),
        minTopUpMinor: TOP_UP_MIN_MINOR,
        maxTopUpMinor: TOP_UP_MAX_MINOR,
      };
    },

    async list(accountId: string): Promise<TopUpDto[]> {
      const rows = await repo.listOfAccount(db, accountId, LIST_LIMIT);
      return rows.map(toDto);
    },

    /** Creates a checkout session for `amountMinor` of the account's currency; answers its URL. */
    async startCheckout(actor: Actor, amountMinor: number) {
      const provider = deps.provider;
      if (!provider)
        throw new AppError(
          ErrorCode.CONFLICT,
          'Card payments are not set up on this server: request a top-up and an operator approves it.',
        );
      const acc = await accountOf(actor.accountId);
      const user = await repo.userOf(db, actor.userId);
      const topUp = await repo.insertTopUp(db, {
        accountId: acc.id,
        provider: 'stripe',
        amountMinor,
        currency: acc.currency,
        requestedBy: actor.userId,
      });
      const back = `${deps.publicUrl.replace(/\/$/, '')}/billing/balance`;
      let session;
      try {
        session = await provider.createCheckout({
          topUpId: topUp.id,
          accountId: acc.id,
          amountMinor,
          currency: acc.currency,
          successUrl: `${back}?top-up=${topUp.id}&result=success`,
          cancelUrl: `${back}?top-up=${topUp.id}&result=canceled`,
          customerEmail: user?.email,
        });
      } catch (err) {
        logger.warn({ err, topUpId: topUp.id }, 'Stripe checkout session could not be created');
        await repo.setStatus(db, topUp.id, 'expired', { note: 'The payment provider did not answer' });
        throw new AppError(
          ErrorCode.UNAVAILABLE,
          'The payment provider did not answer. Nothing was charged; try again in a minute.',
        );
      }
      await repo.setProviderRef(db, topUp.id, session.sessionId);
      await audit.recordAudit(db, {
        accountId: acc.id,
        userId: actor.userId,
        ip: actor.ip,
        kind: 'billing.checkout',
        message: `Started a card top-up of ${format(amountMinor, acc.currency)}`,
        resourceType: 'top_up',
        resourceId: topUp.id,
      });
      return { id: topUp.id, url: session.url };
    },

    /**
     * A verified provider event. The event id is recorded first, in the same transaction as any
     * credit: a replay (same id) does nothing, and two events about one session credit it once (the
     * top-up's row lock, its status, and the ledger reference).
     */
    async handleEvent(ev: PaymentEvent): Promise<EventOutcome> {
      const provider = providerName();
      return transact(db, async (trx) => {
        const fresh = await repo.recordEvent(trx, { provider, id: ev.id, type: ev.type });
        if (!fresh) return 'duplicate';
        let outcome: EventOutcome = 'ignored';
        let topUpId: string | null = null;
        const isPaid =
          ev.type === 'checkout.session.completed' || ev.type === 'checkout.session.async_payment_succeeded';
        const isDead =
          ev.type === 'checkout.session.expired' || ev.type === 'checkout.session.async_payment_failed';
        if ((isPaid || isDead) && ev.sessionId) {
          const t = await repo.lockTopUp(trx, { provider: 'stripe', ref: ev.sessionId });
          if (!t) outcome = 'unknown_session';
          else {
            topUpId = t.id;
            if (t.status === 'paid') outcome = 'already_credited';
            else if (isPaid && ev.paymentStatus === 'paid') {
              // 'expired' too: a session whose expiry was heard first but that was paid is credited.
              await credit(trx, t, 'Top-up by card (Stripe)');
              await repo.setStatus(trx, t.id, 'paid');
              await audit.recordAudit(trx, {
                accountId: t.account_id,
                userId: t.requested_by,
                kind: 'billing.topup_paid',
                message: `Card top-up of ${format(Number(t.amount_minor), t.currency)} paid (Stripe)`,
                resourceType: 'top_up',
                resourceId: t.id,
              });
              outcome = 'credited';
            } else if (isPaid) outcome = 'awaiting_payment';
            else {
              if (t.status === 'pending') await repo.setStatus(trx, t.id, 'expired');
              outcome = 'expired';
            }
          }
        }
        await repo.setEventOutcome(trx, { provider, id: ev.id, outcome, topUpId });
        return outcome;
      });
    },

    /** The embedded default: a request an operator approves or rejects in /admin. */
    async request(actor: Actor, input: { amountMinor: number; note?: string }): Promise<TopUpDto> {
      if (deps.provider)
        throw new AppError(
          ErrorCode.CONFLICT,
          'This server takes card payments: use "Pay by card" instead of a request.',
        );
      const acc = await accountOf(actor.accountId);
      return transact(db, async (trx) => {
        // Serialise an account's requests (the account row), so the pending limit holds.
        await trx.selectFrom('accounts').select('id').where('id', '=', acc.id).forUpdate().execute();
        if ((await repo.countPending(trx, acc.id)) >= MAX_PENDING_REQUESTS)
          throw new AppError(
            ErrorCode.CONFLICT,
            `You already have ${MAX_PENDING_REQUESTS} requests waiting for an operator. Wait for a decision first.`,
          );
        const t = await repo.insertTopUp(trx, {
          accountId: acc.id,
          provider: 'manual',
          amountMinor: input.amountMinor,
          currency: acc.currency,
          note: input.note || null,
          requestedBy: actor.userId,
        });
        await audit.recordAudit(trx, {
          accountId: acc.id,
          userId: actor.userId,
          ip: actor.ip,
          kind: 'billing.topup_requested',
          message: `Requested a top-up of ${format(input.amountMinor, acc.currency)}`,
          resourceType: 'top_up',
          resourceId: t.id,
        });
        const user = await repo.userOf(trx, actor.userId);
        return toDto({ ...t, requested_by_name: user?.name ?? null });
      });
    },

    async listForOperators(status?: TopUpStatus): Promise<AdminTopUpDto[]> {
      const rows = await repo.listForOperators(db, status, 200);
      return rows.map((r) => ({
        ...toDto(r),
        accountId: r.account_id,
        accountName: r.account_name,
        decidedBy: r.decided_by_name,
      }));
    },

    /**
     * An operator's decision on a pending request, under its row lock: approving credits the
     * stored amount once (a second or concurrent approval finds it decided: 409).
     */
    async decide(op: Actor, id: string, decision: 'approve' | 'reject', note?: string) {
      return transact(db, async (trx) => {
        const t = await repo.lockTopUp(trx, { id });
        if (!t || t.provider !== 'manual') throw notFound('Top-up request');
        if (t.status !== 'pending')
          throw new AppError(ErrorCode.CONFLICT, `This request was already ${t.status}.`);
        const requester = t.requested_by ? await repo.userOf(trx, t.requested_by) : undefined;
        const operator = await repo.userOf(trx, op.userId);
        const amount = format(Number(t.amount_minor), t.currency);
        const who = requester ? ` requested by ${requester.name} (${requester.email})` : '';
        if (decision === 'approve') {
          await credit(trx, t, note ? `Top-up approved: ${note}` : 'Top-up approved by Wren');
          await repo.setStatus(trx, t.id, 'approved', { by: op.userId, note: note || null });
        } else {
          await repo.setStatus(trx, t.id, 'rejected', { by: op.userId, note: note || null });
        }
        await audit.recordAudit(trx, {
          accountId: t.account_id,
          userId: t.requested_by,
          actorUserId: op.userId,
          ip: op.ip,
          kind: decision === 'approve' ? 'admin.topup_approved' : 'admin.topup_rejected',
          message: `${operator?.name ?? 'An operator'} ${decision === 'approve' ? 'approved' : 'rejected'} the top-up of ${amount}${who}${note ? `: ${note}` : ''}`,
          resourceType: 'top_up',
          resourceId: t.id,
        });
        const after = await repo.lockTopUp(trx, { id });
        return toDto({ ...after!, requested_by_name: requester?.name ?? null });
      });
    },
  };
}

export type TopUpsService = ReturnType<typeof createTopUpsService>;
