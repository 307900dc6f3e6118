import { minutesOf, type SendWindow } from '@wren/contracts';

/**
 * Send windows in a recipient's local time: whether an instant is inside one, and when one next
 * opens. Pure (the instant is given: tests pass a fake clock); the zone's rules come from the
 * runtime's ICU data through Intl, so DST changes and half-hour zones (Asia/Kolkata,
 * Australia/Lord_Howe's 30-minute DST) follow the IANA database.
 */

interface LocalParts {
  year: number;
  month: number;
  day: number;
  /** ISO weekday, 1 Monday … 7 Sunday. */
  weekday: number;
  /** Minutes after local midnight. */
  minutes: number;
  second: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

export function localParts(at: Date, tz: string): LocalParts {
  const p: Record<string, string> = {};
  for (const part of formatter(tz).formatToParts(at)) p[part.type] = part.value;
  return {
    year: Number(p.year),
    month: Number(p.month),
    day: Number(p.day),
    weekday: WEEKDAYS[p.weekday] ?? 1,
    minutes: Number(p.hour) * 60 + Number(p.minute),
    second: Number(p.second),
  };
}

/** The zone's offset from UTC at `ms`, in ms (local wall clock − UTC). */
function offsetAt(ms: number, tz: string): number {
  const p = localParts(new Date(ms), tz);
  const wall = Date.UTC(p.year, p.month - 1, p.day, 0, p.minutes, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant of a local wall-clock time in `tz`. A time that happens twice (a DST fall back) is
 * its first; one that does not happen (skipped by a spring forward) is the first instant after
 * the skip, at the same distance past the change as the wall time was.
 */
export function zonedInstant(year: number, month: number, day: number, minutes: number, tz: string): Date {
  const wall = Date.UTC(year, month - 1, day, 0, minutes);
  // The offsets before and after any change near the wall time (zones change at most once a day).
  const before = offsetAt(wall - 14 * 3_600_000, tz);
  const after = offsetAt(wall + 14 * 3_600_000, tz);
  const readings = [wall - before, wall - after].sort((x, y) => x - y);
  for (const t of readings) {
    const p = localParts(new Date(t), tz);
    if (Date.UTC(p.year, p.month - 1, p.day, 0, p.minutes) === wall) return new Date(t);
  }
  // Skipped by a spring forward: read with the offset before the change, it lands past it.
  return new Date(wall - before);
}

/** Whether a local weekday and minute are inside the window. */
function insideLocal(w: SendWindow, weekday: number, minutes: number): boolean {
  const start = minutesOf(w.start);
  const end = minutesOf(w.end);
  if (!w.overnight) return w.days.includes(weekday) && minutes >= start && minutes < end;
  const yesterday = weekday === 1 ? 7 : weekday - 1;
  return (w.days.includes(weekday) && minutes >= start) || (w.days.includes(yesterday) && minutes < end);
}

/** Whether `at` is inside the window in `tz`. */
export function isOpen(w: SendWindow, tz: string, at: Date): boolean {
  const p = localParts(at, tz);
  return insideLocal(w, p.weekday, p.minutes);
}

/** `at` itself when the window is open then, else the next instant it opens in `tz`. */
export function nextOpen(w: SendWindow, tz: string, at: Date): Date {
  const p = localParts(at, tz);
  if (insideLocal(w, p.weekday, p.minutes)) return at;
  const start = minutesOf(w.start);
  for (let d = 0; d <= 8; d += 1) {
    const date = new Date(Date.UTC(p.year, p.month - 1, p.day + d));
    const weekday = ((p.weekday - 1 + d) % 7) + 1;
    if (!w.days.includes(weekday)) continue;
    const t = zonedInstant(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), start, tz);
    if (t.getTime() > at.getTime()) return t;
  }
  throw new Error('nextOpen: a window has at least one day');
}

/** `YYYY-MM-DD HH:MM` of `at` in `tz`. */
export function localLabel(at: Date, tz: string): string {
  const p = localParts(at, tz);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(Math.floor(p.minutes / 60))}:${pad(p.minutes % 60)}`;
}
