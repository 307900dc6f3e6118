import { ErrorCode } from '@wren/contracts';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { plural } from '../../shared/plural';
import { maskRange } from './otp-number';
import * as repo from './otp.repository';

/** How long the velocity guard keeps a number range blocked. */
export const VELOCITY_BLOCK_MINUTES = 60;

/** Why a code is not sent now: `reason` recorded on a blocked verification (null: not recorded). */
export type SendRefusal = { ok: false; reason: string | null; error: AppError; retryAt: Date };

/**
 * The send limits of one number and its range, decided in the send's transaction under the range's
 * advisory lock: the guard's block, the resend cooldown, the send limit, and the velocity guard
 * (which blocks the range for VELOCITY_BLOCK_MINUTES). Null: the code may be sent.
 */
export async function guardSend(
  trx: Db,
  svc: repo.OtpServiceRow,
  to: { range: string; e164: string; now: Date },
): Promise<SendRefusal | null> {
  const { range, e164, now } = to;
  const cooldownMs = svc.resend_cooldown_seconds * 1000;
  const windowMs = svc.send_window_minutes * 60_000;
  const retry = (message: string, at: Date) => {
    const seconds = Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
    return new AppError(ErrorCode.RATE_LIMITED, message, { headers: { 'retry-after': String(seconds) } });
  };
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
  return null;
}
