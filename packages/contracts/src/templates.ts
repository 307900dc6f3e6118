import { z } from 'zod';
import { safeString } from './text';

/** Saved message (SMS template) endpoints (issue #6). */
export const TEMPLATES_API = {
  list: '/api/templates',
  item: '/api/templates/:id',
} as const;

export const TEMPLATE_TEXT_MAX = 1600;

export const templateNameSchema = safeString()
  .trim()
  .min(1, 'Template name is required')
  .max(100, 'Template name must be at most 100 characters');
export const templateTextSchema = safeString()
  .max(TEMPLATE_TEXT_MAX, `The message must be at most ${TEMPLATE_TEXT_MAX} characters`)
  .refine((t) => t.trim().length > 0, 'Write the message text');

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
