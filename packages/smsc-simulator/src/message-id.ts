import { randomUUID } from 'node:crypto';
import { createRandom, type Random } from './faults.js';

/**
 * How submit_sm_resp message ids are rendered. The counter formats (`hex`, `hexUpper`, `decimal`,
 * `decimalPadded`) render one sequential number; `randomHex` is a random-looking unique number in 8-16
 * hex digits; `uuid` is an opaque random UUID (no number behind it).
 */
export type MessageIdFormat = 'hex' | 'hexUpper' | 'decimal' | 'decimalPadded' | 'randomHex' | 'uuid';

/** Notation of the id inside a receipt, relative to the submit_sm_resp id. */
export type IdNotation = 'same' | 'decimal' | 'hex';

/** Id behaviours of real SMSCs, each setting the format, receipt notations and counter start. */
export type IdFormatPreset =
  'seq-dec' | 'seq-hex' | 'random-hex' | 'uuid' | 'zero-padded' | 'hex-resp-dec-receipt';

/** Value of the `idFormat` option / `--id-format` flag: a preset or a plain MessageIdFormat. */
export type IdFormat = IdFormatPreset | MessageIdFormat;

export const MESSAGE_ID_FORMATS: readonly MessageIdFormat[] = [
  'hex',
  'hexUpper',
  'decimal',
  'decimalPadded',
  'randomHex',
  'uuid',
];

export interface IdFormatSettings {
  messageIdFormat: MessageIdFormat;
  messageIdPadLength?: number;
  receiptIdNotation?: IdNotation;
  receiptTlvIdNotation?: IdNotation | 'none';
  messageIdStart?: number;
}

/** What each preset sets; options given explicitly next to `idFormat` override these. */
export const ID_FORMAT_PRESETS: Readonly<Record<IdFormatPreset, IdFormatSettings>> = {
  /** 1, 2, 3 … in the response and the receipt (Kannel's fake SMSC). */
  'seq-dec': {
    messageIdFormat: 'decimal',
    receiptIdNotation: 'same',
    receiptTlvIdNotation: 'same',
    messageIdStart: 1,
  },
  /** 1, 2, … a, b … lowercase hex everywhere. */
  'seq-hex': {
    messageIdFormat: 'hex',
    receiptIdNotation: 'same',
    receiptTlvIdNotation: 'same',
    messageIdStart: 1,
  },
  /** Random unique hex ids of 8-16 digits, the same in the receipt. */
  'random-hex': { messageIdFormat: 'randomHex', receiptIdNotation: 'same', receiptTlvIdNotation: 'same' },
  /** Random UUIDs (opaque strings). */
  uuid: { messageIdFormat: 'uuid', receiptIdNotation: 'same', receiptTlvIdNotation: 'same' },
  /** 0000000001 in the response, 1 in the receipt text and TLV. */
  'zero-padded': {
    messageIdFormat: 'decimalPadded',
    messageIdPadLength: 10,
    receiptIdNotation: 'decimal',
    receiptTlvIdNotation: 'decimal',
    messageIdStart: 1,
  },
  /** ff in the response, 255 in the receipt text and TLV. */
  'hex-resp-dec-receipt': {
    messageIdFormat: 'hex',
    receiptIdNotation: 'decimal',
    receiptTlvIdNotation: 'decimal',
    messageIdStart: 1,
  },
};

export const ID_FORMATS: readonly IdFormat[] = [
  ...(Object.keys(ID_FORMAT_PRESETS) as IdFormatPreset[]),
  ...MESSAGE_ID_FORMATS.filter((f) => f !== 'uuid'),
];

/** Settings of an `idFormat` value (a plain MessageIdFormat sets only the format). */
export function idFormatSettings(format: IdFormat): IdFormatSettings {
  if (format in ID_FORMAT_PRESETS) return ID_FORMAT_PRESETS[format as IdFormatPreset];
  if (!(MESSAGE_ID_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`unknown idFormat "${String(format)}" (expected ${ID_FORMATS.join('|')})`);
  }
  return { messageIdFormat: format as MessageIdFormat };
}

export const DEFAULT_PAD_LENGTH = 20;

