import { z } from 'zod';

/**
 * The receipt and resend rules of an SMPP connection as configured: SMSC_RECEIPT_TIMEOUT_MINUTES,
 * SMSC_ACCEPTD, SMSC_ON_UNANSWERED … as defaults, a connection's `policy` in SMSC_CONNECTIONS over
 * them. How a connection's rules are put together: connection-policy.ts.
 */

export type Lane = 'otp' | 'single' | 'bulk';
export type UnansweredPolicy = Record<Lane, 'fail' | 'resend'>;

/** Per-connection receipt and resend rules (issue #18). */
export interface ConnectionPolicySettings {
  /** A sent message whose receipt has not come after this long ends as `unknown`. */
  receiptTimeoutMinutes?: number;
  /** The same for OTP messages (priority 0), usually much shorter. */
  otpReceiptTimeoutMinutes?: number;
  /** ACCEPTD / message_state 6: final (delivered on the subscriber's behalf, SMPP 3.4) or interim. */
  acceptd?: 'final' | 'interim';
  /** UNKNOWN / message_state 7: final (`unknown`) or interim. */
  unknownState?: 'final' | 'interim';
  /** A submit written but never answered (connection lost): fail it, or resend it (possible duplicate). */
  onUnanswered?: UnansweredPolicy;
}

/** SMSC_ON_UNANSWERED: `lane=policy` pairs such as `otp=resend,bulk=fail`; unnamed lanes keep their default. */
export function unansweredSchema() {
  return z.string().transform((v, ctx): UnansweredPolicy => {
    const policy: UnansweredPolicy = { otp: 'resend', single: 'fail', bulk: 'fail' };
    for (const item of v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      const [lane, what] = item.split('=').map((x) => x.trim());
      if (
        (lane === 'otp' || lane === 'single' || lane === 'bulk') &&
        (what === 'fail' || what === 'resend')
      ) {
        policy[lane] = what;
      } else {
        ctx.addIssue({
          code: 'custom',
          message: `"${item}": use lane=policy pairs such as otp=resend,bulk=fail`,
        });
        return z.NEVER;
      }
    }
    return policy;
  });
}

/** A connection's `policy` object in SMSC_CONNECTIONS (every field optional: unset takes the default). */
export const policySettingsSchema = z.object({
  receiptTimeoutMinutes: z.number().int().min(1).max(43_200).optional(),
  otpReceiptTimeoutMinutes: z.number().int().min(1).max(43_200).optional(),
  acceptd: z.enum(['final', 'interim']).optional(),
  unknownState: z.enum(['final', 'interim']).optional(),
  onUnanswered: z
    .object({
      otp: z.enum(['fail', 'resend']).default('resend'),
      single: z.enum(['fail', 'resend']).default('fail'),
      bulk: z.enum(['fail', 'resend']).default('fail'),
    })
    .optional(),
});
