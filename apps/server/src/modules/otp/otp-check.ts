import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, type OtpCheckResult } from '@wren/contracts';
import type { Clock } from '../../platform/clock';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db';
import { AppError, FieldError } from '../../platform/errors';
import { plural } from '../../shared/plural';
import type { CodeHashes } from './otp-codes';
import { parseOtpNumber } from './otp-number';
import { serviceNotFound } from './otp-services';
import * as repo from './otp.repository';

interface Deps {
  db: Db;
  clock: Clock;
  config: Config;
  hashes: CodeHashes;
  changed: (accountId: string, serviceId: string) => void;
}

/** Checks a code: one attempt taken and decided in the database, the hash compared in constant time. */
export function createOtpCheck(deps: Deps) {
  const { db, clock, config, changed } = deps;
  const { hashCode, hashRecipientCode } = deps.hashes;

  /** POST /v1/otp/:serviceId/check */
  return async function check(input: {
    accountId: string;
    serviceId: string;
    to?: string;
    id?: string;
    code: string;
  }): Promise<OtpCheckResult> {
    const target: { id: string } | { recipient: string } = input.id
      ? { id: input.id }
      : { recipient: parseOtpNumber(input.to ?? '', 'to', config.defaultCountry).e164 };
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
  };
}
