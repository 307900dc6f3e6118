import { DEFAULT_LOCALE } from '@wren/contracts';
import { dayjs } from './dayjs';
import { currentLocale } from './i18n';

export interface DateTimeOptions {
  /** An IANA zone; the browser's own zone by default. */
  timeZone?: string;
  /** Adds the seconds (timelines and logs, where events are seconds apart). */
  seconds?: boolean;
}

/**
 * The app's one date-time format, day first with a 24-hour clock: "29 Nov 2026, 14:05" (with
 * `seconds`: "29 Nov 2026, 14:05:09"), so the same kind of timestamp reads the same on every screen.
 * In another language (the profile's), the same fields through Intl in that locale: "29 nov 2026, 14:05".
 */
export function formatDateTime(
  iso: string | Date,
  { timeZone, seconds = false }: DateTimeOptions = {},
): string {
  const locale = currentLocale();
  // Another language: its own order and month names, through Intl, still one format a locale.
  if (locale !== DEFAULT_LOCALE)
    return new Date(iso).toLocaleString(locale, {
      dateStyle: 'medium',
      timeStyle: seconds ? 'medium' : 'short',
      hourCycle: 'h23',
      timeZone,
    });
  const at = timeZone ? dayjs(iso).tz(timeZone) : dayjs(iso);
  return at.format(seconds ? 'D MMM YYYY, HH:mm:ss' : 'D MMM YYYY, HH:mm');
}

/** `formatDateTime`, or `fallback` (e.g. "Never") when there is no time. */
export const formatDateTimeOr = (
  iso: string | null | undefined,
  fallback: string,
  options?: DateTimeOptions,
) => (iso ? formatDateTime(iso, options) : fallback);
