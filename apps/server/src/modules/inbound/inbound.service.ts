import {
  detectKeyword,
  isOptIn,
  isOptOut,
  type InboundMessageDto,
  type InboundPage,
  type InboundQuery,
  type SuppressedRecipient,
  type SuppressionDto,
  type SuppressionList,
} from '@wren/contracts';
import type { MobileOriginated } from '../../gateway/sms-gateway';
import { afterCommit, type Db, transact } from '../../platform/db';
import { FieldError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import { coalesced } from '../../platform/coalesce';
import { decodeCursor, encodeCursor, timeIdCursor } from '../../shared/cursor';
import { toE164 } from '../../shared/phone';
import * as repo from './inbound.repository';
import type { LedgerService } from '../ledger/ledger.service';
import { cancelWaiting } from '../messages/cancel-waiting';
import { noteInbound } from '../conversations/conversation-log';

/** Why a number's waiting messages were canceled when it was added to the suppression list. */
const OPTED_OUT = 'Canceled: the number opted out (suppression list) before it was sent';

/** Most numbers GET /api/suppressions returns (newest first). */
export const SUPPRESSION_LIST_MAX = 1000;

function toInboundDto(row: repo.InboundRow): InboundMessageDto {
  return {
    id: row.id,
    from: row.sender,
    to: row.recipient,
    text: row.text,
    parts: row.parts,
    keyword: row.keyword,
    receivedAt: row.received_at.toISOString(),
  };
}

function toSuppressionDto(row: repo.SuppressionRow): SuppressionDto {
  return {
    phone: row.phone,
    reason: row.reason,
    inboundMessageId: row.inbound_message_id,
    createdAt: row.created_at.toISOString(),
  };
}

/** The spellings an MO's destination may have as a message's sender, lower case. */
function senderSpellings(to: string): string[] {
  const t = to.trim().toLowerCase();
  if (!t) return [];
  const digits = t.replace(/^\+/, '');
  return /^\d+$/.test(digits) ? [...new Set([digits, `+${digits}`])] : [t];
}

/**
 * Splits `numbers` into allowed and suppressed. Inside a transaction, pass its handle as `trx`: the
 * lookup then runs on the transaction's connection, never waiting for another from the pool.
 */
export type FilterSuppressed = (
  accountId: string,
  numbers: string[],
  trx?: Db,
) => Promise<{ allowed: string[]; suppressed: SuppressedRecipient[] }>;

/**
 * Inbound (mobile-originated) messages and the per-account suppression list: an MO is attributed
 * to the account its number is assigned to (modules/numbers), else to the account that last sent to
 * its sender, stored before the gateway acknowledges it, and an
 * opt-out/opt-in keyword adds the sender to, or removes it from, that account's list.
 */
export function createInboundService(deps: {
  db: Db;
  events: EventBus;
  logger: Logger;
  defaultCountry: string;
  /** Refunds the messages a number's opt-out cancels. */
  ledger: LedgerService;
}) {
  const { db, events } = deps;

  const phoneOf = (raw: string): string | null =>
    /^\+[1-9]\d{6,14}$/.test(raw) ? raw : toE164(raw, deps.defaultCountry);

  // A send's screening (up to 1,000 numbers) shares one statement with the other sends of the same
  // turn of the event loop (platform/coalesce.ts); a campaign's list is looked up on its own.
  const findForSend = coalesced((lookups: readonly { accountId: string; phones: readonly string[] }[]) =>
    repo.findSuppressedMany(db, lookups),
  );
  const filterSuppressed: FilterSuppressed = async (accountId, numbers, trx) => {
    const rows =
      trx || numbers.length > 1000
        ? await repo.findSuppressed(trx ?? db, accountId, numbers)
        : await findForSend({ accountId, phones: numbers });
    if (rows.length === 0) return { allowed: numbers, suppressed: [] };
    const reasons = new Map(rows.map((r) => [r.phone, r.reason]));
    return {
      allowed: numbers.filter((n) => !reasons.has(n)),
      suppressed: numbers.flatMap((n) => {
        const reason = reasons.get(n);
        return reason ? [{ recipient: n, reason }] : [];
      }),
    };
  };

  return {
    /**
     * Stores one MO (reassembled) in one transaction with its keyword's effect. The gateway
     * acknowledges the MO only after this resolves, so a failure here makes the SMSC resend it.
     */
    async receive(
      mo: MobileOriginated & { parts?: number },
    ): Promise<{ id: string; accountId: string | null }> {
      const keyword = detectKeyword(mo.text);
      const handset = phoneOf(mo.from);
      const result = await transact(db, async (trx) => {
        const accountId = await repo.findSendingAccount(trx, handset ?? mo.from, senderSpellings(mo.to));
        const { id } = await repo.insertInbound(trx, {
          account_id: accountId,
          sender: mo.from,
          recipient: mo.to,
          text: mo.text,
          parts: Math.max(1, mo.parts ?? 1),
          connection: mo.connection,
          keyword,
          received_at: mo.receivedAt,
        });
        if (accountId && handset && isOptOut(keyword)) {
          await repo.addSuppression(trx, {
            accountId,
            phone: handset,
            reason: 'stop_keyword',
            inboundId: id,
          });
          await cancelWaiting(trx, deps, { accountId, recipient: handset }, OPTED_OUT);
        } else if (accountId && handset && isOptIn(keyword)) {
          await repo.removeSuppression(trx, accountId, handset);
        }
        if (accountId && handset) {
          // Its thread in Conversations (issue 40 item 1), in this transaction.
          await noteInbound(trx, { accountId, handset, to: mo.to, text: mo.text, at: mo.receivedAt });
        }
        if (accountId) {
          afterCommit(trx, () => {
            events.publish('inbound.received', { accountId });
            if (keyword) events.publish('suppressions.changed', { accountId });
          });
        }
        return { id, accountId };
      });
      deps.logger.info(
        { from: mo.from, to: mo.to, keyword, accountId: result.accountId, inboundId: result.id },
        'mobile-originated message stored',
      );
      return result;
    },

    async list(accountId: string, q: InboundQuery): Promise<InboundPage> {
      const after = q.cursor ? decodeCursor(q.cursor, timeIdCursor) : undefined;
      const rows = await repo.listInbound(db, {
        accountId,
        from: q.from?.replace(/[\s()-]/g, ''),
        text: q.text,
        since: q.since ? new Date(q.since) : undefined,
        until: q.until ? new Date(q.until) : undefined,
        after: after ? { receivedAt: new Date(after[0]), id: after[1] } : undefined,
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        items: page.map(toInboundDto),
        nextCursor:
          rows.length > q.limit && last ? encodeCursor([last.received_at.toISOString(), last.id]) : null,
      };
    },

    async listSuppressions(accountId: string): Promise<SuppressionList> {
      const rows = await repo.listSuppressions(db, accountId, SUPPRESSION_LIST_MAX);
      return { items: rows.map(toSuppressionDto) };
    },

    /** Adds a number by hand; a number already on the list is returned as it is. */
    async addSuppression(input: { accountId: string; phone: string }): Promise<SuppressionDto> {
      const phone = toE164(input.phone, deps.defaultCountry);
      if (!phone) throw new FieldError({ phone: [`Not a valid phone number: ${input.phone}`] });
      const row = await transact(db, async (trx) => {
        const added = await repo.addSuppression(trx, {
          accountId: input.accountId,
          phone,
          reason: 'manual',
          inboundId: null,
        });
        await cancelWaiting(trx, deps, { accountId: input.accountId, recipient: phone }, OPTED_OUT);
        return added;
      });
      events.publish('suppressions.changed', { accountId: input.accountId });
      return toSuppressionDto(row);
    },

    async removeSuppression(input: { accountId: string; number: string }): Promise<void> {
      const phone = toE164(input.number, deps.defaultCountry);
      if (!phone || !(await repo.removeSuppression(db, input.accountId, phone))) {
        throw notFound('Suppressed number');
      }
      events.publish('suppressions.changed', { accountId: input.accountId });
    },

    /** Splits E.164 `numbers` into those that may be sent to and those on the account's list. */
    filterSuppressed,
  };
}

export type InboundService = ReturnType<typeof createInboundService>;
