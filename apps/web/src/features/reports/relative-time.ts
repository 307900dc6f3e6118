import { currentLocale, translate } from '@/lib/i18n';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** "in 3 hours", "in 2 days", "in 1 minute"; "now" within half a minute. */
export function relativeTime(iso: string, now = Date.now()): string {
  const diff = new Date(iso).getTime() - now;
  if (Math.abs(diff) < 30_000) return translate('now');
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms || unit === 'minute')
      return new Intl.RelativeTimeFormat(currentLocale(), { numeric: 'auto' }).format(
        Math.round(diff / ms),
        unit,
      );
  }
  return translate('now');
}
