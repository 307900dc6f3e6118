/**
 * Wall-clock times in an IANA time zone. The date-time picker gives a zone-less
 * `YYYY-MM-DD HH:mm:ss`; the server wants an ISO instant with an offset.
 */

const partFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

/** The zone's offset from UTC at an instant, in minutes (east positive). */
export function offsetMinutes(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of partsFormat(timeZone).formatToParts(instant)) parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

const HALF_DAY_MS = 12 * 3_600_000;
const WALL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant a wall-clock time in `timeZone` stands for. In a DST gap the time is moved
 * forward by the gap; in an overlap the earlier instant is taken.
 */
export function wallTimeToInstant(wall: string, timeZone: string): Date | null {
  const m = WALL.exec(wall.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  const guess = Date.UTC(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  const before = offsetMinutes(guess - HALF_DAY_MS, timeZone);
  const after = offsetMinutes(guess + HALF_DAY_MS, timeZone);
  // Each offset in force around that day gives a candidate; keep those that read back as the wall time.
  const matches = [before, after]
    .map((offset) => guess - offset * 60_000)
    .filter((t) => t + offsetMinutes(t, timeZone) * 60_000 === guess);
  // Overlap: two matches, take the earlier. Gap: none; the offset before the change moves it forward.
  const instant = matches.length ? Math.min(...matches) : guess - before * 60_000;
  return new Date(instant);
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** `2025-03-01T09:30:00+01:00`: the instant written in the zone's local time with its offset. */
export function toIsoWithOffset(instant: Date, timeZone: string): string {
  const offset = offsetMinutes(instant.getTime(), timeZone);
  const local = new Date(Math.floor(instant.getTime() / 1000) * 1000 + offset * 60_000);
  const date = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  const sign = offset < 0 ? '-' : '+';
  return `${date}T${time}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

/** The current wall-clock time in `timeZone` as `YYYY-MM-DD HH:mm:ss` (for the picker's minimum). */
export function nowInZone(timeZone: string, now = Date.now()): string {
  return toIsoWithOffset(new Date(now), timeZone).slice(0, 19).replace('T', ' ');
}

/** "Mon, Mar 3, 2025, 9:30 AM GMT+1" in the given zone. */
export function formatInZone(instant: Date | string, timeZone: string): string {
  return (
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(new Date(instant)) + ` (${timeZone})`
  );
}

/** The browser's own zone, used when the profile has none. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
