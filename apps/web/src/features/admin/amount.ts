/**
 * "12.34" → 1234 minor units (2 decimals), exactly; null when it is not an amount. At most
 * `wholeDigits` digits before the point.
 */
export function toMinor(text: string, wholeDigits = 9): number | null {
  const m = new RegExp(`^(\\d{1,${wholeDigits}})(?:\\.(\\d{1,2}))?$`).exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0') || '0');
}
