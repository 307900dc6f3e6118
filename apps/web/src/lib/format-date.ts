import { dayjs } from './dayjs';

export interface DateTimeOptions {
  /** An IANA zone; the browser's own zone by default. */
  timeZone?: string;
  /** Adds the seconds (timelines and logs, where events are seconds apart). */
  seconds?: boolean;
}

/**
 * The app's one date-time format, day first with a 24-hour clock: "29 Nov 2026, 14:05" (with
 * `seconds`: "29 Nov 2026, 14:05:09"), so the same kind of timestamp reads the same on every screen.
 */
export function formatDateTime(
  iso: string | Date,
  { timeZone, seconds = false }: DateTimeOptions = {},
): string {
  const at = timeZone ? dayjs(iso).tz(timeZone) : dayjs(iso);
  return at.format(seconds ? 'D MMM YYYY, HH:mm:ss' : 'D MMM YYYY, HH:mm');
}

/** `formatDateTime`, or `fallback` (e.g. "Never") when there is no time. */
export const formatDateTimeOr = (
  iso: string | null | undefined,
  fallback: string,
  options?: DateTimeOptions,
) => (iso ? formatDateTime(iso, options) : fallback);
