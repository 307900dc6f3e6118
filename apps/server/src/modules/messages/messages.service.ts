import { randomUUID } from 'node:crypto';
import {
  analyseSmsText,
  ErrorCode,
  MAX_SEGMENTS,
  type SendResult,
  type SendSingleInput,
  type SmsLogPage,
  type SmsLogQuery,
} from '@wren/contracts';
import type { Config } from '../../platform/config';
import { type Db, transact } from '../../platform/db';
import { AppError, FieldError, notFound } from '../../platform/errors';
import { parseSchedule } from '../../shared/schedule';
import { refundMessages } from './refunds';
import { cancelWaiting } from './cancel-waiting';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import { toE164 } from '../../shared/phone';
import type { LedgerService } from '../ledger/ledger.service';
import type { FilterSuppressed } from '../inbound/inbound.service';
import type { PricingService } from '../pricing/pricing.service';
import { decodeCursor, encodeCursor, toMessageDto } from './message-dto';
import { streamLog } from './log-export.repository';
import { listLog } from './log-pages.repository';
import type { RecipientMatch } from './log-query.repository';
import * as repo from './messages.repository';
import { createSendBatcher, type SendHookCall } from './send-batcher';
import { transition } from './status.repository';
import { customerHistory, messageHistory } from './message-history';
import * as limitsOf from './account-limits';
import { coalesced } from '../../platform/coalesce';
import { newMessageId } from '../../shared/message-uuid';
import { opensFor } from '../send-windows/campaign-window';
import { singleSendWindow } from '../send-windows/send-window-settings';

/** Resolves the sender a send may use: an approved sender ID of the account, or its default. */
export type ResolveSender = (input: { accountId: string; value?: string }) => Promise<string>;

interface Deps {
  db: Db;
  config: Config;
  events: EventBus;
  ledger: LedgerService;
  pricing: PricingService;
  resolveSender: ResolveSender;
  logger: Logger;
  /** The suppression list (inbound module): suppressed recipients are skipped, not charged. */
  filterSuppressed?: FilterSuppressed;
}

export const PRIORITY = { otp: 0, single: 1, bulk: 2 } as const;

/** A settled promise's value, or its error thrown. */
function settled<T>(r: PromiseSettledResult<T>): T {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
}

