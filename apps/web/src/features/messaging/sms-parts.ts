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
