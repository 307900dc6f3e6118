import type { ImportMapping, ImportUploadDto } from '@wren/contracts';
import { translate } from '@/lib/i18n';
import { fieldKeyErrors, suggestFieldKey } from './field-keys';

/** A column of the file that may become a custom field. */
export interface ColumnField {
  column: string;
  include: boolean;
  key: string;
}

export interface MappingState {
  phone: string | null;
  name: string | null;
  /** One entry per column of the file; the phone and name columns are skipped when building. */
  fields: ColumnField[];
}

/** The wizard's starting point: the server's suggestion, with a key ready for every other column. */
export function initialMapping(upload: Pick<ImportUploadDto, 'columns' | 'suggestedMapping'>): MappingState {
  const { phone, name, fields } = upload.suggestedMapping;
  const keyOf = new Map(Object.entries(fields).map(([key, column]) => [column, key]));
  return {
    phone,
    name,
    fields: upload.columns.map((column) => ({
      column,
      include: keyOf.has(column),
      key: keyOf.get(column) ?? suggestFieldKey(column),
    })),
  };
}

/** Columns that can be custom fields: all but the ones chosen for phone and name. */
export function fieldColumns(state: MappingState): { field: ColumnField; index: number }[] {
  return state.fields
    .map((field, index) => ({ field, index }))
    .filter(({ field }) => field.column !== state.phone && field.column !== state.name);
}

export type MappingResult =
  { ok: true; mapping: ImportMapping } | { ok: false; errors: Record<string, string> };

/** The mapping to send, or form errors keyed `phone` / `fields.<index>.key`. */
export function buildMapping(state: MappingState): MappingResult {
  const errors: Record<string, string> = {};
  if (!state.phone) errors.phone = translate('Choose the column that holds the phone numbers');
  const included = fieldColumns(state).filter(({ field }) => field.include);
  const keyProblems = fieldKeyErrors(included.map(({ field }) => field.key.trim()));
  keyProblems.forEach((message, n) => {
    errors[`fields.${included[n].index}.key`] = message;
  });
  if (Object.keys(errors).length || !state.phone) return { ok: false, errors };
  const fields = Object.fromEntries(included.map(({ field }) => [field.key.trim(), field.column]));
  return {
    ok: true,
    mapping: {
      phone: state.phone,
      ...(state.name ? { name: state.name } : {}),
      ...(included.length ? { fields } : {}),
    },
  };
}

/** What a column becomes, for the preview's header. */
export function columnRole(state: MappingState, column: string): string | null {
  if (column === state.phone) return 'Phone';
  if (column === state.name) return 'Name';
  const field = state.fields.find((f) => f.column === column);
  return field?.include && field.key.trim() ? `{{${field.key.trim()}}}` : null;
}
