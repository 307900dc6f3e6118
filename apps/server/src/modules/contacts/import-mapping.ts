import { FIELD_KEY_PATTERN, RESERVED_FIELD_KEYS, type ImportMapping } from '@wren/contracts';
import type { StoredMapping } from '../../db/schema-directory';
import { FieldError } from '../../platform/errors';
import { normaliseContactPhone } from './contact-phone';

export const MAX_COLUMNS = 200;

const PHONE_HEADER =
  /^(phone|mobile|msisdn|cell|tel|telephone|number|whatsapp)([ _-]?(no|number|nr|#))?$|phone|mobile|msisdn/i;
const NAME_HEADER = /^((full|contact|first|customer)[ _-]?)?name$/i;

/**
 * Column names from the first record: the header, unless the record already holds a phone number,
 * in which case the file has no header and columns are "Column 1", "Column 2", …
 */
export function readHeader(first: string[], widest: number, defaultCountry: string) {
  const hasHeader = !first.some((c) => normaliseContactPhone(c, defaultCountry));
  const width = Math.min(MAX_COLUMNS, hasHeader ? first.length : widest);
  const columns: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < width; i++) {
    let name = (hasHeader ? first[i]?.trim() : '') || `Column ${i + 1}`;
    for (let n = 2; seen.has(name.toLowerCase()); n++)
      name = `${(hasHeader && first[i]?.trim()) || `Column ${i + 1}`} (${n})`;
    seen.add(name.toLowerCase());
    columns.push(name);
  }
  return { hasHeader, columns };
}

/** A field key for a column name: the name itself when it is a valid key, else a slug of it. */
export function fieldKeyFor(column: string): string | null {
  if (FIELD_KEY_PATTERN.test(column)) return column;
  let slug = column
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
    .slice(0, 40);
  if (/^\d/.test(slug)) slug = `_${slug}`.slice(0, 40);
  return FIELD_KEY_PATTERN.test(slug) ? slug : null;
}

/**
 * Guesses the mapping: the phone column by its header, else the column whose sample values are
 * mostly valid numbers; the name column by its header; every other column as a custom field.
 */
export function suggestMapping(columns: string[], sample: string[][], defaultCountry: string): StoredMapping {
  let phone = columns.findIndex((c) => PHONE_HEADER.test(c.trim()));
  if (phone < 0 && sample.length) {
    let best = 0;
    columns.forEach((_, i) => {
      const valid = sample.filter((r) => normaliseContactPhone(r[i] ?? '', defaultCountry)).length;
      if (valid > best && valid >= Math.ceil(sample.length / 2)) {
        best = valid;
        phone = i;
      }
    });
  }
  const name = columns.findIndex((c, i) => i !== phone && NAME_HEADER.test(c.trim()));
  const fields: Record<string, string> = {};
  const reserved = new Set<string>(RESERVED_FIELD_KEYS);
  columns.forEach((c, i) => {
    if (i === phone || i === name) return;
    const key = fieldKeyFor(c);
    if (key && !reserved.has(key.toLowerCase()) && !(key in fields) && Object.keys(fields).length < 50)
      fields[key] = c;
  });
  return { phone: phone >= 0 ? columns[phone] : null, name: name >= 0 ? columns[name] : null, fields };
}

export interface ResolvedMapping {
  phone: number;
  name: number | null;
  fields: [key: string, index: number][];
}

/** Column names to indexes; a 400 naming each column the file does not have. */
export function resolveMapping(mapping: ImportMapping | StoredMapping, columns: string[]): ResolvedMapping {
  const errors: Record<string, string[]> = {};
  const index = (path: string, column: string) => {
    const i = columns.indexOf(column);
    if (i < 0) (errors[path] ??= []).push(`The file has no column "${column}"`);
    return i;
  };
  if (!mapping.phone) {
    throw new FieldError({
      'mapping.phone': ['No phone number column was found; choose the column that holds the phone numbers'],
    });
  }
  const phone = index('mapping.phone', mapping.phone);
  const name = mapping.name ? index('mapping.name', mapping.name) : null;
  const fields = Object.entries(mapping.fields ?? {}).map(
    ([key, column]) => [key, index(`mapping.fields.${key}`, column)] as [string, number],
  );
  if (Object.keys(errors).length) throw new FieldError(errors);
  return { phone, name, fields };
}
