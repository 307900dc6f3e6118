import { FIELD_KEY_PATTERN, fieldKeySchema } from '@wren/contracts';
import { translate } from '@/lib/i18n';

/** A field key for a column name: the name itself when it is a valid key, else a slug of it (as the server does). */
export function suggestFieldKey(column: string): string {
  if (FIELD_KEY_PATTERN.test(column)) return column;
  let slug = column
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase()
    .slice(0, 40);
  if (/^\d/.test(slug)) slug = `_${slug}`.slice(0, 40);
  return FIELD_KEY_PATTERN.test(slug) ? slug : '';
}

/**
 * Problems with a list of custom field keys, by position: an invalid or built-in name, or one
 * used twice (case-insensitively, as placeholders are matched).
 */
export function fieldKeyErrors(keys: readonly string[]): Map<number, string> {
  const errors = new Map<number, string>();
  const seen = new Map<string, number>();
  keys.forEach((key, i) => {
    const parsed = fieldKeySchema.safeParse(key);
    if (!parsed.success) {
      errors.set(i, key ? parsed.error.issues[0].message : translate('Give the field a name'));
      return;
    }
    const lower = key.toLowerCase();
    if (seen.has(lower)) errors.set(i, translate('The field name "{{key}}" is used twice', { key }));
    else seen.set(lower, i);
  });
  return errors;
}
