import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** Normalises a phone number to E.164, or returns null when it is not a valid number. */
export function toE164(input: string, defaultCountry: string): string | null {
  const parsed = parsePhoneNumberFromString(input, defaultCountry as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}
