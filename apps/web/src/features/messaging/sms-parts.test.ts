import { describe, expect, it } from 'vitest';
import { segmentCapacity, segmentParts } from './sms-parts';

describe('segmentParts', () => {
  it('cuts GSM-7 text at 153 characters once it needs more than one segment', () => {
    expect(segmentParts('')).toEqual([]);
    expect(segmentParts('a')).toEqual(['a']);
    expect(segmentParts('x'.repeat(160))).toEqual(['x'.repeat(160)]);
    expect(segmentParts('x'.repeat(161))).toEqual(['x'.repeat(153), 'x'.repeat(8)]);
    expect(segmentParts('x'.repeat(307))).toEqual(['x'.repeat(153), 'x'.repeat(153), 'x']);
  });

  it('cuts UCS-2 text at 67 characters', () => {
    const parts = segmentParts('ł'.repeat(71));
    expect(parts.map((p) => p.length)).toEqual([67, 4]);
  });
});

describe('segmentCapacity', () => {
  it('is 160/153 for GSM-7 and 70/67 for UCS-2', () => {
    expect(segmentCapacity('GSM-7', 1)).toBe(160);
    expect(segmentCapacity('GSM-7', 3)).toBe(153);
    expect(segmentCapacity('UCS-2', 1)).toBe(70);
    expect(segmentCapacity('UCS-2', 2)).toBe(67);
  });
});
