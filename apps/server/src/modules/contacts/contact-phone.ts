import { toE164 } from '../../shared/phone';
import { unguardCell } from './csv';

/**
 * A contact's phone in E.164, or null when it is not a valid number. Numbers are read in the
 * account's default country unless they carry a country code; a long run of digits without a +
 * (as spreadsheets store international numbers) is also tried as international.
 */
export function normaliseContactPhone(
  raw: string,
  defaultCountry: string,
  /** The E.164 reading (phone.test.ts passes libphonenumber-js's own, parseE164, to compare). */
  read: (value: string, defaultCountry: string) => string | null = toE164,
): string | null {
  const value = unguardCell(raw.trim());
  if (!value) return null;
  const e164 = read(value, defaultCountry);
  if (e164) return e164;
  const digits = value.replace(/[\s().-]/g, '');
  if (/^\d{11,15}$/.test(digits)) return read(`+${digits}`, defaultCountry);
  return null;
}
