import type { z } from 'zod';
import { FieldError } from '../platform/errors';

/** An opaque keyset-pagination cursor: base64url of the JSON of the last row's sort key. */
export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** Decodes a cursor made by `encodeCursor`; a tampered or stale one is a 400 on `cursor`. */
export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
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
