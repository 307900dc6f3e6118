import { describe, expect, it } from 'vitest';
import { analyseSmsText } from '@wren/contracts';
import { SegmentedMessage } from 'sms-segments-calculator';
import { segmentCapacity, segmentParts, smsCounter } from './sms-parts';

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

describe('the counter (defect 3)', () => {
  const count = (text: string) => smsCounter(text, analyseSmsText(text));

  it('counts characters as seen and the room left in units: emoji 2, GSM-7 escapes 2', () => {
    expect(count('🎉')).toEqual({ characters: 1, left: 68 });
    expect(count('€')).toEqual({ characters: 1, left: 158 });
    expect(count('Hi €5 [ok]')).toEqual({ characters: 10, left: 160 - 13 });
    expect(count('👍🏽')).toEqual({ characters: 1, left: 66 });
    expect(count('')).toEqual({ characters: 0, left: 160 });
  });

  it('agrees with sms-segments-calculator on the units of single segments, and counts the last part when concatenated', () => {
    for (const text of [
      'Hello',
      'Price: 5€ {now}',
      'Grüße 😀',
      'ab\r\ncd',
      'x'.repeat(160),
      '🎉'.repeat(35),
    ]) {
      const m = new SegmentedMessage(text);
      if (m.segmentsCount !== 1) continue;
      const capacity = m.encodingName === 'GSM-7' ? 160 : 70;
      // The library counts a segment's size in bits: 7 per septet, 16 per UCS-2 unit.
      const used = m.segments[0]!.sizeInBits() / (m.encodingName === 'GSM-7' ? 7 : 16);
      expect(count(text).left, text).toBe(capacity - used);
    }
    // 161 GSM-7 characters: two parts of 153 + 8.
    expect(count('y'.repeat(161))).toEqual({ characters: 161, left: 153 - 8 });
    // 71 emoji-free UCS-2 characters: 67 + 4.
    expect(count('ж'.repeat(71))).toEqual({ characters: 71, left: 67 - 4 });
  });
});
