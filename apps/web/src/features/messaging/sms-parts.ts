import { SegmentedMessage } from 'sms-segments-calculator';

interface EncodedCharLike {
  raw?: unknown;
  isUserDataHeader?: boolean;
}

/**
 * The text cut into the segments it is sent as. (Segments are Array subclasses whose species
 * constructor misbehaves for length 1, so they are copied to plain arrays before mapping.)
 */
export function segmentParts(text: string): string[] {
  if (!text) return [];
  return new SegmentedMessage(text).segments.map((segment) =>
    Array.from(segment as unknown as EncodedCharLike[])
      .filter((c) => !c.isUserDataHeader && typeof c.raw === 'string')
      .map((c) => c.raw as string)
      .join(''),
  );
}

/** Characters a segment holds: 160 (GSM-7) or 70 (UCS-2) alone, 153 or 67 when concatenated. */
export function segmentCapacity(encoding: 'GSM-7' | 'UCS-2', segments: number): number {
  if (encoding === 'GSM-7') return segments > 1 ? 153 : 160;
  return segments > 1 ? 67 : 70;
}
