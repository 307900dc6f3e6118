import { safeString } from '@wren/contracts';
import { z } from 'zod';
import { FieldError } from '../platform/errors';

/**
 * Keyset-pagination cursors, one schema for all of them. A cursor is base64url of the JSON of the
 * last row's sort key. Every key is built from the parts below, so a forged cursor (a bad uuid, a
 * date that is not one or is out of range, a NUL) is a 400 on `cursor` and never reaches SQL.
 */

/** yyyy-mm-dd, T or space, hh:mm:ss, up to 6 fraction digits, Z or ±hh[[:]mm]. */
const TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2}))?)$/;

/** A real calendar instant in years 1000–9999, as `toISOString()` or PostgreSQL's timestamptz text writes it. */
export function isCursorTime(s: string): boolean {
  const m = TIME.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = m
    .slice(1)
    .map((v) => Number(v ?? 0));
  if (year < 1000 || hour > 23 || minute > 59 || second > 59) return false;
  if (offsetHours > 15 || offsetMinutes > 59) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The parts a cursor key is made of. */
export const cursorTime = z.string().max(40).refine(isCursorTime);
export const cursorId = z.uuid();
export const cursorText = safeString().max(200);

/** `[created_at ISO, id]`: the SMS log, the inbox and other newest-first lists. */
export const timeIdCursor = z.tuple([cursorTime, cursorId]);

/** An opaque keyset-pagination cursor: base64url of the JSON of the last row's sort key. */
export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** Decodes a cursor made by `encodeCursor`; a tampered or stale one is a 400 on `cursor`. */
export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    if (!/^[A-Za-z0-9_-]*$/.test(cursor)) throw new Error('not base64url');
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalidCursor();
  return parsed.data;
}

const invalidCursor = () =>
  new FieldError({ cursor: ['This page link is no longer valid; start again from the first page'] });
