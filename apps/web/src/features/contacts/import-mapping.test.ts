import { describe, expect, it } from 'vitest';
import { buildMapping, columnRole, fieldColumns, initialMapping, type MappingState } from './import-mapping';

const upload = {
  columns: ['Mobile', 'Full Name', 'City', 'Date of birth', '★'],
  suggestedMapping: { phone: 'Mobile', name: 'Full Name', fields: { City: 'City' } },
};

describe('initialMapping', () => {
  it('starts from the suggestion and proposes keys for the other columns', () => {
    const state = initialMapping(upload);
    expect(state.phone).toBe('Mobile');
    expect(state.name).toBe('Full Name');
    expect(state.fields).toEqual([
      { column: 'Mobile', include: false, key: 'Mobile' },
      { column: 'Full Name', include: false, key: 'full_name' },
      { column: 'City', include: true, key: 'City' },
      { column: 'Date of birth', include: false, key: 'date_of_birth' },
      { column: '★', include: false, key: '' },
    ]);
  });

  it('copes with a file where no phone column was found', () => {
    const state = initialMapping({
      columns: ['Column 1'],
      suggestedMapping: { phone: null, name: null, fields: {} },
    });
    expect(state).toEqual({
      phone: null,
      name: null,
      fields: [{ column: 'Column 1', include: false, key: 'column_1' }],
    });
  });
});

describe('fieldColumns', () => {
  it('leaves out the columns used for phone and name', () => {
    expect(fieldColumns(initialMapping(upload)).map(({ field }) => field.column)).toEqual([
      'City',
      'Date of birth',
      '★',
    ]);
  });
});

describe('buildMapping', () => {
  it('sends phone, name and the included fields', () => {
    expect(buildMapping(initialMapping(upload))).toEqual({
      ok: true,
      mapping: { phone: 'Mobile', name: 'Full Name', fields: { City: 'City' } },
    });
  });

  it('leaves name and fields out when none are chosen', () => {
    const state: MappingState = { ...initialMapping(upload), name: null };
    state.fields = state.fields.map((f) => ({ ...f, include: false }));
    expect(buildMapping(state)).toEqual({ ok: true, mapping: { phone: 'Mobile' } });
  });

  it('requires a phone column', () => {
    const result = buildMapping({ ...initialMapping(upload), phone: null });
    expect(result).toEqual({
      ok: false,
      errors: { phone: 'Choose the column that holds the phone numbers' },
    });
  });

  it('reports empty, invalid, reserved and duplicate keys at their column', () => {
    const state = initialMapping(upload);
    state.fields[2] = { column: 'City', include: true, key: 'town' };
    state.fields[3] = { column: 'Date of birth', include: true, key: 'Town' };
    state.fields[4] = { column: '★', include: true, key: '' };
    const result = buildMapping(state);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual({
      'fields.3.key': 'The field name "Town" is used twice',
      'fields.4.key': 'Give the field a name',
    });
    state.fields[2].key = 'name';
    const reserved = buildMapping(state);
    expect(!reserved.ok && reserved.errors['fields.2.key']).toMatch(/built-in/);
  });

  it('ignores a field row for the column now used as phone', () => {
    const state = initialMapping(upload);
    state.phone = 'City';
    const result = buildMapping(state);
    expect(result).toEqual({ ok: true, mapping: { phone: 'City', name: 'Full Name' } });
  });
});

describe('columnRole', () => {
  it('labels phone, name and included fields', () => {
    const state = initialMapping(upload);
    expect(upload.columns.map((c) => columnRole(state, c))).toEqual([
      'Phone',
      'Name',
      '{{City}}',
      null,
      null,
    ]);
  });
});
