import { z } from 'zod';

/**
 * The SMSC_ID_NOTATION setting: how an SMSC writes message ids in its submit_sm_resp and in its
 * delivery receipts. The matching itself (canonical ids, receipt keys, learning `auto`) is in
 * gateway/message-id.ts.
 */

/** How one side writes its ids: `string` (compared as text), decimal or hexadecimal numbers. */
export type IdRadix = 'string' | 'dec' | 'hex';

/** The notations of a connection: submit_sm_resp ids and receipt ids. */
export interface IdNotation {
  submit: IdRadix;
  receipt: IdRadix;
}

/** A connection's setting: a fixed notation, or `auto` (learned from the first ids of the bind). */
export type IdNotationSetting = IdNotation | 'auto';

export const SAME_NOTATION: IdNotation = { submit: 'string', receipt: 'string' };

/**
 * Parses a notation setting:
 * - `auto` (the default);
 * - `string`, `dec`, `hex`: both sides alike;
 * - `dec/hex`, `hex/dec`, …: submit_sm_resp / receipt;
 * - Kannel's `msg-id-type` numbers `0`–`3`: bit 0 = submit_sm_resp in hex, bit 1 = receipt in hex.
 * Returns undefined for anything else.
 */
export function parseIdNotation(text: string): IdNotationSetting | undefined {
  const v = text.trim().toLowerCase();
  if (v === 'auto' || v === '') return 'auto';
  if (/^[0-3]$/.test(v)) {
    const n = Number(v);
    return { submit: n & 1 ? 'hex' : 'dec', receipt: n & 2 ? 'hex' : 'dec' };
  }
  const radix = (s: string | undefined): IdRadix | undefined =>
    s === 'string' || s === 'dec' || s === 'hex' ? s : undefined;
  const [a, b, extra] = v.split('/');
  const submit = radix(a);
  const receipt = b === undefined ? submit : radix(b);
  if (!submit || !receipt || extra !== undefined) return undefined;
  return { submit, receipt };
}

export function formatIdNotation(n: IdNotationSetting): string {
  return n === 'auto' ? 'auto' : `${n.submit}/${n.receipt}`;
}

/** A notation setting as text (SMSC_ID_NOTATION, a connection's `idNotation`), parsed; else an issue. */
export function idNotationSchema() {
  return z.string().transform((v, ctx) => {
    const n = parseIdNotation(v);
    if (n === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'use auto, string, dec, hex, submit/receipt such as hex/dec, or 0-3 as Kannel msg-id-type',
      });
      return z.NEVER;
    }
    return n;
  });
}
