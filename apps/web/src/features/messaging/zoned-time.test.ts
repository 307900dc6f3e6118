import { describe, expect, it } from 'vitest';
import { nowInZone, offsetMinutes, toIsoWithOffset, wallTimeToInstant } from './zoned-time';

describe('offsetMinutes', () => {
  it('follows daylight saving', () => {
    expect(offsetMinutes(Date.UTC(2025, 0, 15), 'Europe/Berlin')).toBe(60);
    expect(offsetMinutes(Date.UTC(2025, 6, 15), 'Europe/Berlin')).toBe(120);
    expect(offsetMinutes(Date.UTC(2025, 6, 15), 'America/New_York')).toBe(-240);
    expect(offsetMinutes(Date.UTC(2025, 6, 15), 'Asia/Kolkata')).toBe(330);
    expect(offsetMinutes(Date.UTC(2025, 6, 15), 'UTC')).toBe(0);
  });
});

describe('wallTimeToInstant', () => {
  it('reads a wall-clock time in the given zone', () => {
    expect(wallTimeToInstant('2025-01-15 09:30:00', 'Europe/Berlin')?.toISOString()).toBe(
      '2025-01-15T08:30:00.000Z',
    );
    expect(wallTimeToInstant('2025-07-15 09:30', 'America/New_York')?.toISOString()).toBe(
      '2025-07-15T13:30:00.000Z',
    );
    expect(wallTimeToInstant('2025-07-15 09:30:00', 'Asia/Kolkata')?.toISOString()).toBe(
      '2025-07-15T04:00:00.000Z',
    );
  });

  it('moves a time in a spring-forward gap forward, and takes the earlier of an overlap', () => {
    expect(wallTimeToInstant('2025-03-09 02:30:00', 'America/New_York')?.toISOString()).toBe(
      '2025-03-09T07:30:00.000Z',
    );
    expect(wallTimeToInstant('2025-03-30 02:30:00', 'Europe/Berlin')?.toISOString()).toBe(
      '2025-03-30T01:30:00.000Z',
    );
    expect(wallTimeToInstant('2025-11-02 01:30:00', 'America/New_York')?.toISOString()).toBe(
      '2025-11-02T05:30:00.000Z',
    );
    expect(wallTimeToInstant('2025-10-26 02:30:00', 'Europe/Berlin')?.toISOString()).toBe(
      '2025-10-26T00:30:00.000Z',
    );
  });

  it('rejects text that is not a date and time', () => {
    expect(wallTimeToInstant('tomorrow', 'UTC')).toBeNull();
    expect(wallTimeToInstant('2025-01-15', 'UTC')).toBeNull();
  });
});

describe('toIsoWithOffset', () => {
  it('writes the local time with its offset', () => {
    const at = new Date('2025-07-15T13:30:00Z');
    expect(toIsoWithOffset(at, 'America/New_York')).toBe('2025-07-15T09:30:00-04:00');
    expect(toIsoWithOffset(at, 'Asia/Kolkata')).toBe('2025-07-15T19:00:00+05:30');
    expect(toIsoWithOffset(at, 'UTC')).toBe('2025-07-15T13:30:00+00:00');
    expect(toIsoWithOffset(new Date('2025-01-15T12:00:00Z'), 'America/St_Johns')).toBe(
      '2025-01-15T08:30:00-03:30',
    );
  });

  it('round-trips with wallTimeToInstant', () => {
    const instant = wallTimeToInstant('2025-12-31 23:45:00', 'Pacific/Auckland')!;
    expect(toIsoWithOffset(instant, 'Pacific/Auckland')).toBe('2025-12-31T23:45:00+13:00');
    expect(new Date(toIsoWithOffset(instant, 'Pacific/Auckland')).getTime()).toBe(instant.getTime());
  });
});

describe('nowInZone', () => {
  it('is the current wall-clock time in the zone', () => {
    expect(nowInZone('Asia/Tokyo', Date.UTC(2025, 0, 1, 20, 0, 5))).toBe('2025-01-02 05:00:05');
  });
});
