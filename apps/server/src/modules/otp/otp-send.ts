import { randomUUID } from 'node:crypto';
import { analyseSmsText, ErrorCode, maskPhone, renderOtpText, type OtpSendResult } from '@wren/contracts';
import type { Clock } from '../../platform/clock';
import type { Config } from '../../platform/config';
import { afterCommit, type Db, transact } from '../../platform/db';
import { AppError, FieldError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import { newMessageId } from '../../shared/message-uuid';
import type { FilterSuppressed } from '../inbound/inbound.service';
import { accountLockedError, format, type LedgerService } from '../ledger/ledger.service';
import * as limitsOf from '../messages/account-limits';
import { PRIORITY, type ResolveSender } from '../messages/messages.service';
import { insertMessages } from '../messages/otp-port';
import type { PricingService } from '../pricing/pricing.service';
import { generateCode, type CodeHashes } from './otp-codes';
import { parseOtpNumber } from './otp-number';
import { guardSend, type SendRefusal } from './otp-send-guard';
import { requireService } from './otp-services';
import * as repo from './otp.repository';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (cc: string) => {
  try {
    return regionNames.of(cc) ?? cc;
  } catch {
    return cc;
  }
};

interface Deps {
  db: Db;
  config: Config;
  clock: Clock;
  events: EventBus;
  ledger: LedgerService;
  pricing: PricingService;
  resolveSender: ResolveSender;
  logger: Logger;
  /** The account's suppression list (inbound module): a number that opted out gets no codes. */
  filterSuppressed?: FilterSuppressed;
  hashes: CodeHashes;
  changed: (accountId: string, serviceId: string) => void;
}

/** Sends a code: the guard's limits, the debit, the message on the OTP lane and the verification, in one transaction. */
export function createOtpSend(deps: Deps) {
  const { db, config, clock, events, changed } = deps;
  const { hashCode, hashRecipientCode } = deps.hashes;

  /** POST /v1/otp/:serviceId/send */
  return async function send(input: {
    accountId: string;
    userId: string | null;
    serviceId: string;
    to: string;
    /** The API key that asks (null: a session): recorded on the code, for the key's report. */
    apiKeyId: string | null;
    /** Runs in the send's transaction with its answer (an Idempotency-Key answer commits with it). */
    withinTransaction?: (trx: Db, result: OtpSendResult) => Promise<void>;
  }): Promise<OtpSendResult> {
    const svc = await requireService(db, input.accountId, input.serviceId);
    const { e164, country } = parseOtpNumber(input.to, 'to', config.defaultCountry);
    const range = e164.slice(0, -svc.velocity_range_digits);
    const now = clock.now();
    const id = randomUUID();
    const ttlMs = svc.ttl_minutes * 60_000;
    const blockedRow = (reason: string) => ({
      id,
      service_id: svc.id,
      account_id: svc.account_id,
      recipient: e164,
      range_prefix: range,
      code_hash: null,
      status: 'blocked' as const,
      max_attempts: svc.max_attempts,
      message_id: null,
      blocked_reason: reason,
      created_at: now,
      expires_at: now,
      api_key_id: input.apiKeyId,
    });
    const refuse = async (reason: string, error: AppError | FieldError) => {
      await repo.insertVerification(db, blockedRow(reason));
      deps.logger.warn({ service: svc.id, to: maskPhone(e164), reason }, 'OTP send blocked');
      changed(svc.account_id, svc.id);
      return error;
    };

    if (svc.allowed_countries.length && !(country && svc.allowed_countries.includes(country))) {
      const where = country ? `${countryName(country)} (${country})` : 'that destination';
      throw await refuse(
        `Country not allowed: ${country ?? 'unknown'}`,
        new AppError(
          ErrorCode.UNPROCESSABLE,
          `This service does not send to ${where}. Allowed: ${svc.allowed_countries.join(', ')}.`,
        ),
      );
    }

    if (deps.filterSuppressed) {
      const { suppressed } = await deps.filterSuppressed(svc.account_id, [e164]);
      if (suppressed.length > 0) {
        throw await refuse(
          'Opted out',
          new FieldError({
            to: [
              `${e164} opted out of your messages (it sent STOP, or is on your suppression list); it gets no codes until it sends START or you remove it`,
            ],
          }),
        );
      }
    }

    const code = generateCode(svc.code_length, svc.code_type);
    const text = renderOtpText(svc.template, { code, minutes: svc.ttl_minutes, service: svc.name });
    const info = analyseSmsText(text);
    const sender = await deps.resolveSender({
      accountId: svc.account_id,
      value: svc.sender_id || undefined,
    });
    const limits = await limitsOf.loadLimits(db, svc.account_id);
    limitsOf.assertCountries(limits, [e164]);
    const quote = await deps.pricing.quote(svc.account_id, [e164], info.segments);
    const messageId = newMessageId();
    const expiresAt = new Date(now.getTime() + ttlMs);
    const cooldownMs = svc.resend_cooldown_seconds * 1000;

    type Outcome = { ok: true; result: OtpSendResult } | SendRefusal;

    const outcome = await transact(db, async (trx): Promise<Outcome> => {
      const refused = await guardSend(trx, svc, { range, e164, now });
      if (refused) return refused;
      await repo.cancelPending(trx, svc.id, e164);
      const debit = await deps.ledger.debitEach(trx, svc.account_id, [
        {
          amountMinor: quote.total,
          kind: 'sms_debit',
          reference: `otp:${id}`,
          note: `OTP SMS × ${info.segments} segment(s)`,
        },
      ]);
      if (debit.locked) throw accountLockedError();
      if (!debit.accepted[0]) {
        throw new AppError(
          ErrorCode.INSUFFICIENT_BALANCE,
          `Insufficient balance: this costs ${format(quote.total, debit.currency)} and your balance is ${format(debit.startMinor, debit.currency)}.`,
        );
      }
      const admission = await limitsOf.admit(trx, svc.account_id, limits, 1);
      await insertMessages(
        trx,
        [
          {
            id: messageId,
            account_id: svc.account_id,
            campaign_id: null,
            user_id: input.userId,
            recipient: e164,
            sender,
            body: text,
            encoding: info.encoding,
            segments: info.segments,
            price_minor: quote.prices[0] ?? 0,
            currency: quote.currency,
            status: 'queued',
            priority: PRIORITY.otp,
            scheduled_at: null,
            timezone: null,
            next_attempt_at: admission?.dueAt?.[0] ?? new Date(),
            // A code is worth nothing once expired: so is its SMS.
            validity_until: new Date(Date.now() + ttlMs),
          },
        ],
        { returning: false },
      );
      await repo.insertVerification(trx, {
        id,
        service_id: svc.id,
        account_id: svc.account_id,
        recipient: e164,
        range_prefix: range,
        code_hash: hashCode(id, code),
        recipient_code_hash: hashRecipientCode(svc.id, e164, code),
        status: 'pending',
        max_attempts: svc.max_attempts,
        message_id: messageId,
        blocked_reason: null,
        created_at: now,
        expires_at: expiresAt,
        api_key_id: input.apiKeyId,
      });
      afterCommit(trx, () => {
        events.publish('messages.queued', { priority: PRIORITY.otp });
        events.publish('messages.changed', { accountId: svc.account_id, campaignIds: [] });
      });
      const result: OtpSendResult = {
        id,
        to: e164,
        status: 'pending',
        expiresAt: expiresAt.toISOString(),
        resendAfter: new Date(now.getTime() + cooldownMs).toISOString(),
        messageId,
      };
      await input.withinTransaction?.(trx, result);
      return { ok: true, result };
    });

    if (!outcome.ok) {
      if (outcome.reason) throw await refuse(outcome.reason, outcome.error);
      throw outcome.error;
    }
    changed(svc.account_id, svc.id);
    deps.logger.debug({ service: svc.id, to: maskPhone(e164), verification: id }, 'OTP sent');
    return outcome.result;
  };
}
