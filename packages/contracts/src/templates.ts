import { z } from 'zod';
import { analyseSmsText, MAX_SEGMENTS } from './sms-text';
import { safeString } from './text';

/** Saved message (SMS template) endpoints (issue #6). */
export const TEMPLATES_API = {
  list: '/api/templates',
  item: '/api/templates/:id',
} as const;

/**
 * A hard cap in UTF-16 units, checked before the text is analysed. Every text this long is already
 * more than {@link MAX_SEGMENTS} segments (10 GSM-7 segments hold 1,530 septets), so the limit users
 * meet is the segment count; this only keeps huge inputs from being analysed.
 */
export const TEMPLATE_TEXT_MAX = 1600;

/** Why a message text is too long to send, or null when it fits in {@link MAX_SEGMENTS} segments. */
export function smsTextTooLong(text: string): string | null {
  if (text.length > TEMPLATE_TEXT_MAX) return `The message is too long: more than ${MAX_SEGMENTS} segments`;
  const { segments } = analyseSmsText(text);
  return segments > MAX_SEGMENTS
    ? `The message is too long: ${segments} segments (at most ${MAX_SEGMENTS})`
    : null;
}

export const templateNameSchema = safeString()
  .trim()
  .min(1, 'Template name is required')
  .max(100, 'Template name must be at most 100 characters');
/** Written as the user sees it, placeholders counted as written: the form checks the same rule. */
export const templateTextSchema = safeString().superRefine((text, ctx) => {
  if (text.trim().length === 0) {
    ctx.addIssue({ code: 'custom', message: 'Write the message text' });
    return;
  }
  const tooLong = smsTextTooLong(text);
  if (tooLong) ctx.addIssue({ code: 'custom', message: tooLong });
});

export const saveTemplateSchema = z.object({ name: templateNameSchema, text: templateTextSchema });
export type SaveTemplateInput = z.infer<typeof saveTemplateSchema>;
export const updateTemplateSchema = z.object({
  name: templateNameSchema.optional(),
  text: templateTextSchema.optional(),
});
export type UpdateTemplateInput = z.infer<typeof updateTemplateSchema>;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The `{{name}}`-style placeholders a text uses, each once, in order of first use. */
export function extractPlaceholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];
}

export const templateDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  text: z.string(),
  placeholders: z.array(z.string()),
  /** Of the text as written (placeholders not yet filled in). */
  encoding: z.enum(['GSM-7', 'UCS-2']),
  segments: z.number(),
  /** In the encoding's units: GSM-7 escapes (€ [ ] { } ~ …) count 2. */
  characters: z.number(),
  /** Characters that force UCS-2. */
  unicodeChars: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TemplateDto = z.infer<typeof templateDtoSchema>;
export const templateListSchema = z.object({ items: z.array(templateDtoSchema) });
export type TemplateList = z.infer<typeof templateListSchema>;
