import { describe, expect, it } from 'vitest';
import { analyseSmsText } from './sms-text';

describe('analyseSmsText', () => {
  it('keeps short texts exactly (one segment, no stray characters)', () => {
    for (const text of ['a', 'ab', 'Hi €', 'Your code is 1234']) {
      const info = analyseSmsText(text);
      expect(info.parts).toEqual([text]);
      expect(info.segments).toBe(1);
    }
  });

  it('counts GSM-7 escapes as two and splits at 160/153', () => {
    expect(analyseSmsText('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', segments: 1, characters: 160 });
    const long = analyseSmsText('x'.repeat(161));
    expect(long.segments).toBe(2);
    expect(long.parts.map((p) => p.length)).toEqual([153, 8]);
    expect(long.parts.join('')).toBe('x'.repeat(161));
  });

  it('switches to UCS-2 at 70/67 and names the characters that force it', () => {
    const text = 'Привет '.repeat(12);
    const info = analyseSmsText(text);
    expect(info.encoding).toBe('UCS-2');
    expect(info.segments).toBe(2);
    expect(info.parts.join('')).toBe(text);
    expect(info.unicodeChars).toContain('П');
    expect(analyseSmsText('plain').unicodeChars).toEqual([]);
  });
});
