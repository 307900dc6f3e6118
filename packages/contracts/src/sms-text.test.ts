import { describe, expect, it } from 'vitest';
import { analyseGsm7, analyseSmsText, analyseWithLibrary } from './sms-text';

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

describe('the GSM-7 fast path', () => {
  const fields = (text: string) => {
    const { encoding, segments, characters, parts, unicodeChars } = analyseSmsText(text);
    return { encoding, segments, characters, parts, unicodeChars };
  };

  it('takes exactly the GSM-7 characters of sms-segments-calculator, with their sizes', () => {
    const taken: string[] = [];
    for (let code = 0; code < 0x10000; code++) {
      const text = `a${String.fromCharCode(code)}b`;
      const fast = analyseGsm7(text);
      if (!fast) continue;
      taken.push(String.fromCharCode(code));
      expect(fast).toEqual(analyseWithLibrary(text));
    }
    // Every GSM-7 character but CR (CR LF is one grapheme to the library): 127 − 1 + 10 escapes.
    expect(taken).toHaveLength(136);
  });

  it('agrees on random GSM-7 texts around the 160/153 boundaries, escapes included', () => {
    const alphabet = 'abcXYZ019 .,:!?@£$_ÄÖÜ\n' + '€[]{}~^|\\\f';
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 600; n++) {
      const length = [0, 1, 150, 159, 160, 161, 300, 306, 307, 459, 460, 1000][n % 12]! + (n % 3);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(fields(text)).toEqual(analyseWithLibrary(text));
    }
  });

  it('leaves CR, emoji and combining marks to the library', () => {
    for (const text of ['one\r\ntwo', 'ok 👍', 'e\u0301', 'x'.repeat(200) + '€']) {
      expect(fields(text)).toEqual(analyseWithLibrary(text));
    }
  });
});
