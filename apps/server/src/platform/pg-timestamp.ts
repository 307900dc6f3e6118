import pg from 'pg';

/** PostgreSQL's type oid of `timestamptz`. */
export const TIMESTAMPTZ = 1184;

/** pg's own reader of timestamptz text (the postgres-date package): the reference, and the fallback. */
export const parseTimestamptzReference = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (
  text: string,
) => Date | number | null;

/** The digits of `text` from `at`, `len` of them, as a number; -1 if one is not a digit. */
function digits(text: string, at: number, len: number) {
  let n = 0;
  for (let i = at; i < at + len; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Reads a `timestamptz` as PostgreSQL writes it in its default ISO style (`DateStyle = ISO`):
 * `YYYY-MM-DD HH:MM:SS[.ffffff]±HH[:MM[:SS]]`, the offset that of the session's TimeZone at that
 * instant. Gives exactly what pg's own reader (postgres-date) gives (phone.test-style reference test
 * in pg-timestamp.test.ts), at a tenth of its cost: it is a regular expression and three more per
 * value, and a page of the SMS log reads five timestamps for each of its 50 rows (15 % of Wren's
 * time on that request, bench:log). Any other shape (BC, infinity, years outside 100–9999, other
 * DateStyles) goes to pg's reader.
 */
export function parseTimestamptz(text: string): Date | number | null {
  const n = text.length;
  if (
    n < 22 ||
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 32 || // space
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58
  ) {
    return parseTimestamptzReference(text);
  }
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  // Years 0–99 are 1900–1999 to Date.UTC: pg's reader corrects that; these are left to it.
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
    return parseTimestamptzReference(text);
  }
  let i = 19;
  // Milliseconds: the fraction's first three digits (what 1000 × the fraction truncates to, for
  // every fraction of up to six digits).
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    i += 1;
    const start = i;
    while (i < n) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      if (i - start < 3) ms = ms * 10 + d;
      i += 1;
    }
    if (i === start || i - start > 6) return parseTimestamptzReference(text);
    for (let k = i - start; k < 3; k++) ms *= 10;
  }
  const sign = text.charCodeAt(i);
  if (sign !== 43 && sign !== 45) return parseTimestamptzReference(text); // + or -
  const offH = digits(text, i + 1, 2);
  i += 3;
  let offM = 0;
  let offS = 0;
  if (i < n && text.charCodeAt(i) === 58) {
    offM = digits(text, i + 1, 2);
    i += 3;
    if (i < n && text.charCodeAt(i) === 58) {
      offS = digits(text, i + 1, 2);
      i += 3;
    }
  }
  if (i !== n || offH < 0 || offM < 0 || offS < 0) return parseTimestamptzReference(text);
  const offset = (sign === 45 ? -1 : 1) * (offH * 3600 + offM * 60 + offS) * 1000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset);
}
