import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { FieldError } from '../../platform/errors';

/** A number given to an OTP service, as E.164 and its country; a FieldError on `field` when invalid. */
export function parseOtpNumber(raw: string, field: string, defaultCountry: string) {
  const parsed = parsePhoneNumberFromString(raw, defaultCountry as CountryCode);
  if (!parsed?.isValid()) {
    throw new FieldError({ [field]: [`Not a valid phone number: ${raw.slice(0, 32)}`] });
  }
  return { e164: parsed.number, country: parsed.country ?? null };
}

/** A range as shown: its digits, then `x` for each digit it spans (`+1415555xxx`). */
export function maskRange(prefix: string, digits: number) {
  return prefix + 'x'.repeat(digits);
}
