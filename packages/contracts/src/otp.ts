import { z } from 'zod';
import { pageCursorSchema, safeString, timeZoneField } from './text';
import type { V1ErrorCode } from './v1';

/** OTP services (issue #12): service CRUD for the web app, and the public verify API. */
export const OTP_API = {
  list: '/api/otp-services',
  item: '/api/otp-services/:id',
  stats: '/api/otp-services/:id/stats',
  verifications: '/api/otp-services/:id/verifications',
  /** Public API: send a code. Session auth today; API keys with the `otp` scope later (#13). */
  send: '/v1/otp/:serviceId/send',
  /** Public API: check a code. */
  check: '/v1/otp/:serviceId/check',
} as const;

export const otpSendPath = (serviceId: string) => `/v1/otp/${serviceId}/send`;
export const otpCheckPath = (serviceId: string) => `/v1/otp/${serviceId}/check`;

export const OTP_CODE_TYPES = ['numeric', 'alphanumeric'] as const;
export type OtpCodeType = (typeof OTP_CODE_TYPES)[number];

/** Placeholders an OTP template may use; `{{code}}` is required. */
export const OTP_PLACEHOLDERS = ['code', 'minutes', 'service'] as const;
export const OTP_TEMPLATE_MAX = 480;
export const OTP_DEFAULT_TEMPLATE = 'Your {{service}} code is {{code}}. It expires in {{minutes}} minutes.';

/** Alphanumeric codes: upper case without look-alikes (0/O, 1/I/L). */
export const OTP_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Fills an OTP template with a code, the TTL in minutes and the service name. */
export function renderOtpText(template: string, v: { code: string; minutes: number; service: string }) {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === 'code') return v.code;
    if (name === 'minutes') return String(v.minutes);
    if (name === 'service') return v.service;
    return whole;
  });
}

/** A code of the longest kind, for the preview and the segment count of a template. */
export const sampleOtpCode = (length: number, type: OtpCodeType) =>
  (type === 'numeric' ? '0123456789' : 'A7K9Q2M4X8').repeat(2).slice(0, length);

/** Problems of an OTP template: unknown placeholders, a missing `{{code}}`. */
export function otpTemplateProblem(template: string): string | null {
  const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '');
  if (!names.includes('code')) return 'The message must contain {{code}}, where the code goes';
  const unknown = names.filter((n) => !(OTP_PLACEHOLDERS as readonly string[]).includes(n));
  if (unknown.length)
    return `Unknown placeholder {{${unknown[0]}}}: use {{code}}, {{minutes}} and {{service}}`;
  return null;
}

/**
 * A phone number for showing in the UI or writing to logs: the country code and the first digits,
 * then bullets, then the last two digits (`+1415•••••23`).
 */
export function maskPhone(e164: string): string {
  const digits = e164.replace(/^\+/, '');
  if (digits.length < 6) return '+' + '•'.repeat(digits.length);
  const head = digits.slice(0, Math.min(4, digits.length - 4));
  const tail = digits.slice(-2);
  return `+${head}${'•'.repeat(digits.length - head.length - 2)}${tail}`;
}

const countryCode = safeString()
  .regex(/^[A-Za-z]{2}$/, 'Use two-letter country codes such as US or GB')
  .transform((s) => s.toUpperCase());

const intIn = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

