import { z } from 'zod';
import { pageCursorSchema, safeString } from './text';

/** Inbound (mobile-originated) messages and the suppression list (issue #10 item 6). */
export const INBOUND_API = {
  list: '/api/inbound',
  suppressions: '/api/suppressions',
  suppression: '/api/suppressions/:number',
  suppressionOf: (number: string) => `/api/suppressions/${encodeURIComponent(number)}`,
} as const;

/** A whole trimmed text, or its first word, equal to one of these (any case) opts the sender out. */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
/** … and one of these opts the sender back in. */
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP', 'YES'] as const;
export type InboundKeyword = (typeof OPT_OUT_KEYWORDS)[number] | (typeof OPT_IN_KEYWORDS)[number];

/** The opt-out/opt-in keyword of an inbound text, or null. */
export function detectKeyword(text: string): InboundKeyword | null {
  const first = text.trim().split(/\s+/, 1)[0]?.toUpperCase() ?? '';
  const word = first.replace(/[.!?,;:]+$/, '');
  const all: readonly string[] = [...OPT_OUT_KEYWORDS, ...OPT_IN_KEYWORDS];
  return all.includes(word) ? (word as InboundKeyword) : null;
}

export const isOptOut = (k: InboundKeyword | null): boolean =>
  k !== null && (OPT_OUT_KEYWORDS as readonly string[]).includes(k);
export const isOptIn = (k: InboundKeyword | null): boolean =>
  k !== null && (OPT_IN_KEYWORDS as readonly string[]).includes(k);

export const INBOUND_PAGE_MAX = 200;

export const inboundQuerySchema = z.object({
  /** The sending handset, or part of it. */
  from: safeString().trim().max(32).optional(),
  /** Part of the text (any case). */
  text: safeString().trim().max(100).optional(),
  /** Received at or after this instant. */
  since: z.iso.datetime({ offset: true }).optional(),
  /** Received before this instant. */
  until: z.iso.datetime({ offset: true }).optional(),
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(INBOUND_PAGE_MAX).default(50),
});
export type InboundQuery = z.infer<typeof inboundQuerySchema>;

export const inboundMessageDtoSchema = z.object({
  id: z.string(),
  /** The handset that sent it (E.164 when the SMSC gave an international number). */
  from: z.string(),
  /** The number or sender ID it was sent to. */
  to: z.string(),
  text: z.string(),
  /** Concatenated parts it was reassembled from. */
  parts: z.number(),
  /** STOP, START, … when the text is an opt-out/opt-in keyword. */
  keyword: z.string().nullable(),
  receivedAt: z.string(),
});
export type InboundMessageDto = z.infer<typeof inboundMessageDtoSchema>;

export const inboundPageSchema = z.object({
  items: z.array(inboundMessageDtoSchema),
  nextCursor: z.string().nullable(),
});
export type InboundPage = z.infer<typeof inboundPageSchema>;

export const SUPPRESSION_REASONS = ['stop_keyword', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export const suppressionDtoSchema = z.object({
  /** E.164 */
  phone: z.string(),
  reason: z.enum(SUPPRESSION_REASONS),
  /** The inbound message that opted the number out (for stop_keyword). */
  inboundMessageId: z.string().nullable(),
  createdAt: z.string(),
});
export type SuppressionDto = z.infer<typeof suppressionDtoSchema>;

export const suppressionListSchema = z.object({ items: z.array(suppressionDtoSchema) });
export type SuppressionList = z.infer<typeof suppressionListSchema>;

export const addSuppressionSchema = z.object({
  phone: safeString().trim().min(1, 'Enter a phone number').max(32),
});
export type AddSuppressionInput = z.infer<typeof addSuppressionSchema>;

/** A recipient a send skipped (not sent, not charged). */
export const suppressedRecipientSchema = z.object({
  recipient: z.string(),
  reason: z.enum(SUPPRESSION_REASONS),
});
export type SuppressedRecipient = z.infer<typeof suppressedRecipientSchema>;
