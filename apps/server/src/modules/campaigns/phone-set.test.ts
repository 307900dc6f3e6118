import { describe, expect, it } from 'vitest';
import { PhoneSet } from './phone-set';

describe('PhoneSet', () => {
  it('answers as a Set<number> for numbers of every length, through many growths', () => {
    const set = new PhoneSet();
    const reference = new Set<number>();
    let seed = 3;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let i = 0; i < 300_000; i++) {
      // E.164 lengths 8–15, and many near neighbours (consecutive numbers of one range).
      const digits = 8 + (next() % 8);
      const phone =
        i % 3 === 0 ? 14155550000 + (next() % 5000) : (next() * 100_003 + next()) % 10 ** digits || 1;
      expect(set.add(phone)).toBe(!reference.has(phone));
      reference.add(phone);
    }
    expect(set.size).toBe(reference.size);
    for (const p of reference) expect(set.has(p)).toBe(true);
    expect(set.has(999_999_999_999_999)).toBe(reference.has(999_999_999_999_999));
    expect(set.add(447700900123)).toBe(true);
    expect(set.add(447700900123)).toBe(false);
  });

  it('refuses what is not a positive integer', () => {
    const set = new PhoneSet();
    expect(() => set.add(0)).toThrow(RangeError);
    expect(() => set.add(-5)).toThrow(RangeError);
    expect(() => set.add(1.5)).toThrow(RangeError);
    expect(() => set.add(Number.NaN)).toThrow(RangeError);
  });
});
