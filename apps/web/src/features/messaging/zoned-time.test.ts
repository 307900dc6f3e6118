import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  defaultScheduleTime,
  nowInZone,
  offsetMinutes,
  toIsoWithOffset,
  wallTimeToInstant,
} from './zoned-time';

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

  it('rejects text that is not a date and time, and dates that do not exist', () => {
    expect(wallTimeToInstant('tomorrow', 'UTC')).toBeNull();
    expect(wallTimeToInstant('2025-01-15', 'UTC')).toBeNull();
    expect(wallTimeToInstant('2025-02-30 10:00', 'UTC')).toBeNull();
    expect(wallTimeToInstant('2025-01-15 24:30', 'UTC')).toBeNull();
    expect(wallTimeToInstant('2024-02-29 10:00', 'UTC')?.toISOString()).toBe('2024-02-29T10:00:00.000Z');
  });
});

describe('DST edges (2026)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Runs `check` with today's date in northern winter, then in northern summer. */
  function inEverySeason(check: () => void) {
    for (const today of ['2026-01-15T12:00:00Z', '2026-07-15T12:00:00Z']) {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(today) });
      check();
      vi.useRealTimers();
    }
  }

  const iso = (wall: string, zone: string) => wallTimeToInstant(wall, zone)?.toISOString();
  const local = (wall: string, zone: string) => toIsoWithOffset(wallTimeToInstant(wall, zone)!, zone);

  it('America/New_York, 2026-03-08 02:30 (spring-forward gap): moved forward to 03:30 EDT', () => {
    inEverySeason(() => {
      expect(iso('2026-03-08 02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
      expect(local('2026-03-08 02:30', 'America/New_York')).toBe('2026-03-08T03:30:00-04:00');
      // Either side of the gap is untouched.
      expect(local('2026-03-08 01:59', 'America/New_York')).toBe('2026-03-08T01:59:00-05:00');
      expect(local('2026-03-08 03:00', 'America/New_York')).toBe('2026-03-08T03:00:00-04:00');
    });
  });

  it('America/New_York, 2026-11-01 01:30 (fall-back overlap): the first 01:30, EDT, whatever today is', () => {
    inEverySeason(() => {
      expect(iso('2026-11-01 01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
      expect(local('2026-11-01 01:30', 'America/New_York')).toBe('2026-11-01T01:30:00-04:00');
      expect(local('2026-11-01 00:59', 'America/New_York')).toBe('2026-11-01T00:59:00-04:00');
      expect(local('2026-11-01 02:00', 'America/New_York')).toBe('2026-11-01T02:00:00-05:00');
    });
  });

  it('Asia/Kolkata (+05:30, no DST): the same wall time on both US change nights', () => {
    inEverySeason(() => {
      expect(iso('2026-03-08 02:30', 'Asia/Kolkata')).toBe('2026-03-07T21:00:00.000Z');
      expect(iso('2026-11-01 01:30', 'Asia/Kolkata')).toBe('2026-10-31T20:00:00.000Z');
      expect(offsetMinutes(Date.UTC(2026, 0, 1), 'Asia/Kolkata')).toBe(330);
    });
  });

  it('Australia/Lord_Howe (a 30-minute shift): the gap moves forward, the overlap takes the earlier', () => {
    inEverySeason(() => {
      // 2026-10-04 02:00 +10:30 → 02:30 +11:00: 02:15 does not exist.
      expect(iso('2026-10-04 02:15', 'Australia/Lord_Howe')).toBe('2026-10-03T15:45:00.000Z');
      expect(local('2026-10-04 02:15', 'Australia/Lord_Howe')).toBe('2026-10-04T02:45:00+11:00');
      // 2026-04-05 02:00 +11:00 → 01:30 +10:30: 01:45 happens twice.
      expect(iso('2026-04-05 01:45', 'Australia/Lord_Howe')).toBe('2026-04-04T14:45:00.000Z');
      expect(local('2026-04-05 01:45', 'Australia/Lord_Howe')).toBe('2026-04-05T01:45:00+11:00');
      expect(local('2026-04-05 02:00', 'Australia/Lord_Howe')).toBe('2026-04-05T02:00:00+10:30');
    });
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

describe('defaultScheduleTime (issue 47 defect 8)', () => {
  it('is the first round quarter hour at least an hour away, in the given zone', () => {
    const at = Date.parse('2026-11-24T06:52:10Z');
    expect(defaultScheduleTime('UTC', at)).toBe('2026-11-24 08:00:00');
    expect(defaultScheduleTime('Asia/Kolkata', at)).toBe('2026-11-24 13:30:00');
    expect(defaultScheduleTime('Asia/Kathmandu', at)).toBe('2026-11-24 13:45:00');
    // 01:56 in New York: not 02:00 (4 minutes away) but 03:00.
    expect(defaultScheduleTime('America/New_York', Date.parse('2026-11-24T06:56:00Z'))).toBe(
      '2026-11-24 03:00:00',
    );
    expect(defaultScheduleTime('UTC', Date.parse('2026-11-24T23:50:00Z'))).toBe('2026-11-25 01:00:00');
    expect(defaultScheduleTime('UTC', Date.parse('2026-11-24T07:00:00Z'))).toBe('2026-11-24 08:00:00');
  });
});