export function createMessagesService(deps: Deps) {
  const { db, config } = deps;
  const batcher = createSendBatcher({ db, ledger: deps.ledger, logger: deps.logger });
  // The sends of one turn of the event loop read their accounts' limits in one statement.
  const limitsFor = coalesced((accountIds: readonly string[]) => limitsOf.loadLimitsMany(db, accountIds));

  function normaliseRecipients(raw: string[]) {
    const valid: string[] = [];
    const invalid: string[] = [];
    for (const r of raw) {
      const e164 = toE164(r, config.defaultCountry);
      if (e164) valid.push(e164);
      else invalid.push(r);
    }
    if (invalid.length) {
      const shown =
        invalid.slice(0, 5).join(', ') + (invalid.length > 5 ? ` and ${invalid.length - 5} more` : '');
      throw new FieldError({ recipients: [`Not a valid phone number: ${shown}`] });
    }
    return [...new Set(valid)];
  }

  /** Drops recipients on the account's suppression list; a send with none left is a 400. */
  async function screenSuppressed(accountId: string, recipients: string[]) {
    const screened = deps.filterSuppressed
      ? await deps.filterSuppressed(accountId, recipients)
      : { allowed: recipients, suppressed: [] };
    if (screened.allowed.length === 0) {
      const shown = recipients.slice(0, 5).join(', ') + (recipients.length > 5 ? ' and more' : '');
      throw new FieldError({ recipients: [`Opted out (on your suppression list), not sent: ${shown}`] });
    }
    return screened;
  }

  /**
   * A recipient filter as E.164: a whole valid number matches exactly, `+…` (or `00…`) digits match
   * as a prefix (both on an index); other digits match anywhere in the number.
   */
  function recipientMatch(raw: string | undefined): RecipientMatch | undefined {
    const r = raw?.replace(/[\s().-]/g, '');
    if (!r) return undefined;
    const e164 = toE164(r, config.defaultCountry);
    if (e164) return { exact: e164 };
    const international = r.startsWith('00') ? `+${r.slice(2)}` : r;
    if (/^\+\d+$/.test(international)) return { prefix: international };
    return { contains: r };
  }

  return {
    /** Single SMS to one or more recipients: validate, price, debit and queue in one transaction. */
    async sendSingle(
      input: SendSingleInput & {
        accountId: string;
        userId: string | null;
        /** Records of the caller that commit with the send or not at all (the /v1 API's). */
        hook?: SendHookCall;
      },
    ): Promise<SendResult> {
      const info = analyseSmsText(input.text);
      if (info.segments > MAX_SEGMENTS) {
        throw new FieldError({
          text: [`The message is too long: ${info.segments} parts (at most ${MAX_SEGMENTS})`],
        });
      }
      const scheduledAt = parseSchedule(input.scheduleAt);
      const normalised = normaliseRecipients(input.recipients);
      // Three independent lookups at once (a send waits for one round trip, not three); their errors
      // are still reported in this order.
      const [screenedR, limitsR, senderR, windowR] = await Promise.allSettled([
        screenSuppressed(input.accountId, normalised),
        // The operator's per-account limits (account-limits.ts): countries now, cap and pace below.
        limitsFor(input.accountId),
        deps.resolveSender({ accountId: input.accountId, value: input.senderId }),
        // The account's send window, when it opted single sends in (issue 41); OTP never waits.
        singleSendWindow(db, input.accountId),
      ]);
      const screened = settled(screenedR);
      const recipients = screened.allowed;
      const limits = settled(limitsR);
      const outside = limitsOf.outsideCountries(limits, recipients);
      if (outside.length) throw new FieldError({ recipients: [limitsOf.countriesMessage(limits, outside)] });
      const sender = settled(senderR);
      const quote = await deps.pricing.quote(input.accountId, recipients, info.segments);
      const start = scheduledAt ?? new Date();
      const validityMs = config.messageValidityMinutes * 60_000;
      const validityUntil = new Date(start.getTime() + validityMs);
      const status = scheduledAt ? 'scheduled' : 'queued';
      // Outside the window, a message waits queued (or scheduled) until its recipient's opens,
      // valid from then; it is paid once, now, like any other.
      const window = settled(windowR);
      const opens = window ? opensFor(window, input.timezone ?? 'UTC', start) : null;
      const batch = randomUUID();
      const admission = await limitsOf.admitNow(db, input.accountId, limits, recipients.length, !scheduledAt);

      const result = await batcher
        .submit({
          accountId: input.accountId,
          reference: `send:${batch}`,
          note: `${recipients.length} SMS × ${info.segments} segment(s)`,
          totalMinor: quote.total,
          hook: input.hook,
          rows: recipients.map((to, i) => {
            const held = opens?.(to) ?? null;
            return {
              id: newMessageId(),
              account_id: input.accountId,
              campaign_id: null,
              user_id: input.userId,
              recipient: to,
              sender,
              body: input.text,
              encoding: info.encoding,
              segments: info.segments,
              price_minor: quote.prices[i] ?? 0,
              currency: quote.currency,
              status,
              priority: PRIORITY.single,
              scheduled_at: scheduledAt && held ? held : scheduledAt,
              timezone: input.timezone ?? null,
              next_attempt_at: held ?? admission?.dueAt?.[i] ?? start,
              validity_until: held ? new Date(held.getTime() + validityMs) : validityUntil,
            };
          }),
        })
        .catch(async (err: unknown) => {
          await limitsOf.release(db, input.accountId, admission, recipients.length);
          throw err;
        });
      if (!scheduledAt) deps.events.publish('messages.queued', { priority: PRIORITY.single });
      deps.events.publish('messages.changed', { accountId: input.accountId, campaignIds: [] });
      return {
        messages: result.rows.map(toMessageDto),
        totalPriceMinor: quote.total,
        currency: quote.currency,
        balanceMinor: result.balanceMinor,
        suppressed: screened.suppressed,
      };
    },

    /** One page of the log; `via`: a lag-tolerant read's database (ctx.reads), else the primary. */
    async log(accountId: string, q: SmsLogQuery, via: Db = db): Promise<SmsLogPage> {
      const after = q.cursor ? decodeCursor(q.cursor) : null;
      if (q.cursor && !after) throw new FieldError({ cursor: ['Invalid page cursor'] });
      const rows = await listLog(via, {
        accountId,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
        status: q.status,
        recipient: recipientMatch(q.recipient),
        sender: q.sender,
        text: q.text,
        campaignId: q.campaignId,
        after: after ?? undefined,
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        items: page.map(toMessageDto),
        nextCursor: rows.length > q.limit && last ? encodeCursor(last) : null,
      };
    },

    /** Cancels a scheduled message that has not started; its price is refunded. */
    async cancelScheduled(accountId: string, id: string) {
      const result = await transact(db, async (trx) => {
        const [row] = await transition(trx, {
          to: 'canceled',
          from: ['scheduled'],
          accountId,
          rows: [{ id, error: 'Canceled by the user' }],
        });
        if (!row) return null;
        await refundMessages(trx, deps.ledger, [row]);
        await repo.insertEvents(trx, [
          { message_id: id, status: 'canceled', detail: 'Canceled before its scheduled time' },
        ]);
        return row;
      });
      if (!result) {
        const existing = await repo.findMessage(db, accountId, id);
        if (!existing) throw notFound('Message');
        throw new AppError(
          ErrorCode.CONFLICT,
          `This message can no longer be canceled: it is ${existing.status}`,
        );
      }
      deps.events.publish('messages.changed', {
        accountId,
        campaignIds: result.campaign_id ? [result.campaign_id] : [],
      });
      return this.detail(accountId, id);
    },

    /** Cancels one message still waiting to be sent (queued, not with a worker); refunded. True when it was. */
    cancelWaitingOne: (accountId: string, id: string, reason: string) =>
      transact(db, async (trx) => (await cancelWaiting(trx, deps, { accountId, messageId: id }, reason)) > 0),

    /** Cancels the account's messages still waiting to be sent, in the caller's transaction (cancel-waiting.ts). */
    cancelPendingOf: (trx: Db, accountId: string, reason: string) =>
      cancelWaiting(trx, deps, { accountId }, reason),

    /** The message and its history; raw receipts and internal names only for an admin. */
    async detail(accountId: string, id: string, viewer: { admin: boolean } = { admin: false }) {
      const m = await repo.findMessage(db, accountId, id);
      if (!m) throw notFound('Message');
      const [events, parts] = await Promise.all([repo.listEvents(db, id), repo.listPartIds(db, id)]);
      const history = messageHistory(m, parts, events);
      return { message: toMessageDto(m), events: viewer.admin ? history : customerHistory(history) };
    },

    /**
     * The filtered log for CSV export, newest first, in batches from one server-side cursor (one
     * snapshot; no paging). The first batch is read when the first value is asked for, so a filter
     * the database refuses fails before a response starts.
     */
    async *exportLog(accountId: string, q: Omit<SmsLogQuery, 'cursor' | 'limit'>, via: Db = db) {
      const rows = streamLog(via, {
        accountId,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
        status: q.status,
        recipient: recipientMatch(q.recipient),
        sender: q.sender,
        text: q.text,
        campaignId: q.campaignId,
      });
      let any = false;
      for await (const batch of rows) {
        any = true;
        yield batch;
      }
      if (!any) yield [];
    },
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
