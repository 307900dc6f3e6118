import { analyseSmsText } from '@wren/contracts';

/** The text cut into the segments it is sent as. */
export function segmentParts(text: string): string[] {
  return text ? analyseSmsText(text).parts : [];
}

/** Characters a segment holds: 160 (GSM-7) or 70 (UCS-2) alone, 153 or 67 when concatenated. */
export function segmentCapacity(encoding: 'GSM-7' | 'UCS-2', segments: number): number {
  if (encoding === 'GSM-7') return segments > 1 ? 153 : 160;
  return segments > 1 ? 67 : 70;
}

/** GSM 03.38 extension characters: an escape plus a septet, 2 septets each. */
const GSM7_EXTENSION = '\f[\\]^{|}~€';

/** A text's size in its encoding's units: septets (GSM-7) or UTF-16 code units (UCS-2). */
export function encodedUnits(text: string, encoding: 'GSM-7' | 'UCS-2'): number {
  if (encoding === 'UCS-2') return text.length;
  let septets = 0;
  for (const c of text) septets += GSM7_EXTENSION.includes(c) ? 2 : 1;
  return septets;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** Characters as the user sees them: "🎉", "€" and "👍🏽" are one each. */
export const visibleCharacters = (text: string): number => [...graphemes.segment(text)].length;

/**
 * The counter's figures: characters as seen, and the septets (GSM-7) or UCS-2 units left in the
 * current (last) segment, so an escape (€, counts 2) or a surrogate pair (🎉, counts 2) is counted right.
 */
export function smsCounter(
  text: string,
  info: { encoding: 'GSM-7' | 'UCS-2'; segments: number; parts: string[] },
) {
  const segments = Math.max(1, info.segments);
  const last = info.parts.at(-1) ?? '';
  return {
    characters: visibleCharacters(text),
    left: Math.max(0, segmentCapacity(info.encoding, segments) - encodedUnits(last, info.encoding)),
  };
}
