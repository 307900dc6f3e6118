import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { FieldError } from '../platform/errors';
import maxMetadata from 'libphonenumber-js/metadata.max.json';

/**
 * Phone numbers to E.164 for every path that reads one (single and /v1 sends, OTP, campaigns,
 * contacts, inbound): exactly libphonenumber-js with its `max` metadata (`parseE164`: parse, then
 * `isValid()`), at a fraction of its cost. Campaigns used this reader alone before; the single send
 * spent 7 µs per recipient in libphonenumber-js (bench:api, 100 recipients a request).
 *
 * libphonenumber-js spends most of a number's 10–20 µs building regular expressions: every check
 * (`matchesEntirely`, the national-prefix and IDD patterns, a region's leading digits) compiles its
 * pattern again with `new RegExp(...)`, for every number and every region tried (a +1 number is
 * tried against up to 25 NANPA regions). This module runs the same steps of `parse()` and
 * `isValid()` of libphonenumber-js 1.13 on its own `max` metadata, each pattern compiled once.
 *
 * It takes only inputs whose reading it can follow exactly: digits with an optional leading `+`,
 * spaces, dashes, dots and parentheses (what spreadsheets and CSV files hold). Everything else
 * (letters, extensions, other punctuation or scripts, RFC 3966 URIs) goes to libphonenumber-js
 * itself. phone.test.ts checks the two give the same answer on a broad set of numbers.
 */

/** A region's numbering plan in metadata version 4 (libphonenumber-js metadata.js, NumberingPlan). */
type Plan = readonly unknown[];
/** A number type's entry: [pattern, possibleLengths?]. */
type TypeEntry = readonly [string, (readonly number[] | undefined)?];

interface Metadata {
  version: number;
  country_calling_codes: Record<string, string[]>;
  countries: Record<string, Plan>;
  nonGeographic?: Record<string, Plan>;
}

const META = maxMetadata as unknown as Metadata;
if (META.version !== 4) throw new Error('shared/phone.ts reads libphonenumber-js metadata version 4');

const MIN_LENGTH_FOR_NSN = 2;
const MAX_LENGTH_FOR_NSN = 17;
const MAX_LENGTH_COUNTRY_CODE = 3;
const MAX_INPUT_STRING_LENGTH = 250;

// NumberingPlan accessors (metadata v4 positions).
const callingCodeOf = (p: Plan) => p[0] as string;
const iddPrefixOf = (p: Plan) => p[1] as string | undefined;
const nationalNumberPatternOf = (p: Plan) => p[2] as string;
const possibleLengthsOf = (p: Plan) => p[3] as readonly number[] | undefined;
const nationalPrefixOf = (p: Plan) => p[5] as string | undefined;
const nationalPrefixForParsingOf = (p: Plan) => (p[7] as string | undefined) || nationalPrefixOf(p);
const nationalPrefixTransformRuleOf = (p: Plan) => p[8] as string | undefined;
const leadingDigitsOf = (p: Plan) => p[10] as string | undefined;
const typesOf = (p: Plan) => p[11] as readonly (TypeEntry | 0 | undefined)[] | undefined;

const TYPE_INDEX = {
  FIXED_LINE: 0,
  MOBILE: 1,
  TOLL_FREE: 2,
  PREMIUM_RATE: 3,
  PERSONAL_NUMBER: 4,
  VOICEMAIL: 5,
  UAN: 6,
  PAGER: 7,
  VOIP: 8,
  SHARED_COST: 9,
} as const;
type NumberType = keyof typeof TYPE_INDEX;
const NON_FIXED_LINE_TYPES: readonly NumberType[] = [
  'MOBILE',
  'PREMIUM_RATE',
  'TOLL_FREE',
  'SHARED_COST',
  'VOIP',
  'PERSONAL_NUMBER',
  'PAGER',
  'UAN',
  'VOICEMAIL',
];

// --- compiled patterns, once each --------------------------------------------------------------
const whole = new Map<string, RegExp>();
const prefix = new Map<string, RegExp>();
const bare = new Map<string | undefined, RegExp>();

