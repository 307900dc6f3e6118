import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  analyseSmsText,
  ErrorCode,
  maskPhone,
  MAX_SEGMENTS,
  OTP_ALPHABET,
  renderOtpText,
  sampleOtpCode,
  type CreateOtpServiceInput,
  type OtpCheckResult,
  type OtpSendResult,
  type OtpServiceDto,
  type OtpStats,
  type OtpVerificationPage,
  type UpdateOtpServiceInput,
} from '@wren/contracts';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { Clock } from '../../platform/clock';
import type { Config } from '../../platform/config';
import { afterCommit, type Db, transact } from '../../platform/db';
import { AppError, FieldError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import { decodeCursor, encodeCursor, timeIdCursor } from '../../shared/cursor';
import { plural } from '../../shared/plural';
import { checkCountryCodes } from '../../shared/phone';
import type { FilterSuppressed } from '../inbound/inbound.service';
import { accountLockedError, format, type LedgerService } from '../ledger/ledger.service';
import { insertMessages } from '../messages/message-inserts.repository';
import * as limitsOf from '../messages/account-limits';
import { PRIORITY, type ResolveSender } from '../messages/messages.service';
import type { PricingService } from '../pricing/pricing.service';
import * as repo from './otp.repository';
import { newMessageId } from '../../shared/message-uuid';
import { postgresTimeZone } from '../../shared/time-zones';

declare module '../../platform/events' {
  interface DomainEvents {
    /** An OTP service's verifications changed: a send, a check, a blocked attempt. */
    'otp.changed': { accountId: string; serviceId: string };
  }
}

/** How long the velocity guard keeps a number range blocked. */
export const VELOCITY_BLOCK_MINUTES = 60;

interface Deps {
  db: Db;
  config: Config;
  clock: Clock;
  events: EventBus;
  ledger: LedgerService;
  pricing: PricingService;
  resolveSender: ResolveSender;
  /**
   * In `trx`: checks the account may send from this sender and keeps the account's sender ID of
   * that value from being deleted until `trx` ends (sender-ids' `lockSenderForUse`).
   */
  lockSender: (trx: Db, input: { accountId: string; value: string }) => Promise<string>;
  logger: Logger;
  /** The account's suppression list (inbound module): a number that opted out gets no codes. */
  filterSuppressed?: FilterSuppressed;
}

const serviceNotFound = () => notFound('OTP service');
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (cc: string) => {
  try {
    return regionNames.of(cc) ?? cc;
  } catch {
    return cc;
  }
};

function toServiceDto(
  row: repo.OtpServiceRow,
  stats: { sends: number; approved: number; blocked: number } | undefined,
): OtpServiceDto {
  const sends = stats?.sends ?? 0;
  const approved = stats?.approved ?? 0;
  return {
    id: row.id,
    name: row.name,
    senderId: row.sender_id,
    template: row.template,
    codeLength: row.code_length,
    codeType: row.code_type,
    ttlMinutes: row.ttl_minutes,
    maxAttempts: row.max_attempts,
    sendLimit: row.send_limit,
    sendWindowMinutes: row.send_window_minutes,
    resendCooldownSeconds: row.resend_cooldown_seconds,
    allowedCountries: row.allowed_countries,
    velocityMaxSends: row.velocity_max_sends,
    velocityWindowMinutes: row.velocity_window_minutes,
    velocityRangeDigits: row.velocity_range_digits,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    stats: {
      sends24h: sends,
      approved24h: approved,
      verificationRate24h: sends ? Math.round((approved / sends) * 10_000) / 10_000 : 0,
      blocked24h: stats?.blocked ?? 0,
    },
  };
}

/** A code from the CSPRNG: digits, or letters and digits without look-alikes. */
export function generateCode(length: number, type: 'numeric' | 'alphanumeric'): string {
  const alphabet = type === 'numeric' ? '0123456789' : OTP_ALPHABET;
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return code;
}

async function validTimezone(db: Db, tz: string | undefined): Promise<string> {
  if (!tz) return 'UTC';
  const zone = await postgresTimeZone(db, tz);
  if (!zone) throw new FieldError({ timezone: [`Unknown time zone: ${tz}`] });
  return zone;
}

/**
 * OTP services (issue #12): codes from the CSPRNG, stored only as HMACs, checked in constant time,
 * with every limit decided in the database (attempts by a conditional UPDATE, send limits and the
 * velocity guard under an advisory lock per number range). The SMS goes through the message core:
 * priced and debited like a single send, queued on the OTP lane (priority 0).
 */
export function createOtpService(deps: Deps) {
  const { db, config, clock, events } = deps;
  // The code key: derived from the server secret, never the secret itself.
  const codeKey = createHmac('sha256', config.jwtSecret).update('wren otp code hmac v1').digest();
  const hashCode = (verificationId: string, code: string) =>
    createHmac('sha256', codeKey).update(`${verificationId}:${code}`).digest();
  /** The same code bound to the service and number instead (0017): known before the row is found. */
  const hashRecipientCode = (serviceId: string, e164: string, code: string) =>
    createHmac('sha256', codeKey).update(`${serviceId}:${e164}:${code}`).digest();
  const changed = (accountId: string, serviceId: string) =>
    events.publish('otp.changed', { accountId, serviceId });

  function parseNumber(raw: string, field: string) {
    const parsed = parsePhoneNumberFromString(raw, config.defaultCountry as CountryCode);
    if (!parsed?.isValid()) {
      throw new FieldError({ [field]: [`Not a valid phone number: ${raw.slice(0, 32)}`] });
    }
    return { e164: parsed.number, country: parsed.country ?? null };
  }

  async function requireService(accountId: string, id: string) {
    const row = await repo.findService(db, accountId, id);
    if (!row) throw serviceNotFound();
    return row;
  }

  /**
   * The service's own sender (none: the account's default), checked in `trx` and held until it
   * commits, so the sender ID cannot be deleted between the check and the save.
   */
  async function holdSender(trx: Db, accountId: string, senderId: string | undefined) {
    if (!senderId) return;
    try {
      await deps.lockSender(trx, { accountId, value: senderId });
    } catch (err) {
      if (err instanceof AppError) throw new FieldError({ senderId: [err.message] });
      throw err;
    }
  }

  function checkTemplateLength(t: {
    template: string;
    codeLength: number;
    codeType: 'numeric' | 'alphanumeric';
    ttlMinutes: number;
    name: string;
  }) {
    const text = renderOtpText(t.template, {
      code: sampleOtpCode(t.codeLength, t.codeType),
      minutes: t.ttlMinutes,
      service: t.name,
    });
    const info = analyseSmsText(text);
    if (info.segments > MAX_SEGMENTS)
      throw new FieldError({ template: [`The message is too long: ${info.segments} parts`] });
  }

  async function withStats(rows: repo.OtpServiceRow[]) {
    const since = new Date(clock.now().getTime() - 86_400_000);
    const counts = await repo.countsSince(
      db,
      rows.map((r) => r.id),
      since,
    );
    const byId = new Map(counts.map((c) => [c.service_id, c]));
    return rows.map((r) => toServiceDto(r, byId.get(r.id)));
  }

  return {
    async list(accountId: string) {
      return { items: await withStats(await repo.listServices(db, accountId)) };
    },

    async get(accountId: string, id: string) {
      const [dto] = await withStats([await requireService(accountId, id)]);
      return dto;
    },

    async create(accountId: string, input: CreateOtpServiceInput & { name: string; template: string }) {
      const v = {
        senderId: '',
        codeLength: 6,
        codeType: 'numeric' as const,
        ttlMinutes: 10,
        maxAttempts: 5,
        sendLimit: 5,
        sendWindowMinutes: 10,
        resendCooldownSeconds: 30,
        allowedCountries: [] as string[],
        velocityMaxSends: 20,
        velocityWindowMinutes: 10,
        velocityRangeDigits: 3,
        ...input,
      };
      checkCountryCodes('allowedCountries', v.allowedCountries);
      checkTemplateLength(v);
      const row = await transact(db, async (trx) => {
        await holdSender(trx, accountId, v.senderId);
        return repo.insertService(trx, {
          account_id: accountId,
          name: v.name,
          sender_id: v.senderId,
          template: v.template,
          code_length: v.codeLength,
          code_type: v.codeType,
          ttl_minutes: v.ttlMinutes,
          max_attempts: v.maxAttempts,
          send_limit: v.sendLimit,
          send_window_minutes: v.sendWindowMinutes,
          resend_cooldown_seconds: v.resendCooldownSeconds,
          allowed_countries: [...new Set(v.allowedCountries)],
          velocity_max_sends: v.velocityMaxSends,
          velocity_window_minutes: v.velocityWindowMinutes,
          velocity_range_digits: v.velocityRangeDigits,
          updated_at: new Date(),
        });
      });
      changed(accountId, row.id);
      return toServiceDto(row, undefined);
    },

    async update(accountId: string, id: string, p: UpdateOtpServiceInput) {
      const current = await requireService(accountId, id);
      checkCountryCodes('allowedCountries', p.allowedCountries);
      checkTemplateLength({
        template: p.template ?? current.template,
        codeLength: p.codeLength ?? current.code_length,
        codeType: p.codeType ?? current.code_type,
        ttlMinutes: p.ttlMinutes ?? current.ttl_minutes,
        name: p.name ?? current.name,
      });
      const row = await transact(db, async (trx) => {
        await holdSender(trx, accountId, p.senderId);
        return repo.updateService(trx, accountId, id, {
          name: p.name,
          sender_id: p.senderId,
          template: p.template,
          code_length: p.codeLength,
          code_type: p.codeType,
          ttl_minutes: p.ttlMinutes,
          max_attempts: p.maxAttempts,
          send_limit: p.sendLimit,
          send_window_minutes: p.sendWindowMinutes,
          resend_cooldown_seconds: p.resendCooldownSeconds,
          allowed_countries: p.allowedCountries ? [...new Set(p.allowedCountries)] : undefined,
          velocity_max_sends: p.velocityMaxSends,
          velocity_window_minutes: p.velocityWindowMinutes,
          velocity_range_digits: p.velocityRangeDigits,
        });
      });
      if (!row) throw serviceNotFound();
      changed(accountId, id);
      return this.get(accountId, id);
    },

    async remove(accountId: string, id: string) {
      if (!(await repo.deleteService(db, accountId, id))) throw serviceNotFound();
      changed(accountId, id);
    },

    async stats(accountId: string, id: string, q: { timezone?: string; days: number }): Promise<OtpStats> {
      await requireService(accountId, id);
      const timezone = await validTimezone(db, q.timezone);
      const rows = await repo.daily(db, id, timezone, q.days, clock.now());
      return {
        timezone,
        days: rows.map((r) => ({
          ...r,
          conversion: r.sends ? Math.round((r.approved / r.sends) * 10_000) / 10_000 : 0,
        })),
      };
    },

    async verifications(
      accountId: string,
      id: string,
      q: { cursor?: string; limit: number },
    ): Promise<OtpVerificationPage> {
      const svc = await requireService(accountId, id);
      const after = q.cursor ? decodeCursor(q.cursor, timeIdCursor) : null;
      const rows = await repo.listVerifications(
        db,
        id,
        after ? { createdAt: new Date(after[0]), id: after[1] } : null,
        q.limit + 1,
      );
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      const blocked = q.cursor ? [] : await repo.listBlockedRanges(db, id, clock.now());
      return {
        items: page.map((r) => ({
          id: r.id,
          to: maskPhone(r.recipient),
          status: r.status,
          attempts: r.attempts,
          maxAttempts: r.max_attempts,
          messageStatus: r.message_status ?? null,
          messageId: r.message_id,
          blockedReason: r.blocked_reason,
          createdAt: r.created_at.toISOString(),
          expiresAt: r.expires_at.toISOString(),
          approvedAt: r.approved_at?.toISOString() ?? null,
        })),
        nextCursor:
          rows.length > q.limit && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null,
        blockedRanges: blocked.map((b) => ({
          range: maskRange(b.range_prefix, svc.velocity_range_digits),
          reason: b.reason,
          until: b.blocked_until.toISOString(),
        })),
      };
    },

    /** POST /v1/otp/:serviceId/send */
    async send(input: {
      accountId: string;
      userId: string | null;
      serviceId: string;
      to: string;
      /** The API key that asks (null: a session): recorded on the code, for the key's report. */
      apiKeyId: string | null;
      /** Runs in the send's transaction with its answer (an Idempotency-Key answer commits with it). */
      withinTransaction?: (trx: Db, result: OtpSendResult) => Promise<void>;
    }): Promise<OtpSendResult> {
      const svc = await requireService(input.accountId, input.serviceId);
      const { e164, country } = parseNumber(input.to, 'to');
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
      const windowMs = svc.send_window_minutes * 60_000;

      type Outcome =
        | { ok: true; result: OtpSendResult }
        | { ok: false; reason: string | null; error: AppError; retryAt: Date };
      const retry = (message: string, at: Date) => {
        const seconds = Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
        return new AppError(ErrorCode.RATE_LIMITED, message, { headers: { 'retry-after': String(seconds) } });
      };

      const outcome = await transact(db, async (trx): Promise<Outcome> => {
        await repo.lockRange(trx, svc.id, range);
        const guard = await repo.sendGuardState(trx, {
          serviceId: svc.id,
          rangePrefix: range,
          recipient: e164,
          now,
          sendSince: new Date(now.getTime() - windowMs),
          rangeSince: new Date(now.getTime() - svc.velocity_window_minutes * 60_000),
        });
        const block = guard.block;
        if (block) {
          return {
            ok: false,
            reason: `Range blocked: ${block.reason}`,
            retryAt: block.blocked_until,
            error: retry(
              'Sending to this number range is paused by the SMS pumping guard; try again later.',
              block.blocked_until,
            ),
          };
        }
        const recent = guard.recent;
        const last = recent[0];
        if (last && now.getTime() - last.getTime() < cooldownMs) {
          const at = new Date(last.getTime() + cooldownMs);
          const seconds = Math.ceil((at.getTime() - now.getTime()) / 1000);
          return {
            ok: false,
            reason: null, // a double click, not an attack: not recorded
            retryAt: at,
            error: retry(`Wait ${plural(seconds, 'second')} before sending another code to this number.`, at),
          };
        }
        if (recent.length >= svc.send_limit) {
          const oldest = recent[recent.length - 1];
          const at = new Date(oldest.getTime() + windowMs);
          return {
            ok: false,
            reason: `Send limit: ${plural(svc.send_limit, 'code')} in ${plural(svc.send_window_minutes, 'minute')} to this number`,
            retryAt: at,
            error: retry(
              `This number already got ${plural(svc.send_limit, 'code')} in the last ${plural(svc.send_window_minutes, 'minute')}; try again later.`,
              at,
            ),
          };
        }
        const inRange = guard.inRange;
        if (inRange >= svc.velocity_max_sends) {
          const until = new Date(now.getTime() + VELOCITY_BLOCK_MINUTES * 60_000);
          const reason = `SMS pumping guard: more than ${plural(svc.velocity_max_sends, 'send')} to ${maskRange(range, svc.velocity_range_digits)} in ${plural(svc.velocity_window_minutes, 'minute')}`;
          await repo.blockRange(trx, { serviceId: svc.id, rangePrefix: range, reason, at: now, until });
          return {
            ok: false,
            reason,
            retryAt: until,
            error: retry(
              'Too many codes went to numbers like this one; the range is paused by the SMS pumping guard.',
              until,
            ),
          };
        }
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
    },

    /** POST /v1/otp/:serviceId/check */
    async check(input: {
      accountId: string;
      serviceId: string;
      to?: string;
      id?: string;
      code: string;
    }): Promise<OtpCheckResult> {
      const target: { id: string } | { recipient: string } = input.id
        ? { id: input.id }
        : { recipient: parseNumber(input.to ?? '', 'to').e164 };
      const upper = input.code.toUpperCase();
      const now = clock.now();
      // One round trip finds the service and code and takes an attempt, only when the code is in the
      // service's format (a malformed code costs no attempt), and decides it. In the service's format
      // `upper` is the code as sent (digits are their own upper case), so its hash is known up front.
      const found = await repo.takeCheckAttempt(db, {
        accountId: input.accountId,
        serviceId: input.serviceId,
        target,
        format: { numeric: /^[0-9]+$/.test(input.code), alphanumeric: /^[A-Z0-9]+$/.test(upper) },
        given:
          'id' in target
            ? hashCode(target.id, upper)
            : hashRecipientCode(input.serviceId, target.recipient, upper),
        now,
      });
      if (!found) throw serviceNotFound();
      const svc = { id: input.serviceId, account_id: found.account_id, code_type: found.code_type };
      const code = svc.code_type === 'alphanumeric' ? upper : input.code;
      if (svc.code_type === 'numeric' && !/^[0-9]+$/.test(code))
        throw new FieldError({ code: ['The code has digits only'] });
      if (svc.code_type === 'alphanumeric' && !/^[A-Z0-9]+$/.test(code))
        throw new FieldError({ code: ['The code has letters and digits only'] });
      if (!found.v_id || !found.v_status || !found.v_expires_at) {
        throw new AppError(
          ErrorCode.NOT_FOUND,
          input.id ? 'No code with this id was sent by this service' : 'No code was sent to this number',
        );
      }
      const v = { id: found.v_id, status: found.v_status, expires_at: found.v_expires_at };
      const done = (status: OtpCheckResult['status'], message: string, attemptsLeft?: number) => {
        changed(svc.account_id, svc.id);
        return { id: v.id, status, message, ...(attemptsLeft === undefined ? {} : { attemptsLeft }) };
      };
      const taken =
        found.taken_attempts === null || found.taken_max_attempts === null
          ? null
          : {
              code_hash: found.taken_hash,
              attempts: found.taken_attempts,
              max_attempts: found.taken_max_attempts,
            };
      if (!taken) {
        // Not pending any more, or out of time or attempts: read what it is now (a parallel check
        // may have changed it since the statement's snapshot).
        const current = v.status === 'pending' ? ((await repo.findVerification(db, svc.id, v.id)) ?? v) : v;
        switch (current.status) {
          case 'approved':
            throw new AppError(ErrorCode.CONFLICT, 'This code was already used; request a new one');
          case 'canceled':
            return done('expired', 'A newer code was sent to this number; use that one');
          case 'expired':
            return done('expired', 'The code has expired; request a new one');
          case 'max_attempts_reached':
            return done('max_attempts_reached', 'Too many wrong codes; request a new one', 0);
          default:
            if (current.expires_at.getTime() <= now.getTime()) {
              await repo.settle(db, v.id, 'expired', now);
              return done('expired', 'The code has expired; request a new one');
            }
            await repo.settle(db, v.id, 'max_attempts_reached', now);
            return done('max_attempts_reached', 'Too many wrong codes; request a new one', 0);
        }
      }
      if (found.taken_decided) {
        // Decided in the statement (a right code approved, the last wrong one ended it).
        if (found.taken_matched) return done('approved', 'The code is correct');
        const left = taken.max_attempts - taken.attempts;
        if (found.taken_status === 'max_attempts_reached' || left <= 0)
          return done('max_attempts_reached', 'Wrong code, and no attempts are left; request a new one', 0);
        return done('pending', `Wrong code: ${plural(left, 'attempt')} left`, left);
      }
      // A verification sent before 0017, checked by number: compared here.
      const expected = taken.code_hash;
      const given = hashCode(v.id, code);
      const match = expected !== null && expected.length === given.length && timingSafeEqual(expected, given);
      if (match) {
        if (!(await repo.settle(db, v.id, 'approved', now)))
          throw new AppError(ErrorCode.CONFLICT, 'This code was already used; request a new one');
        return done('approved', 'The code is correct');
      }
      const left = taken.max_attempts - taken.attempts;
      if (left <= 0) {
        await repo.settle(db, v.id, 'max_attempts_reached', now);
        return done('max_attempts_reached', 'Wrong code, and no attempts are left; request a new one', 0);
      }
      return done('pending', `Wrong code: ${plural(left, 'attempt')} left`, left);
    },
  };
}

/** A range as shown: its digits, then `x` for each digit it spans (`+1415555xxx`). */
function maskRange(prefix: string, digits: number) {
  return prefix + 'x'.repeat(digits);
}

export type OtpService = ReturnType<typeof createOtpService>;
