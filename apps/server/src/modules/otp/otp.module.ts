import type { AppContext } from '../../app/context';
import { createOtpService, type OtpService } from './otp.service';

const services = new WeakMap<AppContext, OtpService>();

/** The OTP service of an app context, made once and shared by the console and the public routes. */
export function otpServiceOf(ctx: AppContext): OtpService {
  let s = services.get(ctx);
  if (!s) {
    s = createOtpService({
      db: ctx.db,
      config: ctx.config,
      clock: ctx.clock,
      events: ctx.events,
      ledger: ctx.services.ledger,
      pricing: ctx.services.pricing,
      resolveSender: (input) => ctx.services.senderIds.resolveSenderForSend(input),
      lockSender: (trx, input) => ctx.services.senderIds.lockSenderForUse(trx, input),
      logger: ctx.logger,
      filterSuppressed: ctx.services.inbound.filterSuppressed,
    });
    services.set(ctx, s);
  }
  return s;
}
