import { dayjs } from '@/lib/dayjs';

/**
 * Wall-clock times in an IANA time zone, through dayjs's utc and timezone plugins. The date-time
 * picker gives a zone-less `YYYY-MM-DD HH:mm:ss`; the server wants an ISO instant with an offset.
 */

const WALL_FORMAT = 'YYYY-MM-DD HH:mm:ss';
const WALL = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::(\d{2}))?$/;
const HALF_DAY_MINUTES = 12 * 60;

/** The zone's offset from UTC at an instant, in minutes (east positive). */
export function offsetMinutes(instant: number, timeZone: string): number {
  return dayjs(instant).tz(timeZone).utcOffset();
}

/**
 * The instant a wall-clock time in `timeZone` stands for, or null for text that is not a real
 * date and time. In a DST gap the time is moved forward by the gap (02:30 on a spring-forward
 * night is 03:30); in an overlap the earlier instant (the first 01:30 of a fall-back night) is
 * taken, whatever the date today.
 */
export function wallTimeToInstant(wall: string, timeZone: string): Date | null {
  const match = WALL.exec(wall.trim());
  if (!match) return null;
  const text = `${match[1]} ${match[2]}:${match[3] ?? '00'}`;
  // dayjs rolls impossible dates over (Feb 30 → Mar 2); refuse them instead.
  if (dayjs.utc(text).format(WALL_FORMAT) !== text) return null;
  const parsed = dayjs.tz(text, timeZone);
  // dayjs.tz settles an overlap with the offset in force today, so either reading can come back.
  // The earlier one has the offset from before the change: try it, and keep it if it reads back.
  const offsetBefore = parsed.subtract(HALF_DAY_MINUTES, 'minute').tz(timeZone).utcOffset();
  if (offsetBefore > parsed.utcOffset()) {
    const earlier = parsed.subtract(offsetBefore - parsed.utcOffset(), 'minute');
    if (earlier.tz(timeZone).format(WALL_FORMAT) === text) return earlier.toDate();
  }
  return parsed.toDate();
}

/** `2025-03-01T09:30:00+01:00`: the instant written in the zone's local time with its offset. */
export function toIsoWithOffset(instant: Date, timeZone: string): string {
  return dayjs(instant).tz(timeZone).format('YYYY-MM-DDTHH:mm:ssZ');
}

/** The current wall-clock time in `timeZone` as `YYYY-MM-DD HH:mm:ss` (for the picker's minimum). */
export function nowInZone(timeZone: string, now = Date.now()): string {
  return dayjs(now).tz(timeZone).format(WALL_FORMAT);
}

export { formatInZone } from '@/lib/format';

/** The browser's own zone, used when the profile has none. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const QUARTER_HOUR_MS = 15 * 60_000;
/** The default "send at" is at least this far ahead: a scheduled send that is 4 minutes away is a surprise. */
export const DEFAULT_SCHEDULE_LEAD_MS = 60 * 60_000;
/**
 * The default "send at": the first round quarter hour at least an hour away, as wall-clock time in
 * `timeZone` (every zone's offset is a whole number of quarter hours, so it is round there too).
 * The next quarter hour could be a minute away (issue 47, defect 8).
 */
export function defaultScheduleTime(timeZone: string, now = Date.now()): string {
  return nowInZone(timeZone, Math.ceil((now + DEFAULT_SCHEDULE_LEAD_MS) / QUARTER_HOUR_MS) * QUARTER_HOUR_MS);
}
