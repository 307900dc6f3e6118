import { z } from 'zod';

/** U+0000, or a UTF-16 surrogate that is not half of a pair (with the `u` flag a pair is one code point). */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this rule is for
const UNSAFE_TEXT = /[\u0000\uD800-\uDFFF]/u;

export const UNSAFE_TEXT_MESSAGE =
  'Remove the character that is not allowed here (a NUL byte or a broken Unicode character)';

/** True when a text holds no NUL and no lone surrogate: what PostgreSQL and UTF-8 can store as is. */
export const isSafeText = (s: string): boolean => !UNSAFE_TEXT.test(s);

/**
 * The one string rule for input: `z.string()` that rejects NUL (PostgreSQL refuses it) and lone
 * surrogates (they become U+FFFD on the way to the database). Every text field of a request schema
 * starts here; the contracts test walks the schemas to keep it so.
 */
export const safeString = () => z.string().refine(isSafeText, { message: UNSAFE_TEXT_MESSAGE, abort: true });

/**
 * A page cursor as it travels in a query string: opaque base64url made by the server. What it
 * decodes to is checked on the server by the one cursor schema (apps/server/src/shared/cursor.ts).
 */
export const pageCursorSchema = z
  .string()
  .max(500, 'This page link is not valid; start again from the first page')
  .regex(/^[A-Za-z0-9_-]*$/, 'This page link is not valid; start again from the first page');

/**
 * The success response of a route that sends a file (CSV, an image) rather than JSON. It documents
 * the media type for OpenAPI; the body is a stream or bytes, which Fastify never serializes.
 */
export const fileResponse = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: z.any() } },
});

// Schema factories here are marked pure in apps/web/vite.config.ts (manualPureFunctions), or zod
// stays in the web app's first load.

/** Whether the JavaScript runtime knows the IANA time zone `tz` (any alias, any case). */
export function isKnownTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/**
 * A time zone field, checked against the runtime's zones. The server checks it again against
 * PostgreSQL's, which lack some aliases the runtime accepts, and stores PostgreSQL's spelling
 * (apps/server/src/shared/time-zones.ts).
 */
export const timeZoneField = () => safeString().trim().max(64).refine(isKnownTimeZone, 'Unknown time zone');

/**
 * The text of an SMS to send: up to `max` characters and not only spaces or line breaks (a blank SMS
 * was accepted and charged). Leading and trailing spaces of a real text are kept: they are its own.
 */
export const messageTextField = (max: number, tooLong: string) =>
  safeString()
    .min(1, { message: 'Write a message', abort: true })
    .max(max, tooLong)
    .refine((s) => s.trim() !== '', 'Write a message');