/** Render a number in a numeric format ('randomHex' renders hex; 'uuid' has no numeric rendering). */
export function formatMessageId(
  n: number | bigint,
  format: MessageIdFormat,
  padLength: number = DEFAULT_PAD_LENGTH,
): string {
  switch (format) {
    case 'hex':
    case 'randomHex':
      return n.toString(16);
    case 'hexUpper':
      return n.toString(16).toUpperCase();
    case 'decimal':
      return n.toString(10);
    case 'decimalPadded':
      return n.toString(10).padStart(padLength, '0');
    case 'uuid':
      throw new Error('uuid ids are not numbers');
  }
}

/** Render counter `n` in `notation`, where 'same' means the submit_sm_resp format. */
export function renderIdInNotation(
  n: number | bigint,
  format: MessageIdFormat,
  notation: IdNotation,
  padLength: number = DEFAULT_PAD_LENGTH,
): string {
  if (notation === 'same') return formatMessageId(n, format, padLength);
  if (notation === 'decimal') return n.toString(10);
  return format === 'hexUpper' ? n.toString(16).toUpperCase() : n.toString(16);
}

export interface GeneratedId {
  /** The id as written in submit_sm_resp. */
  id: string;
  /** The number behind it (undefined for uuid). */
  n: bigint | undefined;
}

const MIN_HEX_DIGITS = 8;
const MAX_HEX_DIGITS = 16;
const FEISTEL_ROUNDS = 4;

/**
 * A keyed bijection on [0, 2^bits) (balanced Feistel network, `bits` even). Distinct inputs give
 * distinct outputs, so a counter pushed through it yields unique random-looking numbers.
 */
function feistel(x: bigint, bits: number, keys: readonly bigint[]): bigint {
  const half = BigInt(bits / 2);
  const mask = (1n << half) - 1n;
  let l = x >> half;
  let r = x & mask;
  for (const k of keys) {
    let f = ((r ^ k) * 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    f ^= f >> 29n;
    [l, r] = [r, l ^ (f & mask)];
  }
  return (l << half) | r;
}

/**
 * Unique random-looking hex ids of 8-16 digits (no leading zero, so the digit count is the length).
 * Each length has its own counter, permuted over the numbers of that length by a keyed Feistel network
 * (cycle walking keeps it inside the range): unique by construction, without remembering issued ids.
 */
class RandomHexIds {
  private readonly counters = new Map<number, bigint>();
  private readonly keys: bigint[];

  constructor(private readonly rand: Random) {
    this.keys = Array.from({ length: FEISTEL_ROUNDS }, () => {
      const hi = BigInt(Math.floor(rand() * 2 ** 32));
      const lo = BigInt(Math.floor(rand() * 2 ** 32));
      return (hi << 32n) | lo;
    });
  }

  next(): bigint {
    const digits = MIN_HEX_DIGITS + Math.floor(this.rand() * (MAX_HEX_DIGITS - MIN_HEX_DIGITS + 1));
    const low = 16n ** BigInt(digits - 1); // smallest number with `digits` hex digits
    const range = 16n ** BigInt(digits) - low;
    const c = this.counters.get(digits) ?? 0n;
    if (c >= range) throw new Error(`random-hex ids of ${digits} digits exhausted`);
    this.counters.set(digits, c + 1n);
    let y = feistel(c, digits * 4, this.keys);
    while (y >= range) y = feistel(y, digits * 4, this.keys);
    return low + y;
  }
}

/**
 * The id source of one simulator run. The sequential counter starts at `start` (default
 * Date.now() * 1000, unique across restarts) and is shared by every counter format; randomHex and uuid
 * ids are unique within the run. `seed` makes randomHex ids reproducible.
 */
export class MessageIdGenerator {
  private counter: number;
  private randomHex: RandomHexIds | undefined;

  constructor(
    start: number = Date.now() * 1000,
    private readonly seed?: number,
  ) {
    this.counter = start;
  }

  next(format: MessageIdFormat, padLength: number = DEFAULT_PAD_LENGTH): GeneratedId {
    if (format === 'uuid') return { id: randomUUID(), n: undefined };
    if (format === 'randomHex') {
      this.randomHex ??= new RandomHexIds(createRandom(this.seed));
      const n = this.randomHex.next();
      return { id: n.toString(16), n };
    }
    const n = BigInt(this.counter++);
    return { id: formatMessageId(n, format, padLength), n };
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
