import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, guardCell, majorUnits, unguardCell } from './csv';

describe('CSV cells', () => {
  it('prefixes only cells that would start a formula: = + - @ tab CR', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
    expect(csvCell('Hello =world')).toBe('Hello =world');
    expect(csvCell('42')).toBe('42');
    expect(csvCell("it's")).toBe("it's");
  });

  it('keeps the + of an E.164 number as data: quoted, no apostrophe', () => {
    expect(guardCell('+14155552671')).toBe('+14155552671');
    expect(csvCell('+14155552671')).toBe('"+14155552671"');
    expect(csvLine(['+442079460958', 'Ann'])).toBe('"+442079460958",Ann\r\n');
    // Not a phone number: still guarded.
    expect(csvCell('+1 (415) 555')).toBe("'+1 (415) 555");
    expect(csvCell('+0123456789')).toBe("'+0123456789");
  });

  it('quotes commas, quotes, line breaks and outer spaces', () => {
    expect(csvLine(['Smith, "Bob"', 'Line\nbreak', ' pad'])).toBe(
      '"Smith, ""Bob""","Line\nbreak"," pad"\r\n',
    );
  });

  it('imports back what it exported, and the apostrophe of older exports before a phone number', () => {
    for (const v of ['=SUM(A1)', '-2', '@x', '+1+1', 'plain', "'quoted"])
      expect(unguardCell(guardCell(v))).toBe(v);
    expect(unguardCell("'+14155552671")).toBe('+14155552671');
    expect(unguardCell('+14155552671')).toBe('+14155552671');
  });

  it('writes money in major units of its currency', () => {
    expect(majorUnits(5, 'USD')).toBe('0.05');
    expect(majorUnits(1234, 'EUR')).toBe('12.34');
    expect(majorUnits(-250, 'USD')).toBe('-2.50');
    expect(majorUnits(500, 'JPY')).toBe('500');
    expect(majorUnits(1234, 'KWD')).toBe('1.234');
    expect(majorUnits(0, 'USD')).toBe('0.00');
  });
});
