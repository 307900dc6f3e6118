/**
 * The one place where SMSC message ids are normalised and matched (ARCHITECTURE.md §5).
 *
 * SMSCs write the id of a message in the submit_sm_resp and again in its delivery receipt, not always
 * in the same notation: some answer in hex and report in decimal (Kannel's `msg-id-type`), some pad
 * one of them with zeros, many use opaque strings (UUIDs). A part is stored under ONE key, the
 * canonical form of its submit_sm_resp id. A receipt's id is turned into that form through the
 * connection's notation; nothing is ever stored or looked up under a second, guessed key, so two
 * messages can never share a key because of notation (decimal "16" is also hex for 22).
 */

import { SAME_NOTATION, type IdNotation } from '../platform/smsc-id-notation';

/** The notation setting (its types, parse and format) is configuration: platform/smsc-id-notation.ts. */
export {
  formatIdNotation,
  parseIdNotation,
  SAME_NOTATION,
  type IdNotation,
  type IdNotationSetting,
  type IdRadix,
} from '../platform/smsc-id-notation';

/** Trimmed, lower case, leading zeros stripped: "000123" → "123", " 0A1F " → "a1f". */
export function canonicalId(id: string): string {
  return id
    .trim()
    .toLowerCase()
    .replace(/^0+(?=.)/, '');
}

const DEC = /^[0-9]+$/;
const HEX = /^[0-9a-f]+$/;

/**
 * The key under which a part with this receipt id was stored, given the connection's notation, or
 * undefined when the id cannot be written in the submit notation (a hex id under a decimal rule).
 */
export function receiptKey(receiptId: string, notation: IdNotation): string | undefined {
  const id = canonicalId(receiptId);
  if (id === '') return undefined;
  const { submit, receipt } = notation;
  if (submit === receipt || submit === 'string' || receipt === 'string') return id;
  if (receipt === 'dec') return DEC.test(id) ? BigInt(id).toString(16) : undefined;
  return HEX.test(id) ? BigInt(`0x${id}`).toString(10) : undefined;
}

/** What an id's characters say about its notation. */
type IdShape = 'digits' | 'hex-letters' | 'other';

function shapeOf(id: string): IdShape {
  const c = canonicalId(id);
  if (DEC.test(c)) return 'digits';
  if (HEX.test(c)) return 'hex-letters';
  return 'other';
}

/** Distinct ids per side that must all be plain digits before "decimal" is concluded. */
export const DIGITS_EVIDENCE = 32;

export interface NotationEvidence {
  submitDigits: number;
  submitHexLetters: number;
  submitOther: number;
  receiptDigits: number;
  receiptHexLetters: number;
  receiptOther: number;
}

export const emptyEvidence = (): NotationEvidence => ({
  submitDigits: 0,
  submitHexLetters: 0,
  submitOther: 0,
  receiptDigits: 0,
  receiptHexLetters: 0,
  receiptOther: 0,
});

/**
 * Decides a connection's notation from the shapes of the ids seen so far, or undefined while the
 * evidence is not conclusive. An id with letters a–f is certainly not decimal; an id with any other
 * character is an opaque string. "Decimal" is concluded only from many ids that are all digits,
 * since a hex id can happen to have no letters.
 */
export function decideNotation(e: NotationEvidence): IdNotation | undefined {
  if (e.submitOther > 0 || e.receiptOther > 0) return SAME_NOTATION;
  const submitHex = e.submitHexLetters > 0;
  const receiptHex = e.receiptHexLetters > 0;
  const submitDec = !submitHex && e.submitDigits >= DIGITS_EVIDENCE;
  const receiptDec = !receiptHex && e.receiptDigits >= DIGITS_EVIDENCE;
  if (submitHex && receiptHex) return { submit: 'hex', receipt: 'hex' };
  if (submitDec && receiptDec) return { submit: 'dec', receipt: 'dec' };
  if (submitHex && receiptDec) return { submit: 'hex', receipt: 'dec' };
  if (submitDec && receiptHex) return { submit: 'dec', receipt: 'hex' };
  return undefined;
}

/**
 * How a receipt is matched while a connection's notation is still being learned: by its exact
 * canonical id when nothing seen so far contradicts "same notation on both sides", otherwise not at
 * all (the receipt is parked until the notation is known).
 */
export function provisionalNotation(e: NotationEvidence): IdNotation | undefined {
  const submitHex = e.submitHexLetters > 0;
  const receiptHex = e.receiptHexLetters > 0;
  // Letters on one side only: the other side is probably decimal, but not yet certainly.
  if (submitHex !== receiptHex) return undefined;
  return SAME_NOTATION;
}

/** Adds the shapes of ids to the evidence (each distinct id once is the caller's concern). */
export function addEvidence(e: NotationEvidence, side: 'submit' | 'receipt', ids: readonly string[]): void {
  for (const id of ids) {
    const shape = shapeOf(id);
    if (side === 'submit') {
      if (shape === 'digits') e.submitDigits += 1;
      else if (shape === 'hex-letters') e.submitHexLetters += 1;
      else e.submitOther += 1;
    } else if (shape === 'digits') e.receiptDigits += 1;
    else if (shape === 'hex-letters') e.receiptHexLetters += 1;
    else e.receiptOther += 1;
  }
}
