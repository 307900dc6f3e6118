import { describe, expect, it } from 'vitest';
import {
  addRecipients,
  defaultCountryFor,
  parseRecipient,
  splitRecipients,
  validNumbers,
} from './parse-recipients';

describe('parseRecipient', () => {
  it('normalises valid numbers to E.164', () => {
    expect(parseRecipient(' +1 (415) 555-2671 ', 'US')).toEqual({
      input: '+1 (415) 555-2671',
      e164: '+14155552671',
      country: 'US',
    });
    expect(parseRecipient('020 7946 0958', 'GB').e164).toBe('+442079460958');
    expect(parseRecipient('4155552671', 'US').e164).toBe('+14155552671');
  });

  it('marks invalid numbers', () => {
    expect(parseRecipient('12', 'US').e164).toBeNull();
    expect(parseRecipient('hello', 'US').e164).toBeNull();
    // Reserved "drama" range: not a real number.
    expect(parseRecipient('+447700900123', 'GB').e164).toBeNull();
  });
});

describe('splitRecipients', () => {
  it('splits on commas, semicolons, tabs, line breaks and spaces', () => {
    expect(
      splitRecipients('+14155552671, +442079460958;+4930901820\n+33142685300\t+61291234567', 'US'),
    ).toEqual(['+14155552671', '+442079460958', '+4930901820', '+33142685300', '+61291234567']);
    expect(splitRecipients('+14155552671 +442079460958', 'US')).toEqual(['+14155552671', '+442079460958']);
  });

  it('keeps a number written in groups together', () => {
    expect(splitRecipients('+44 20 7946 0958, +1 415 555 2671', 'US')).toEqual([
      '+44 20 7946 0958',
      '+1 415 555 2671',
    ]);
    expect(splitRecipients('+44 20 7946 0958 +1 415 555 2671', 'US')).toEqual([
      '+44 20 7946 0958',
      '+1 415 555 2671',
    ]);
  });

  it('ignores empty pieces', () => {
    expect(splitRecipients(' ,, \n ;', 'US')).toEqual([]);
    expect(splitRecipients('', 'US')).toEqual([]);
  });

  it('leaves invalid pieces on their own', () => {
    expect(splitRecipients('abc 12 +14155552671', 'US')).toEqual(['abc', '12', '+14155552671']);
  });
});

describe('addRecipients', () => {
  it('adds new numbers and drops duplicates (by E.164, or text when invalid)', () => {
    const first = addRecipients([], '+14155552671, (415) 555-2671, 12, 12', 'US');
    expect(first.entries.map((e) => e.input)).toEqual(['+14155552671', '12']);
    expect(first.duplicates).toBe(2);
    const second = addRecipients(first.entries, '+1 415 555 2671\n+442079460958', 'US');
    expect(second.entries.map((e) => e.e164)).toEqual(['+14155552671', null, '+442079460958']);
    expect(second.duplicates).toBe(1);
    expect(validNumbers(second.entries)).toEqual(['+14155552671', '+442079460958']);
  });
});

describe('defaultCountryFor', () => {
  it("uses the user's own phone country, else US", () => {
    expect(defaultCountryFor('+442079460958')).toBe('GB');
    expect(defaultCountryFor('+14155552671')).toBe('US');
    expect(defaultCountryFor('')).toBe('US');
    expect(defaultCountryFor(null)).toBe('US');
    expect(defaultCountryFor('nonsense')).toBe('US');
  });
});