/** matchesEntirely(): the whole text matches the pattern. */
function matchesEntirely(text: string | undefined, pattern: string): boolean {
  let re = whole.get(pattern);
  if (!re) whole.set(pattern, (re = new RegExp('^(?:' + pattern + ')$')));
  return re.test(text || '');
}
const prefixPattern = (pattern: string) => {
  let re = prefix.get(pattern);
  if (!re) prefix.set(pattern, (re = new RegExp('^(?:' + pattern + ')')));
  return re;
};
/** `new RegExp(pattern)` as libphonenumber-js builds it for `search()`/`match()` (no anchors). */
const barePattern = (pattern: string | undefined) => {
  let re = bare.get(pattern);
  if (!re) bare.set(pattern, (re = new RegExp(pattern as string)));
  return re;
};

// --- Metadata -----------------------------------------------------------------------------------
function countriesForCallingCode(code: string): string[] | undefined {
  const list = META.country_calling_codes[code];
  if (list) {
    if (list.length === 1 && list[0].length === 3) return undefined;
    return list;
  }
  return undefined;
}

function hasCallingCode(code: string): boolean {
  if (countriesForCallingCode(code)) return true;
  if (META.nonGeographic) return Boolean(META.nonGeographic[code]);
  const list = META.country_calling_codes[code];
  return Boolean(list && list.length === 1 && list[0] === '001');
}

function planOfCallingCode(code: string): Plan {
  const country = countriesForCallingCode(code)?.[0];
  const plan = country ? META.countries[country] : META.nonGeographic?.[code];
  if (!plan) throw new Error(`Unknown calling code: ${code}`);
  return plan;
}

function planOfCountry(country: string): Plan {
  const plan = META.countries[country];
  if (!plan) throw new Error(`Unknown country: ${country}`);
  return plan;
}

/** selectNumberingPlan(): a country code (two letters) or a calling code (digits). */
const planOf = (countryOrCallingCode: string) =>
  /^\d+$/.test(countryOrCallingCode)
    ? planOfCallingCode(countryOrCallingCode)
    : planOfCountry(countryOrCallingCode);

function hasTypes(plan: Plan): boolean {
  const types = typesOf(plan);
  if (types && types.length === 0) return false;
  return Boolean(types);
}

function typeOf(plan: Plan, type: NumberType): TypeEntry | undefined {
  if (!hasTypes(plan)) return undefined;
  const entry = typesOf(plan)![TYPE_INDEX[type]];
  return entry || undefined;
}

// --- helpers/getNumberType.js -------------------------------------------------------------------
function isNumberTypeEqualTo(nationalNumber: string, type: NumberType, plan: Plan): boolean {
  const def = typeOf(plan, type);
  if (!def || !def[0]) return false;
  const lengths = def[1] || possibleLengthsOf(plan);
  if (lengths && lengths.indexOf(nationalNumber.length) < 0) return false;
  return matchesEntirely(nationalNumber, def[0]);
}

/** getNumberType() !== undefined: the national number is of some type of its region. */
function hasNumberType(nationalNumber: string, countryOrCallingCode: string | undefined): boolean {
  if (!countryOrCallingCode) return false;
  const plan = planOf(countryOrCallingCode);
  if (!matchesEntirely(nationalNumber, nationalNumberPatternOf(plan))) return false;
  // FIXED_LINE, FIXED_LINE_OR_MOBILE or one of the other types: every branch names a type.
  if (isNumberTypeEqualTo(nationalNumber, 'FIXED_LINE', plan)) return true;
  for (const type of NON_FIXED_LINE_TYPES) if (isNumberTypeEqualTo(nationalNumber, type, plan)) return true;
  return false;
}

// --- helpers/getCountryByCallingCode.js, getCountryByNationalNumber.js --------------------------
function countryByNationalNumber(nationalNumber: string, countries: readonly string[]): string | undefined {
  for (const country of countries) {
    const leading = leadingDigitsOf(planOfCountry(country));
    if (leading) {
      if (nationalNumber && nationalNumber.search(barePattern(leading)) === 0) return country;
    } else if (hasNumberType(nationalNumber, country)) {
      return country;
    }
  }
  return undefined;
}

