import { sendWindowSchema, type SendWindow } from '@wren/contracts';
import { describe, expect, it } from 'vitest';
import { windowPlanner } from './campaign-window';
import { zoneOfNumber, zonesOfNumber } from './phone-zone';
import { isOpen, localLabel, nextOpen, zonedInstant } from './window-time';

const ALL = [1, 2, 3, 4, 5, 6, 7];
const w = (days: number[], start: string, end: string, overnight = false): SendWindow => ({
  days,
  start,
  end,
  overnight,
});
/** The fake clock: every computation is given its instant. */
const at = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();

describe('nextOpen (fake clock)', () => {
  it('America/New_York across the spring-forward of 2026-03-08: 09:00 is 14:00Z the day before, 13:00Z that day', () => {
    const daily = w(ALL, '09:00', '20:00');
    expect(iso(nextOpen(daily, 'America/New_York', at('2026-03-07T05:00:00Z')))).toBe(
      '2026-03-07T14:00:00.000Z',
    );
    expect(iso(nextOpen(daily, 'America/New_York', at('2026-03-08T05:00:00Z')))).toBe(
      '2026-03-08T13:00:00.000Z',
    );
    // After the window closes on the 7th (20:00 EST = 01:00Z on the 8th), the next is the 8th's 09:00 EDT.
    expect(iso(nextOpen(daily, 'America/New_York', at('2026-03-08T01:00:00Z')))).toBe(
      '2026-03-08T13:00:00.000Z',
    );
  });

  it('a start skipped by the spring forward (02:30 on 2026-03-08 in New York) opens just past the change', () => {
    const t = nextOpen(w(ALL, '02:30', '04:00'), 'America/New_York', at('2026-03-08T05:00:00Z'));
    expect(iso(t)).toBe('2026-03-08T07:30:00.000Z');
    expect(localLabel(t, 'America/New_York')).toBe('2026-03-08 03:30');
  });

  it('America/New_York across the fall-back of 2026-11-01: 09:00 is 14:00Z; 01:30 (twice that night) is its first', () => {
    expect(iso(nextOpen(w(ALL, '09:00', '20:00'), 'America/New_York', at('2026-11-01T04:00:00Z')))).toBe(
      '2026-11-01T14:00:00.000Z',
    );
    expect(iso(nextOpen(w(ALL, '09:00', '20:00'), 'America/New_York', at('2026-10-31T04:00:00Z')))).toBe(
      '2026-10-31T13:00:00.000Z',
    );
    expect(iso(nextOpen(w(ALL, '01:30', '03:00'), 'America/New_York', at('2026-11-01T04:00:00Z')))).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    // 06:15Z is 01:15 EST, the second 01:15: the window (from the first 01:30) is open.
    expect(isOpen(w(ALL, '01:30', '03:00'), 'America/New_York', at('2026-11-01T06:15:00Z'))).toBe(false);
    expect(isOpen(w(ALL, '01:00', '03:00'), 'America/New_York', at('2026-11-01T06:15:00Z'))).toBe(true);
  });

  it('Europe/London: 09:00 is 09:00Z on 2026-03-28 and 08:00Z from 2026-03-29 (BST)', () => {
    const daily = w(ALL, '09:00', '20:00');
    expect(iso(nextOpen(daily, 'Europe/London', at('2026-03-28T00:00:00Z')))).toBe(
      '2026-03-28T09:00:00.000Z',
    );
    expect(iso(nextOpen(daily, 'Europe/London', at('2026-03-28T21:00:00Z')))).toBe(
      '2026-03-29T08:00:00.000Z',
    );
  });

  it("Asia/Kolkata's half hour: 09:00 IST is 03:30Z", () => {
    expect(iso(nextOpen(w(ALL, '09:00', '20:00'), 'Asia/Kolkata', at('2026-06-10T00:00:00Z')))).toBe(
      '2026-06-10T03:30:00.000Z',
    );
    expect(isOpen(w(ALL, '09:00', '20:00'), 'Asia/Kolkata', at('2026-06-10T03:29:00Z'))).toBe(false);
    expect(isOpen(w(ALL, '09:00', '20:00'), 'Asia/Kolkata', at('2026-06-10T03:30:00Z'))).toBe(true);
  });

  it("Australia/Lord_Howe's half-hour DST: 09:00 is 22:00Z (UTC+11) in January, 22:30Z (UTC+10:30) in June", () => {
    const daily = w(ALL, '09:00', '20:00');
    expect(iso(nextOpen(daily, 'Australia/Lord_Howe', at('2026-01-15T12:00:00Z')))).toBe(
      '2026-01-15T22:00:00.000Z',
    );
    expect(iso(nextOpen(daily, 'Australia/Lord_Howe', at('2026-06-15T12:00:00Z')))).toBe(
      '2026-06-15T22:30:00.000Z',
    );
  });

  it('Mon–Fri: Friday after the window waits for Monday; inside the window it is now', () => {
    const weekdays = w([1, 2, 3, 4, 5], '09:00', '20:00');
    // 2026-12-04 is a Friday; 20:30 in London.
    expect(iso(nextOpen(weekdays, 'Europe/London', at('2026-12-04T20:30:00Z')))).toBe(
      '2026-12-07T09:00:00.000Z',
    );
    expect(iso(nextOpen(weekdays, 'Europe/London', at('2026-12-04T12:00:00Z')))).toBe(
      '2026-12-04T12:00:00.000Z',
    );
    // The end is exclusive: 20:00 is closed.
    expect(isOpen(weekdays, 'Europe/London', at('2026-12-04T20:00:00Z'))).toBe(false);
  });

  it('an overnight window (Fri 22:00 – Sat 06:00) is open into the next morning, then waits a week', () => {
    const fri = w([5], '22:00', '06:00', true);
    expect(isOpen(fri, 'UTC', at('2026-12-05T03:00:00Z'))).toBe(true); // Saturday 03:00
    expect(isOpen(fri, 'UTC', at('2026-12-04T21:59:00Z'))).toBe(false);
    expect(iso(nextOpen(fri, 'UTC', at('2026-12-05T07:00:00Z')))).toBe('2026-12-11T22:00:00.000Z');
  });

  it('until 24:00 and a local wall time to an instant', () => {
    expect(isOpen(w(ALL, '18:00', '24:00'), 'UTC', at('2026-12-04T23:59:00Z'))).toBe(true);
    expect(iso(zonedInstant(2026, 7, 1, 9 * 60, 'America/New_York'))).toBe('2026-07-01T13:00:00.000Z');
  });
});