const otpServiceFields = {
  name: safeString().trim().min(1, 'Name is required').max(80, 'Name must be at most 80 characters'),
  /** An approved sender ID of the account; empty: the account's default sender. */
  senderId: safeString().trim().max(15, 'Sender ID must be at most 15 characters').default(''),
  template: safeString()
    .max(OTP_TEMPLATE_MAX, `The message must be at most ${OTP_TEMPLATE_MAX} characters`)
    .refine((t) => t.trim().length > 0, 'Write the message text')
    .superRefine((t, ctx) => {
      const problem = otpTemplateProblem(t);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  codeLength: intIn('Code length', 4, 10).default(6),
  codeType: z.enum(OTP_CODE_TYPES, 'Choose numeric or alphanumeric').default('numeric'),
  ttlMinutes: intIn('Code lifetime', 1, 60).default(10),
  maxAttempts: intIn('Check attempts', 1, 20).default(5),
  sendLimit: intIn('Sends per number', 1, 100).default(5),
  sendWindowMinutes: intIn('Send window', 1, 1440).default(10),
  resendCooldownSeconds: intIn('Resend cooldown', 0, 3600).default(30),
  allowedCountries: z.array(countryCode).max(250).default([]),
  /** The velocity guard: more than `velocityMaxSends` sends to one range in `velocityWindowMinutes`. */
  velocityMaxSends: intIn('Sends per number range', 2, 10_000).default(20),
  velocityWindowMinutes: intIn('Velocity window', 1, 1440).default(10),
  /** A range is the number without its last `velocityRangeDigits` digits (3: a block of 1,000). */
  velocityRangeDigits: intIn('Range size', 1, 6).default(3),
};

export const createOtpServiceSchema = z.object(otpServiceFields);
export type CreateOtpServiceInput = z.input<typeof createOtpServiceSchema>;
export const updateOtpServiceSchema = z.object({
  name: otpServiceFields.name.optional(),
  senderId: safeString().trim().max(15, 'Sender ID must be at most 15 characters').optional(),
  template: otpServiceFields.template.optional(),
  codeLength: intIn('Code length', 4, 10).optional(),
  codeType: z.enum(OTP_CODE_TYPES, 'Choose numeric or alphanumeric').optional(),
  ttlMinutes: intIn('Code lifetime', 1, 60).optional(),
  maxAttempts: intIn('Check attempts', 1, 20).optional(),
  sendLimit: intIn('Sends per number', 1, 100).optional(),
  sendWindowMinutes: intIn('Send window', 1, 1440).optional(),
  resendCooldownSeconds: intIn('Resend cooldown', 0, 3600).optional(),
  allowedCountries: z.array(countryCode).max(250).optional(),
  velocityMaxSends: intIn('Sends per number range', 2, 10_000).optional(),
  velocityWindowMinutes: intIn('Velocity window', 1, 1440).optional(),
  velocityRangeDigits: intIn('Range size', 1, 6).optional(),
});
export type UpdateOtpServiceInput = z.infer<typeof updateOtpServiceSchema>;

export const otpServiceDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  senderId: z.string(),
  template: z.string(),
  codeLength: z.number(),
  codeType: z.enum(OTP_CODE_TYPES),
  ttlMinutes: z.number(),
  maxAttempts: z.number(),
  sendLimit: z.number(),
  sendWindowMinutes: z.number(),
  resendCooldownSeconds: z.number(),
  allowedCountries: z.array(z.string()),
  velocityMaxSends: z.number(),
  velocityWindowMinutes: z.number(),
  velocityRangeDigits: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The last 24 hours. */
  stats: z.object({
    sends24h: z.number(),
    approved24h: z.number(),
    /** approved / sends, 0 to 1 (0 with no sends). */
    verificationRate24h: z.number(),
    blocked24h: z.number(),
  }),
});
export type OtpServiceDto = z.infer<typeof otpServiceDtoSchema>;
export const otpServiceListSchema = z.object({ items: z.array(otpServiceDtoSchema) });
export type OtpServiceList = z.infer<typeof otpServiceListSchema>;

export const OTP_STATUSES = [
  'pending',
  'approved',
  'expired',
  'max_attempts_reached',
  'canceled',
  'blocked',
] as const;
export type OtpStatus = (typeof OTP_STATUSES)[number];