function countryByCallingCode(callingCode: string, nationalNumber: string): string | undefined {
  const possible = countriesForCallingCode(callingCode);
  if (!possible) return undefined;
  if (possible.length === 1) return possible[0];
  return countryByNationalNumber(nationalNumber, possible);
}

// --- helpers/checkNumberLength.js ----------------------------------------------------------------
type LengthCheck = 'IS_POSSIBLE' | 'TOO_SHORT' | 'TOO_LONG' | 'INVALID_LENGTH';
function checkNumberLength(nationalNumber: string, country: string | undefined, plan: Plan): LengthCheck {
  const lengths = possibleLengthsOf(country ? planOfCountry(country) : plan);
  if (!lengths) return 'IS_POSSIBLE';
  const actual = nationalNumber.length;
  const minimum = lengths[0];
  if (minimum === actual) return 'IS_POSSIBLE';
  if (minimum > actual) return 'TOO_SHORT';
  if (lengths[lengths.length - 1] < actual) return 'TOO_LONG';
  return lengths.indexOf(actual, 1) >= 0 ? 'IS_POSSIBLE' : 'INVALID_LENGTH';
}

// --- helpers/extractNationalNumber*.js -----------------------------------------------------------
function stripNationalPrefix(number: string, plan: Plan): string {
  const forParsing = nationalPrefixForParsingOf(plan);
  if (number && forParsing) {
    const pattern = prefixPattern(forParsing);
    const match = pattern.exec(number);
    if (match) {
      const groups = match.length - 1;
      const hasCapturedGroups = groups > 0 && match[groups];
      const rule = nationalPrefixTransformRuleOf(plan);
      if (rule && hasCapturedGroups) return number.replace(pattern, rule);
      return number.slice(match[0].length);
    }
  }
  return number;
}

function extractNationalNumber(number: string, plan: Plan): string {
  const nationalNumber = stripNationalPrefix(number, plan);
  if (nationalNumber !== number) {
    const pattern = nationalNumberPatternOf(plan);
    // shouldHaveExtractedNationalPrefix()
    if (matchesEntirely(number, pattern) && !matchesEntirely(nationalNumber, pattern)) return number;
    if (possibleLengthsOf(plan)) {
      const country = countryByCallingCode(callingCodeOf(plan), nationalNumber);
      // isPossibleIncompleteNationalNumber()
      const length = checkNumberLength(nationalNumber, country, plan);
      if (length === 'TOO_SHORT' || length === 'INVALID_LENGTH') return number;
    }
  }
  return nationalNumber;
}

// --- helpers/extractCountryCallingCode.js and its helpers ----------------------------------------
function stripIddPrefix(number: string, country: string): string | undefined {
  const idd = barePattern(iddPrefixOf(planOfCountry(country)));
  if (number.search(idd) !== 0) return undefined;
  const rest = number.slice(number.match(idd)![0].length);
  const firstDigit = /([0-9])/.exec(rest);
  if (firstDigit && firstDigit[1] != null && firstDigit[1].length > 0 && firstDigit[1] === '0')
    return undefined;
  return rest;
}

function callingCodeWithoutPlus(number: string, defaultCountry: string): { code?: string; number: string } {
  const plan = planOfCountry(defaultCountry);
  const code = callingCodeOf(plan);
  if (number.indexOf(code) === 0) {
    const shorter = number.slice(code.length);
    const shorterNational = extractNationalNumber(shorter, plan);
    const national = extractNationalNumber(number, plan);
    const pattern = nationalNumberPatternOf(plan);
    if (
      (!matchesEntirely(national, pattern) && matchesEntirely(shorterNational, pattern)) ||
      checkNumberLength(national, undefined, plan) === 'TOO_LONG'
    ) {
      return { code, number: shorter };
    }
  }
  return { number };
}

function extractCountryCallingCode(
  input: string,
  defaultCountry: string,
): { code?: string; number?: string } {
  let number = input;
  if (!number) return {};
  if (number[0] !== '+') {
    const withoutIdd = stripIddPrefix(number, defaultCountry);
    if (withoutIdd && withoutIdd !== number) {
      number = '+' + withoutIdd;
    } else {
      const found = callingCodeWithoutPlus(number, defaultCountry);
      if (found.code) return found;
      return { number };
    }
  }
  if (number[1] === '0') return {};
  for (let i = 2; i - 1 <= MAX_LENGTH_COUNTRY_CODE && i <= number.length; i++) {
    const code = number.slice(1, i);
    if (hasCallingCode(code)) return { code, number: number.slice(i) };
  }
  return {};
}

