import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** One number the user entered: as typed, and its E.164 form when it is a valid number. */
export interface RecipientEntry {
  input: string;
  /** E.164 (`+14155552671`), or null when the input is not a valid phone number. */
  e164: string | null;
  /** ISO country of the number, when known. */
  country: string | null;
}

/** A phone number has at most this many space-separated groups ("+44 20 7946 0958" has 4). */
const MAX_GROUPS = 6;

/** Separators that always end a number; spaces only do when the pieces are numbers on their own. */
const HARD_SEPARATORS = /[,;\n\r\t]+/;

export function parseRecipient(input: string, defaultCountry: string): RecipientEntry {
  const trimmed = input.trim();
  const parsed = parsePhoneNumberFromString(trimmed, defaultCountry as CountryCode);
  if (!parsed?.isValid()) return { input: trimmed, e164: null, country: null };
  return { input: trimmed, e164: parsed.number, country: parsed.country ?? null };
}

/**
 * Splits typed or pasted text into candidate numbers. Commas, semicolons, tabs and line breaks
 * always separate; spaces separate too, except inside a number written in groups
 * ("+44 20 7946 0958"): the longest run of space-separated pieces that is a valid number is kept
 * together.
 */
export function splitRecipients(text: string, defaultCountry: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(HARD_SEPARATORS)) {
    const pieces = chunk.trim().split(/\s+/).filter(Boolean);
    let i = 0;
    while (i < pieces.length) {
      let taken = 1;
      for (let n = Math.min(MAX_GROUPS, pieces.length - i); n > 1; n--) {
        if (parseRecipient(pieces.slice(i, i + n).join(' '), defaultCountry).e164) {
          taken = n;
          break;
        }
      }
      out.push(pieces.slice(i, i + taken).join(' '));
      i += taken;
    }
  }
  return out;
}

export interface AddResult {
  entries: RecipientEntry[];
  /** How many of the new inputs were already in the list (same E.164, or same text if invalid). */
  duplicates: number;
}

const keyOf = (entry: RecipientEntry) => entry.e164 ?? `raw:${entry.input}`;

/** Adds the numbers in `text` to `current`, skipping duplicates. */
export function addRecipients(current: RecipientEntry[], text: string, defaultCountry: string): AddResult {
  const seen = new Set(current.map(keyOf));
  const entries = [...current];
  let duplicates = 0;
  for (const input of splitRecipients(text, defaultCountry)) {
    const entry = parseRecipient(input, defaultCountry);
    const key = keyOf(entry);
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    entries.push(entry);
  }
  return { entries, duplicates };
}

/** The E.164 numbers of the valid entries. */
export const validNumbers = (entries: RecipientEntry[]): string[] =>
  entries.flatMap((e) => (e.e164 ? [e.e164] : []));

/** The country used for numbers written without a `+` prefix: the user's own phone's, else US. */
export function defaultCountryFor(phone: string | null | undefined): string {
  if (!phone) return 'US';
  return parsePhoneNumberFromString(phone)?.country ?? 'US';
}
