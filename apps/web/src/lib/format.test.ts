import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDateTimeOr, formatDay, formatTime } from './format';

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

  it('shows midnight as 00 and September as Sep', () => {
    expect(formatDateTime('2026-09-01T00:07:00Z', { timeZone: 'UTC' })).toBe('1 Sep 2026, 00:07');
  });

  it('gives the date, the day label and the time alone in the same format', () => {
    expect(formatDate('2026-11-29T23:30:00Z', { timeZone: 'UTC' })).toBe('29 Nov 2026');
    expect(formatDate('2026-11-29T23:30:00Z', { timeZone: 'Asia/Tokyo' })).toBe('30 Nov 2026');
    // A calendar day from the server stays that day in any zone.
    expect(formatDay('2026-11-29')).toBe('29 Nov');
    expect(formatTime('2026-11-29T14:05:09Z', { timeZone: 'UTC' })).toBe('14:05');
    expect(formatTime('2026-11-29T14:05:09Z', { timeZone: 'UTC', seconds: true })).toBe('14:05:09');
  });
});
