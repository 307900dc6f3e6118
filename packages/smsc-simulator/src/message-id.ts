/** How submit_sm_resp message ids are rendered. All formats encode the same underlying counter. */
export type MessageIdFormat = 'hex' | 'hexUpper' | 'decimal' | 'decimalPadded';

/** Notation of the id inside a receipt, relative to the submit_sm_resp id. */
export type IdNotation = 'same' | 'decimal' | 'hex';

export const DEFAULT_PAD_LENGTH = 20;

export function formatMessageId(
  n: number,
  format: MessageIdFormat,
  padLength: number = DEFAULT_PAD_LENGTH,
): string {
  switch (format) {
    case 'hex':
      return n.toString(16);
    case 'hexUpper':
      return n.toString(16).toUpperCase();
    case 'decimal':
      return n.toString(10);
    case 'decimalPadded':
      return n.toString(10).padStart(padLength, '0');
  }
}

/** Render counter `n` in `notation`, where 'same' means the submit_sm_resp format. */
export function renderIdInNotation(
  n: number,
  format: MessageIdFormat,
  notation: IdNotation,
  padLength: number = DEFAULT_PAD_LENGTH,
): string {
  if (notation === 'same') return formatMessageId(n, format, padLength);
  if (notation === 'decimal') return n.toString(10);
  return format === 'hexUpper' ? n.toString(16).toUpperCase() : n.toString(16);
}

/** Sequential id source. The default start is time-based so ids stay unique across restarts. */
export class MessageIdGenerator {
  private counter: number;

  constructor(start: number = Date.now() * 1000) {
    this.counter = start;
  }

  next(): number {
    return this.counter++;
  }
}

function toBigInt(text: string, radix: 10 | 16): bigint | undefined {
  if (radix === 10 ? !/^[0-9]+$/.test(text) : !/^[0-9a-f]+$/i.test(text)) return undefined;
  return BigInt(radix === 10 ? text : `0x${text}`);
}

/**
 * Canonical forms an SMSC message id may have been written in: the id itself (lowercased, leading zeros
 * stripped) and, when it parses as a number, its decimal and hex renderings. Useful for a gateway that
 * must match a receipt id (e.g. decimal) against a submit_sm_resp id (e.g. hex).
 */
export function messageIdCandidates(id: string): string[] {
  const trimmed = id.trim().toLowerCase();
  const out = new Set<string>([trimmed]);
  const dec = toBigInt(trimmed, 10);
  if (dec !== undefined) {
    out.add(dec.toString(10));
    out.add(dec.toString(16));
  }
  const hex = toBigInt(trimmed, 16);
  if (hex !== undefined) {
    out.add(hex.toString(16));
    out.add(hex.toString(10));
  }
  return [...out];
}

/**
 * True when `respId` (from submit_sm_resp) and `receiptId` (from a receipt) plausibly name the same
 * message: equal ignoring case/leading zeros, or the same number in decimal vs hex notation.
 */
export function messageIdsMatch(respId: string, receiptId: string): boolean {
  const a = respId.trim().toLowerCase();
  const b = receiptId.trim().toLowerCase();
  if (a === b) return true;
  const candidates = [toBigInt(a, 10), toBigInt(a, 16)].filter((v) => v !== undefined);
  const others = [toBigInt(b, 10), toBigInt(b, 16)].filter((v) => v !== undefined);
  return candidates.some((x) => others.some((y) => x === y));
}
