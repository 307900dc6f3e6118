import { DEFAULT_LOCALE } from '@wren/contracts';
import { currentLocale } from './i18n';

export interface DateTimeOptions {
  /** An IANA zone; the browser's own zone by default. */
  timeZone?: string;
  /** Adds the seconds (timelines and logs, where events are seconds apart). */
  seconds?: boolean;
}

type Part = 'day' | 'month' | 'year' | 'hour' | 'minute' | 'second';
const englishFormats = new Map<string, Intl.DateTimeFormat>();

/** English's fields through Intl (en-US month names: "Sep", not en-GB's "Sept"), put in our order. */
function englishParts(at: Date, options: Intl.DateTimeFormatOptions): Record<Part, string> {
  const key = JSON.stringify(options);
  let format = englishFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { ...options, hourCycle: 'h23' });
    englishFormats.set(key, format);
  }
  const parts = {} as Record<Part, string>;
  for (const p of format.formatToParts(at)) if (p.type !== 'literal') parts[p.type as Part] = p.value;
  return parts;
}

const clock = { hour: '2-digit', minute: '2-digit' } as const;
const calendar = { day: 'numeric', month: 'short', year: 'numeric' } as const;

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
  const at = new Date(iso);
  if (locale !== DEFAULT_LOCALE)
    return at.toLocaleString(locale, {
      dateStyle: 'medium',
      timeStyle: seconds ? 'medium' : 'short',
      hourCycle: 'h23',
      timeZone,
    });
  const p = englishParts(at, { ...calendar, ...clock, ...(seconds && { second: '2-digit' }), timeZone });
  return `${p.day} ${p.month} ${p.year}, ${p.hour}:${p.minute}${seconds ? `:${p.second}` : ''}`;
}

/** `formatDateTime`, or `fallback` (e.g. "Never") when there is no time. */
export const formatDateTimeOr = (
  iso: string | null | undefined,
  fallback: string,
  options?: DateTimeOptions,
) => (iso ? formatDateTime(iso, options) : fallback);

/**
 * The date alone, in the same format as `formatDateTime`: "29 Nov 2026" (other languages through
 * Intl: "29 nov 2026"). For "member since", created-on columns and day labels.
 */
export function formatDate(iso: string | Date, { timeZone }: Pick<DateTimeOptions, 'timeZone'> = {}): string {
  const locale = currentLocale();
  const at = new Date(iso);
  if (locale !== DEFAULT_LOCALE) return at.toLocaleDateString(locale, { dateStyle: 'medium', timeZone });
  const p = englishParts(at, { ...calendar, timeZone });
  return `${p.day} ${p.month} ${p.year}`;
}

/**
 * A calendar day as a chart's label: "29 Nov" (other languages: "29 nov."). `day` is a date as the
 * server sends it ("2026-11-29", or midnight UTC), shown as that day whatever the browser's zone.
 */
export function formatDay(day: string | Date): string {
  const locale = currentLocale();
  const at = new Date(day);
  if (locale !== DEFAULT_LOCALE)
    return at.toLocaleDateString(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const p = englishParts(at, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return `${p.day} ${p.month}`;
}

/** The time alone, 24-hour: "14:05" (with `seconds`: "14:05:09"), for live timelines and charts. */
export function formatTime(iso: string | Date, { timeZone, seconds = false }: DateTimeOptions = {}): string {
  const locale = currentLocale();
  const at = new Date(iso);
  if (locale !== DEFAULT_LOCALE)
    return at.toLocaleTimeString(locale, {
      timeStyle: seconds ? 'medium' : 'short',
      hourCycle: 'h23',
      timeZone,
    });
  const p = englishParts(at, { ...clock, ...(seconds && { second: '2-digit' }), timeZone });
  return `${p.hour}:${p.minute}${seconds ? `:${p.second}` : ''}`;
}

/**
 * An instant in a given IANA zone, with the zone named, in the same format:
 * "5 Jan 2025, 09:30 (Europe/London)".
 */
export function formatInZone(instant: string | Date, timeZone: string): string {
  return `${formatDateTime(instant, { timeZone })} (${timeZone})`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A count in the app's language: 12345 → "12,345" (en-US), "12.345" (es), "12 345" (fr). */
export function formatNumber(n: number): string {
  const locale = currentLocale();
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  return format.format(n);
}

/** "90 s", "5 min", "2 h 30 min": a batch pause as people say it. */
export function formatPause(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return h ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`;
}
