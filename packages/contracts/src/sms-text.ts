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
  const info = analyse(text);
  if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
  recent.set(text, info);
  return info;
}

function analyse(text: string): SmsTextInfo {
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
