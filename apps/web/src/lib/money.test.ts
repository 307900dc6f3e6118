import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney (SPEC.md §9: English (US), USD by default)', () => {
  it('turns minor units into en-US currency', () => {
    expect(formatMoney(1234, 'USD')).toBe('$12.34');
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(1, 'USD')).toBe('$0.01');
    expect(formatMoney(-250, 'USD')).toBe('-$2.50');
    expect(formatMoney(0, 'EUR')).toBe('€0.00');
    expect(formatMoney(1999, 'EUR')).toBe('€19.99');
  });

  it('divides by the currency’s own minor unit (none for JPY, three for KWD)', () => {
    expect(formatMoney(500, 'JPY')).toBe('¥500');
    expect(formatMoney(1500, 'KWD')).toMatch(/^KWD\s1\.500$/);
  });

  it('uses USD without a currency', () => {
    expect(formatMoney(500)).toBe('$5.00');
    expect(formatMoney(-250, '')).toBe('-$2.50');
  });
});