// --- parse.js + PhoneNumber.isValid() -------------------------------------------------------------
/** parsePhoneNumberFromString(digits, defaultCountry)?.isValid() ? .number : null, for "+digits" or "digits". */
function validE164(digits: string, defaultCountry: string): string | null {
  const extracted = extractCountryCallingCode(digits, defaultCountry);
  const number = extracted.number;
  let code = extracted.code;
  let country: string | undefined;
  let plan: Plan;
  if (code) {
    plan = planOfCallingCode(code);
  } else if (number) {
    country = defaultCountry;
    plan = planOfCountry(defaultCountry);
    code = callingCodeOf(plan);
  } else {
    return null; // no numbering plan: INVALID_COUNTRY
  }
  if (!number) return null; // TOO_SHORT
  const nationalNumber = extractNationalNumber(number, plan);
  const exact = countryByCallingCode(code, nationalNumber);
  if (exact) country = exact;
  if (!nationalNumber || nationalNumber.length < MIN_LENGTH_FOR_NSN) return null;
  if (nationalNumber.length > MAX_LENGTH_FOR_NSN) return null;
  // isValid(): the region's types when it has them, else its national number pattern.
  const validity = planOf(country || code);
  const valid = hasTypes(validity)
    ? hasNumberType(nationalNumber, country || code)
    : matchesEntirely(nationalNumber, nationalNumberPatternOf(validity));
  return valid ? '+' + code + nationalNumber : null;
}

/** Digits with an optional leading "+" and the punctuation of spreadsheets: the inputs read here. */
const SIMPLE_INPUT = /^\+?[0-9 ().-]*$/;

/** Whether toE164 reads `value` itself (else libphonenumber-js does). */
export const readsItself = (value: string, defaultCountry: string) =>
  SIMPLE_INPUT.test(value) && Object.prototype.hasOwnProperty.call(META.countries, defaultCountry);

/**
 * libphonenumber-js's own reading (`max` metadata): E.164, or null when not a valid number. The
 * reference `toE164` follows, and what it falls back to for inputs it does not read itself.
 */
export function parseE164(input: string, defaultCountry: string): string | null {
  const parsed = parsePhoneNumberFromString(input, defaultCountry as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}

/** Normalises a phone number to E.164, or returns null when it is not a valid number. */
export function toE164(value: string, defaultCountry: string): string | null {
  if (!readsItself(value, defaultCountry)) return parseE164(value, defaultCountry);
  // parse.js extractFormattedPhoneNumber(): too long, or no digit at all.
  if (value.length > MAX_INPUT_STRING_LENGTH) return null;
  const plus = value.charCodeAt(0) === 43;
  let first = -1;
  let last = -1;
  let digits = '';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (first < 0) first = i;
      last = i;
      digits += value[i];
    }
  }
  if (first < 0) return null;
  // isViablePhoneNumber() of the text from the "+" (or the first digit) to the last digit: three
  // digits among the punctuation, or exactly two digits and nothing else.
  const viable = digits.length >= 3 || (!plus && digits.length === 2 && last - first === 1);
  if (!viable) return null;
  return validE164(plus ? '+' + digits : digits, defaultCountry);
}

/**
 * The one check of a list of country codes (an OTP service's or an account's allowed countries):
 * a FieldError on `field` naming each code that is not a country libphonenumber knows ("UK": the
 * United Kingdom is GB). A two-letter pattern alone let "XX" through, and every send was refused.
 */
export function checkCountryCodes(field: string, codes: readonly string[] | null | undefined) {
  const unknown = (codes ?? []).filter((c) => !isSupportedCountry(c));
  if (unknown.length === 0) return;
  const hint = unknown.includes('UK') ? ' (the United Kingdom is GB)' : '';
  throw new FieldError({
    [field]: [`Not a country code: ${unknown.join(', ')}${hint}. Use ISO codes such as US, GB or DE.`],
  });
}
