import { fieldKeyErrors } from './field-keys';

/** One custom field row of the contact form. */
export interface FieldRow {
  key: string;
  value: string;
}

export function toFieldRows(fields: Record<string, string>): FieldRow[] {
  return Object.entries(fields).map(([key, value]) => ({ key, value }));
}

const isBlank = (row: FieldRow) => !row.key.trim() && !row.value.trim();

/** The rows as the contact's `fields` map; wholly empty rows are left out. */
export function toFieldMap(rows: readonly FieldRow[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const row of rows) if (!isBlank(row)) fields[row.key.trim()] = row.value;
  return fields;
}

/** Form errors for the rows, keyed like @mantine/form paths (`fields.2.key`). */
export function fieldRowErrors(rows: readonly FieldRow[]): Record<string, string> {
  const used = rows.map((row, i) => ({ row, i })).filter(({ row }) => !isBlank(row));
  const problems = fieldKeyErrors(used.map(({ row }) => row.key.trim()));
  const errors: Record<string, string> = {};
  problems.forEach((message, n) => {
    errors[`fields.${used[n].i}.key`] = message;
  });
  return errors;
}
