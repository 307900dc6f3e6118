import { SegmentedMessage } from 'sms-segments-calculator';

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsTextInfo {
  encoding: SmsEncoding;
  segments: number;
  /** Length in the encoding's units: GSM-7 escapes (€ [ ] ~ …) count 2. */
  characters: number;
  /** The text cut into the segments it will be sent as. */
  parts: string[];
  /** Characters that force UCS-2, in order of first appearance. */
  unicodeChars: string[];
}

/** Longest text we accept: 10 concatenated segments. */
export const MAX_SEGMENTS = 10;

interface EncodedCharLike {
  raw?: string;
  isGSM7?: boolean;
  isUserDataHeader?: boolean;
}

/** Recent results: a campaign sends one text many times, and a form re-counts as the user types. */
const recent = new Map<string, SmsTextInfo>();
const RECENT_MAX = 256;

/**
 * Encoding, segment count (160/153 GSM-7, 70/67 UCS-2) and the parts, from sms-segments-calculator.
 * The result is shared between callers with the same text: treat it as read-only.
 */
export function analyseSmsText(text: string): SmsTextInfo {
  const hit = recent.get(text);
  if (hit) return hit;
  const info = analyseGsm7(text) ?? analyseWithLibrary(text);
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
  recent.set(text, info);
  return info;
}

/** GSM 03.38 default alphabet (one septet each) and its extension table (escape + septet). */
const GSM7_BASIC =
  '\n\r !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz¡£¤¥§¿ÄÅÆÇÉÑÖØÜßàäåæèéìñòöøùüΓΔΘΛΞΠΣΦΨΩ';
const GSM7_EXTENSION = '\f[\\]^{|}~€';
/** Septets per UTF-16 code unit (1 or 2), 0 when the fast path does not take the unit. */
const SEPTETS = new Uint8Array(0x10000);
for (const c of GSM7_BASIC) SEPTETS[c.charCodeAt(0)] = 1;
for (const c of GSM7_EXTENSION) SEPTETS[c.charCodeAt(0)] = 2;
// CR is GSM-7, but CR LF is one grapheme to the library (and so UCS-2): texts with CR go there.
SEPTETS[0x0d] = 0;
const GSM7_SINGLE = 160;
const GSM7_CONCATENATED = 153;

/**
 * The common case without the grapheme splitter: a text made only of GSM-7 characters, where every
 * UTF-16 unit is its own character. CR is left to the library (CR LF is one grapheme there). Gives
 * exactly what sms-segments-calculator gives (checked over every code unit and random texts in the
 * tests): 160 septets in one part, else parts of at most 153, an escaped character never split.
 */
export function analyseGsm7(text: string): SmsTextInfo | undefined {
  let septets = 0;
  for (let i = 0; i < text.length; i++) {
    const size = SEPTETS[text.charCodeAt(i)];
    if (size === 0) return undefined;
    septets += size;
  }
  const parts: string[] = [];
  if (septets <= GSM7_SINGLE) {
    parts.push(text);
  } else {
    let start = 0;
    let used = 0;
    for (let i = 0; i < text.length; i++) {
      const size = SEPTETS[text.charCodeAt(i)];
      if (used + size > GSM7_CONCATENATED) {
        parts.push(text.slice(start, i));
        start = i;
        used = 0;
      }
      used += size;
    }
    parts.push(text.slice(start));
  }
  return { encoding: 'GSM-7', segments: parts.length, characters: septets, parts, unicodeChars: [] };
}

/** Any text, through sms-segments-calculator (graphemes, UCS-2). Exported as the tests' reference. */
export function analyseWithLibrary(text: string): SmsTextInfo {
  const m = new SegmentedMessage(text);
  // Segments are Array subclasses whose species constructor misbehaves (filter on a short segment
  // yields a stray object), so copy each to a plain array first.
  const parts = m.segments.map((seg) =>
    Array.from(seg as EncodedCharLike[])
      .filter((c) => !c.isUserDataHeader && typeof c.raw === 'string')
      .map((c) => c.raw)
      .join(''),
  );
  const unicodeChars = [
    ...new Set(
      (m.encodedChars as EncodedCharLike[]).filter((c) => c.isGSM7 === false).map((c) => c.raw ?? ''),
    ),
  ];
  return {
    encoding: m.encodingName,
    segments: m.segmentsCount,
    characters: m.numberOfCharacters,
    parts,
    unicodeChars: m.encodingName === 'UCS-2' ? unicodeChars : [],
  };
}