describe('sendWindowSchema', () => {
  const messages = (v: unknown) => {
    const r = sendWindowSchema.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  };
  it('refuses no day, an end before the start (unless overnight), equal times, and bad times', () => {
    expect(messages({ days: [], start: '09:00', end: '20:00' })).toEqual(['days: Pick at least one day']);
    expect(messages({ days: [1], start: '20:00', end: '09:00' })).toEqual([
      'end: The window must end after it starts (or choose overnight for a window past midnight)',
    ]);
    expect(messages({ days: [1], start: '20:00', end: '09:00', overnight: true })).toEqual([]);
    expect(messages({ days: [1], start: '09:00', end: '20:00', overnight: true })).toEqual([
      'end: An overnight window ends the next day, before the time it starts',
    ]);
    expect(messages({ days: [1], start: '09:00', end: '09:00' })[0]).toMatch(/another time than it starts/);
    expect(messages({ days: [1], start: '25:00', end: '20:00' })).toEqual([
      'start: Enter a time as HH:MM (00:00–23:59)',
    ]);
    expect(messages({ days: [1, 1], start: '09:00', end: '20:00' })).toEqual(['days: A day is listed twice']);
    expect(messages({ days: [8], start: '09:00', end: '20:00' })).toEqual(['days.0: Unknown day']);
  });
});

describe('zoneOfNumber (libphonenumber time-zone mapping)', () => {
  it('tells one zone where the prefix has one (or several keeping the same time), none where they differ or it is unknown', () => {
    expect(zoneOfNumber('+12125551234')).toBe('America/New_York');
    expect(zoneOfNumber('13105551234')).toBe('America/Los_Angeles');
    expect(zoneOfNumber('+442071234567')).toBe('Europe/London');
    expect(['Asia/Calcutta', 'Asia/Kolkata']).toContain(zoneOfNumber('+919812345678'));
    expect(zonesOfNumber('+5215512345678').length).toBeGreaterThan(1);
    expect(zoneOfNumber('+5215512345678')).toBeNull();
    expect(zoneOfNumber('+99912345')).toBeNull();
    // Several zones that keep the same time all year are one: the most used (London for +44 7911).
    expect(zonesOfNumber('+447911000500').length).toBeGreaterThan(1);
    expect(zoneOfNumber('+447911000500')).toBe('Europe/London');
  });

  it('is fast after the first lookup (measured: see docs/benchmarks.md, Other measurements)', () => {
    zoneOfNumber('+12125551234');
    const numbers = Array.from({ length: 100_000 }, (_, i) => `+1212555${String(i).padStart(4, '0')}`);
    const t0 = performance.now();
    for (const n of numbers) zoneOfNumber(n);
    const perLookupUs = ((performance.now() - t0) * 1000) / numbers.length;
    console.log(`zoneOfNumber: ${perLookupUs.toFixed(2)} µs a lookup over 100,000 numbers`);
    expect(perLookupUs).toBeLessThan(50);
  });
});

describe("windowPlanner (the estimate's plan)", () => {
  it("counts numbers per zone, puts those of no single zone in the campaign's, and says when each opens", () => {
    const plan = windowPlanner(
      { window: w([1, 2, 3, 4, 5], '09:00', '20:00'), source: 'campaign' },
      'Asia/Kolkata',
    );
    for (const n of ['12125550101', '12125550102', '13105550101', '5215512345678', '99912345']) plan.add(n);
    // Friday 2026-12-04 15:00Z: 10:00 in New York (open), 07:00 in Los Angeles, 20:30 in Kolkata.
    const s = plan.summary(at('2026-12-04T15:00:00Z'));
    expect(s.zones).toEqual([
      {
        timeZone: 'America/New_York',
        recipients: 2,
        fallback: false,
        opensAt: '2026-12-04T15:00:00.000Z',
        opensAtLocal: '2026-12-04 10:00',
        openNow: true,
      },
      {
        timeZone: 'America/Los_Angeles',
        recipients: 1,
        fallback: false,
        opensAt: '2026-12-04T17:00:00.000Z',
        opensAtLocal: '2026-12-04 09:00',
        openNow: false,
      },
      // Kolkata's window closed at 20:00 on Friday: Monday 09:00 IST.
      {
        timeZone: 'Asia/Kolkata',
        recipients: 2,
        fallback: true,
        opensAt: '2026-12-07T03:30:00.000Z',
        opensAtLocal: '2026-12-07 09:00',
        openNow: false,
      },
    ]);
    expect(s.lastSendAt).toBe('2026-12-07T03:30:00.000Z');
  });
});
