import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDateTimeOr } from './format-date';

describe('formatDateTime (one date-time format for the whole app)', () => {
  it('reads day first with a 24-hour clock, in the given zone', () => {
    expect(formatDateTime('2026-11-29T14:05:09Z', { timeZone: 'UTC' })).toBe('29 Nov 2026, 14:05');
    expect(formatDateTime('2026-11-29T14:05:09Z', { timeZone: 'Asia/Tokyo' })).toBe('29 Nov 2026, 23:05');
    expect(formatDateTime('2026-01-03T08:00:00Z', { timeZone: 'America/New_York' })).toBe(
      '3 Jan 2026, 03:00',
    );
  });

  it('adds the seconds when asked', () => {
    expect(formatDateTime('2026-11-29T14:05:09Z', { timeZone: 'UTC', seconds: true })).toBe(
      '29 Nov 2026, 14:05:09',
    );
  });

  it('uses the browser zone by default and takes a Date', () => {
    const at = new Date(2026, 10, 29, 14, 5);
    expect(formatDateTime(at)).toBe('29 Nov 2026, 14:05');
    expect(formatDateTime(at.toISOString())).toBe('29 Nov 2026, 14:05');
  });

  it('falls back when there is no time', () => {
    expect(formatDateTimeOr(null, 'Never')).toBe('Never');
    expect(formatDateTimeOr(undefined, 'No calls yet')).toBe('No calls yet');
    expect(formatDateTimeOr('2026-11-29T14:05:09Z', 'Never', { timeZone: 'UTC' })).toBe('29 Nov 2026, 14:05');
  });
});
