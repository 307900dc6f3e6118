import type { Clock } from '../../platform/clock';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import type { FilterSuppressed } from '../inbound/inbound.service';
import type { LedgerService } from '../ledger/ledger.service';
import type { ResolveSender } from '../messages/messages.service';
import type { PricingService } from '../pricing/pricing.service';
import { createOtpCheck } from './otp-check';
import { codeHashes } from './otp-codes';
import { createOtpReports } from './otp-reports';
import { createOtpSend } from './otp-send';
import { createOtpServices } from './otp-services';

declare module '../../platform/events' {
  interface DomainEvents {
    /** An OTP service's verifications changed: a send, a check, a blocked attempt. */
    'otp.changed': { accountId: string; serviceId: string };
  }
}

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

/**
 * OTP services (issue #12): codes from the CSPRNG, stored only as HMACs, checked in constant time,
 * with every limit decided in the database (attempts by a conditional UPDATE, send limits and the
 * velocity guard under an advisory lock per number range). The SMS goes through the message core:
 * priced and debited like a single send, queued on the OTP lane (priority 0).
 */
export function createOtpService(deps: Deps) {
  const { db, config, clock, events } = deps;
  const hashes = codeHashes(config.jwtSecret);
  const changed = (accountId: string, serviceId: string) =>
    events.publish('otp.changed', { accountId, serviceId });

  return {
    ...createOtpServices({ db, clock, lockSender: deps.lockSender, changed }),
    ...createOtpReports({ db, clock }),
    send: createOtpSend({ ...deps, hashes, changed }),
    check: createOtpCheck({ db, clock, config, hashes, changed }),
  };
}

export type OtpService = ReturnType<typeof createOtpService>;