export const otpVerificationDtoSchema = z.object({
  id: z.string(),
  /** Masked. */
  to: z.string(),
  status: z.enum(OTP_STATUSES),
  attempts: z.number(),
  maxAttempts: z.number(),
  /** The SMS's delivery status (null for a blocked send). */
  messageStatus: z.string().nullable(),
  messageId: z.string().nullable(),
  blockedReason: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  approvedAt: z.string().nullable(),
});
export type OtpVerificationDto = z.infer<typeof otpVerificationDtoSchema>;
export const otpVerificationPageSchema = z.object({
  items: z.array(otpVerificationDtoSchema),
  nextCursor: z.string().nullable(),
  /** Number ranges the velocity guard has blocked now (first page only). */
  blockedRanges: z.array(z.object({ range: z.string(), reason: z.string(), until: z.string() })),
});
export type OtpVerificationPage = z.infer<typeof otpVerificationPageSchema>;
export const otpVerificationQuerySchema = z.object({
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const otpStatsQuerySchema = z.object({
  timezone: timeZoneField().optional(),
  days: z.coerce.number().int().min(1).max(90).default(30),
});
export const otpDailyPointSchema = z.object({
  date: z.string(),
  sends: z.number(),
  approved: z.number(),
  blocked: z.number(),
  /** approved / sends, 0 to 1. */
  conversion: z.number(),
});
export type OtpDailyPoint = z.infer<typeof otpDailyPointSchema>;
export const otpStatsResponseSchema = z.object({ timezone: z.string(), days: z.array(otpDailyPointSchema) });
export type OtpStats = z.infer<typeof otpStatsResponseSchema>;

// ---- Public API ----

// Strict, as /v1/messages: a field the operation does not have is a 400 naming it, not ignored.
export const otpSendSchema = z.strictObject({
  to: safeString()
    .trim()
    .min(1, 'Give the phone number to send the code to')
    .max(32, 'Not a valid phone number'),
});
export type OtpSendInput = z.infer<typeof otpSendSchema>;
export const otpSendResultSchema = z.object({
  id: z.string(),
  /** E.164 of the number the code went to (the caller's own input, normalised). */
  to: z.string(),
  status: z.literal('pending'),
  expiresAt: z.string(),
  resendAfter: z.string(),
  messageId: z.string(),
});
export type OtpSendResult = z.infer<typeof otpSendResultSchema>;

export const otpCheckSchema = z
  .strictObject({
    to: safeString().trim().max(32, 'Not a valid phone number').optional(),
    id: z.uuid('Not a verification id').optional(),
    code: safeString().trim().min(1, 'Give the code to check').max(10, 'The code is at most 10 characters'),
  })
  .refine((v) => v.to !== undefined || v.id !== undefined, {
    message: 'Give the number (to) or the verification id (id)',
    path: ['to'],
  });
export type OtpCheckInput = z.infer<typeof otpCheckSchema>;
export const otpCheckResultSchema = z.object({
  id: z.string(),
  status: z.enum(['approved', 'pending', 'expired', 'max_attempts_reached']),
  /** With `pending` after a wrong code: how many checks remain. */
  attemptsLeft: z.number().optional(),
  message: z.string(),
});
export type OtpCheckResult = z.infer<typeof otpCheckResultSchema>;

/** Error codes of the public OTP API (the `code` of a 4xx body); documented on the docs page. */
/**
 * The errors the OTP API answers, in /v1's one shape (`{"error": {"type", "code", "message",
 * "param"?}}`): each a /v1 code (its status and type come from V1_ERRORS) with what it means for
 * OTP. The OTP documentation's table is this list; a test holds it to the OpenAPI document.
 */
export const OTP_API_ERRORS: readonly { code: V1ErrorCode; when: string }[] = [
  { code: 'parameter_invalid', when: 'A field is missing or malformed; `param` names it.' },
  { code: 'body_invalid', when: 'The body is not valid JSON, or not an object.' },
  { code: 'key_missing', when: 'No API key (Authorization: Bearer wren_live_…).' },
  { code: 'key_invalid', when: 'The API key is not valid, revoked, rotated or expired.' },
  { code: 'scope_missing', when: 'The key lacks the `otp` scope.' },
  { code: 'not_found', when: 'Unknown or deleted service, or no verification for that number.' },
  {
    code: 'rate_limited',
    when: 'Send limit per number reached, resend cooldown running, or the number range is paused by the pumping guard; Retry-After says when to try again.',
  },
  {
    code: 'unprocessable',
    when: 'The destination country is not allowed for this service, or the rate plan has no price for it.',
  },
  { code: 'conflict', when: 'The code was already approved; a code can be used once.' },
  { code: 'insufficient_balance', when: 'The account balance does not cover the SMS.' },
  {
    code: 'idempotency_key_reused',
    when: 'The Idempotency-Key was used with another body or endpoint.',
  },
];
