import { describe, expect, it } from 'vitest';
import { fieldRowErrors, toFieldMap, toFieldRows } from './contact-fields';
import { suggestFieldKey } from './field-keys';
import { formatBytes, importFileProblem } from './import-file-check';

describe('contact field rows', () => {
  it('round-trip a fields map, dropping wholly empty rows', () => {
    const rows = toFieldRows({ city: 'Lisbon', plan: 'gold' });
    expect(rows).toEqual([
      { key: 'city', value: 'Lisbon' },
      { key: 'plan', value: 'gold' },
    ]);
    expect(toFieldMap([...rows, { key: ' ', value: '' }, { key: ' tier ', value: '' }])).toEqual({
      city: 'Lisbon',
      plan: 'gold',
      tier: '',
    });
  });

  it('flags a value without a name, bad names, built-in names and duplicates', () => {
    expect(
      fieldRowErrors([
        { key: 'city', value: 'x' },
        { key: '', value: '' },
        { key: '', value: 'orphan' },
        { key: 'first name', value: 'a' },
        { key: 'Phone', value: '1' },
        { key: 'CITY', value: 'y' },
      ]),
    ).toEqual({
      'fields.2.key': 'Give the field a name',
      'fields.3.key': expect.stringMatching(/start with a letter/),
      'fields.4.key': expect.stringMatching(/built-in/),
      'fields.5.key': 'The field name "CITY" is used twice',
    });
  });
});

describe('suggestFieldKey', () => {
  it('keeps valid names and slugs the rest', () => {
    expect(suggestFieldKey('city')).toBe('city');
    expect(suggestFieldKey('Código Postal')).toBe('codigo_postal');
    expect(suggestFieldKey('2nd line')).toBe('_2nd_line');
    expect(suggestFieldKey('★')).toBe('');
  });
});

describe('importFileProblem', () => {
  const file = (name: string, size = 10) => ({ name, size });

  it('accepts CSV, TXT and XLSX in any case', () => {
    for (const name of ['a.csv', 'b.TXT', 'c.xlsx']) expect(importFileProblem(file(name))).toBeNull();
  });

  it('rejects other types, old Excel, empty and too large files', () => {
    expect(importFileProblem(file('a.pdf'))).toBe('Choose a CSV, TXT or XLSX file.');
    expect(importFileProblem(file('a.xls'))).toMatch(/\.xls/);
    expect(importFileProblem(file('a.csv', 0))).toBe('The file is empty.');
    expect(importFileProblem(file('a.csv', 20 * 1024 * 1024))).toBeNull();
    expect(importFileProblem(file('a.csv', 20 * 1024 * 1024 + 1))).toBe(
      'The file must be 20.0 MB or smaller.',
    );
  });

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(200 * 1024)).toBe('200 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
