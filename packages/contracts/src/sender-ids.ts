import { z } from 'zod';
import { pageCursorSchema, safeString } from './text';

/** Sender ID endpoints (issue #6). `:id` segments are filled with `fillApiPath`. */
export const SENDER_ID_API = {
  list: '/api/sender-ids',
  item: '/api/sender-ids/:id',
  setDefault: '/api/sender-ids/:id/default',
  adminList: '/api/admin/sender-ids',
  adminApprove: '/api/admin/sender-ids/:id/approve',
  adminReject: '/api/admin/sender-ids/:id/reject',
} as const;

export const SENDER_ID_STATUSES = ['requested', 'approved', 'rejected'] as const;
export type SenderIdStatus = (typeof SENDER_ID_STATUSES)[number];
export type SenderIdKind = 'alphanumeric' | 'numeric';

export const SENDER_ID_MAX_ALPHANUMERIC = 11;
export const SENDER_ID_MAX_DIGITS = 15;
export const SENDER_ID_MIN_DIGITS = 3;

/** The printable part of the GSM 03.38 basic character set (no line breaks, no escape). */
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);

export type SenderIdCheck = { ok: true; kind: SenderIdKind; value: string } | { ok: false; message: string };

/**
 * Classifies and normalises a sender ID. Numeric: up to 15 digits (spaces, dashes and a leading +
 * are dropped). Alphanumeric: up to 11 GSM characters with at least one letter (so never all digits).
 */
export function checkSenderId(input: string): SenderIdCheck {
  const raw = input.trim();
  if (!raw) return { ok: false, message: 'Enter a sender ID' };
  const compact = raw.replace(/[\s-]/g, '');
  if (/^\+?\d+$/.test(compact)) {
    const digits = compact.replace('+', '');
    if (digits.length > SENDER_ID_MAX_DIGITS)
      return { ok: false, message: `A numeric sender ID can have at most ${SENDER_ID_MAX_DIGITS} digits` };
    if (digits.length < SENDER_ID_MIN_DIGITS)
      return { ok: false, message: `A numeric sender ID needs at least ${SENDER_ID_MIN_DIGITS} digits` };
    return { ok: true, kind: 'numeric', value: digits };
  }
  const chars = [...raw];
  // Characters first: "Nadia's Shop! 🌻" is told about the 🌻, not only that it is long.
  const bad = [...new Set(chars.filter((c) => !GSM_BASIC.has(c)))];
  if (bad.length) {
    return {
      ok: false,
      message: `A sender ID can use only letters, digits, spaces and common punctuation; remove ${bad.map((c) => `"${c}"`).join(', ')}`,
    };
  }
  if (chars.length > SENDER_ID_MAX_ALPHANUMERIC) {
    return {
      ok: false,
      message: `An alphanumeric sender ID can have at most ${SENDER_ID_MAX_ALPHANUMERIC} characters`,
    };
  }
  if (!chars.some((c) => /\p{L}/u.test(c))) {
    return { ok: false, message: 'An alphanumeric sender ID must contain at least one letter' };
  }
  return { ok: true, kind: 'alphanumeric', value: raw };
}

/** A sender ID value; parses to the normalised value. */
export const senderIdValueSchema = safeString()
  .max(40, 'A sender ID can have at most 15 digits or 11 characters')
  .superRefine((v, ctx) => {
    const r = checkSenderId(v);
    if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
  })
  .transform((v) => {
    const r = checkSenderId(v);
    return r.ok ? r.value : v;
  });

export const createSenderIdSchema = z.object({
  value: senderIdValueSchema,
  purpose: safeString()
    .trim()
    .min(3, 'Describe what you will send with this sender ID')
    .max(500, 'The purpose must be at most 500 characters'),
  sampleMessage: safeString()
    .trim()
    .min(1, 'Give a sample message')
    .max(1000, 'The sample message must be at most 1000 characters'),
});
export type CreateSenderIdInput = z.input<typeof createSenderIdSchema>;

/** The body is optional (an empty POST has a null body). */
export const approveSenderIdSchema = z
  .object({ reason: safeString().trim().max(500, 'The reason must be at most 500 characters').optional() })
  .nullish()
  .transform((b) => b ?? {});
export const rejectSenderIdSchema = z.object({
  reason: safeString()
    .trim()
    .min(1, 'Give a reason for the rejection')
    .max(500, 'The reason must be at most 500 characters'),
});
export type SenderIdDecisionInput = { reason?: string };

export const adminSenderIdQuerySchema = z.object({
  status: z.enum(SENDER_ID_STATUSES).optional(),
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type AdminSenderIdQuery = z.infer<typeof adminSenderIdQuerySchema>;

export const senderIdDtoSchema = z.object({
  id: z.string(),
  value: z.string(),
  kind: z.enum(['alphanumeric', 'numeric']),
  purpose: z.string(),
  sampleMessage: z.string(),
  status: z.enum(SENDER_ID_STATUSES),
  /** Why it was rejected (or a note on approval); null while requested. */
  reason: z.string().nullable(),
  /** The account's default sender for sends that name none. Only an approved one can be default. */
  isDefault: z.boolean(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type SenderIdDto = z.infer<typeof senderIdDtoSchema>;

export const adminSenderIdDtoSchema = /* @__PURE__ */ senderIdDtoSchema.extend({
  accountId: z.string(),
  accountName: z.string(),
});
export type AdminSenderIdDto = z.infer<typeof adminSenderIdDtoSchema>;

/** How new sender IDs are approved on this server (SENDER_ID_APPROVAL). */
export const SENDER_ID_APPROVALS = ['manual', 'auto'] as const;
export type SenderIdApprovalMode = (typeof SENDER_ID_APPROVALS)[number];

export const senderIdListSchema = z.object({
  items: z.array(senderIdDtoSchema),
  /** `manual`: a request waits for review by the platform's team; `auto`: approved on request. */
  approval: z.enum(SENDER_ID_APPROVALS),
  /** The platform's shared sender (DEFAULT_SENDER): every account may send from it, unrequested. */
  platformSender: z.string(),
});
export type SenderIdList = z.infer<typeof senderIdListSchema>;

export const adminSenderIdPageSchema = z.object({
  items: z.array(adminSenderIdDtoSchema),
  nextCursor: z.string().nullable(),
});
export type AdminSenderIdPage = z.infer<typeof adminSenderIdPageSchema>;

/**
 * Fills the `:name` segments of an API path pattern. Throws when the values do not match the
 * pattern's parameters one to one.
 */
export function fillApiPath(pattern: string, params: Record<string, string> = {}): string {
  const names = [...pattern.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  const given = Object.keys(params);
  if (names.length !== given.length || names.some((n) => !(n in params))) {
    throw new Error(
      `${pattern} needs ${names.length} parameter(s) (${names.join(', ')}), got ${given.length}`,
    );
  }
  return pattern.replace(/:([A-Za-z]+)/g, (_, n: string) => encodeURIComponent(params[n]));
}
