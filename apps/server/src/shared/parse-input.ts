import type { z } from 'zod';
import { FieldError } from '../platform/errors';

/**
 * Validates input that did not come through an HTTP route (for example a hub call) with the same
 * contract schema, failing with the same 400 `{ errors }` shape the routes produce.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.map(String).join('.') || 'body';
    (errors[key] ??= []).push(issue.message);
  }
  throw new FieldError(errors);
}
