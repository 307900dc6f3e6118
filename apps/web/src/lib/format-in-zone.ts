/** A timestamp in a given IANA zone, with the zone named, e.g. "Jan 5, 2025, 9:30 AM (Europe/London)". */
export function formatInZone(iso: string, timeZone: string): string {
  const text = new Intl.DateTimeFormat('en-US', {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
  return `${text} (${timeZone})`;
}
