import { toE164 } from '../../shared/phone';
import { unguardCell } from './csv';

/**
 * A contact's phone in E.164, or null when it is not a valid number. Numbers are read in the
 * account's default country unless they carry a country code; a long run of digits without a +
 * (as spreadsheets store international numbers) is also tried as international.
 */
export function normaliseContactPhone(raw: string, defaultCountry: string): string | null {
  const value = unguardCell(raw.trim());
  if (!value) return null;
  const e164 = toE164(value, defaultCountry);
  if (e164) return e164;
  const digits = value.replace(/[\s().-]/g, '');
  if (/^\d{11,15}$/.test(digits)) return toE164(`+${digits}`, defaultCountry);
  return null;
}
