import { z } from 'zod';
import { safeString } from './text';

/** HTTP paths of two-factor sign-in (issue 39 item 3). */
export const TWO_FACTOR_API = {
  /** The code step of sign-in: a challenge from POST /api/auth/login and a code or recovery code. */
  verify: '/api/auth/2fa',
  /** Enrollment during sign-in, in an account that requires two-factor (the challenge authorizes it). */
  signInEnrollStart: '/api/auth/2fa/enroll',
  signInEnrollConfirm: '/api/auth/2fa/enroll/confirm',
  /** The signed-in user's two-factor settings. */
  status: '/api/me/two-factor',
  enrollStart: '/api/me/two-factor/enroll',
  enrollConfirm: '/api/me/two-factor/confirm',
  disable: '/api/me/two-factor/disable',
  recoveryCodes: '/api/me/two-factor/recovery-codes',
  /** The account's setting: require two-factor of every member (owners and admins). */
  accountPolicy: '/api/account/two-factor',
} as const;

/** How many recovery codes an enrollment or a regeneration gives. */
export const RECOVERY_CODE_COUNT = 10;
/** How long the code step of a sign-in waits (minutes). */
export const TWO_FACTOR_CHALLENGE_MINUTES = 5;
/** How long a remembered device skips the code step (days). */
export const REMEMBER_DEVICE_DAYS = 30;

export const totpCodeSchema = safeString()
  .trim()
  .transform((s) => s.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app'));

export const recoveryCodeSchema = safeString()
  .trim()
  .min(1, 'Enter a recovery code')
  .max(40, 'That is not a recovery code');

/**
 * What POST /api/auth/login answers instead of tokens when a second step is needed: `code` (enter a
 * code), or `enroll` (the account requires two-factor and the user must set it up first).
 */
export const twoFactorChallengeSchema = z.object({
  twoFactor: z.enum(['code', 'enroll']),
  challenge: z.string(),
  expiresAt: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

export const twoFactorVerifySchema = z
  .object({
    challenge: safeString().min(1, 'Sign in again').max(200),
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
    rememberDevice: z.boolean().optional(),
  })
  .refine((v) => (v.code === undefined) !== (v.recoveryCode === undefined), {
    error: 'Enter either a code or a recovery code',
    path: ['code'],
  });
export type TwoFactorVerifyInput = z.infer<typeof twoFactorVerifySchema>;

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
  /** Whether the signed-in account requires two-factor of its members. */
  accountRequires: z.boolean(),
  /** Whether the signed-in member may change that (owners and admins: members:manage). */
  canSetRequirement: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** An enrollment's secret, shown once: the QR code (a PNG data URL), the otpauth URI and the key. */
export const twoFactorEnrollmentSchema = z.object({
  secret: z.string(),
  otpauthUri: z.string(),
  qrDataUrl: z.string(),
});
export type TwoFactorEnrollment = z.infer<typeof twoFactorEnrollmentSchema>;

export const twoFactorCodeSchema = z.object({ code: totpCodeSchema });
export type TwoFactorCodeInput = z.infer<typeof twoFactorCodeSchema>;

export const twoFactorDisableSchema = z.object({
  password: safeString().min(1, 'Password is required').max(128),
  code: totpCodeSchema,
});
export type TwoFactorDisableInput = z.infer<typeof twoFactorDisableSchema>;

export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

export const signInChallengeSchema = z.object({ challenge: safeString().min(1).max(200) });
export const signInEnrollConfirmSchema = z.object({
  challenge: safeString().min(1).max(200),
  code: totpCodeSchema,
});

export const accountTwoFactorPolicySchema = z.object({ requireTwoFactor: z.boolean() });
export type AccountTwoFactorPolicy = z.infer<typeof accountTwoFactorPolicySchema>;
