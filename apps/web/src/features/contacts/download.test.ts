import { describe, expect, it } from 'vitest';
import { fileNameFrom } from './download';

describe('fileNameFrom', () => {
  it('prefers the UTF-8 name of filename*', () => {
    expect(
      fileNameFrom(
        `attachment; filename="Caf_contacts.csv"; filename*=UTF-8''Caf%C3%A9%20contacts.csv`,
        'x.csv',
      ),
    ).toBe('Café contacts.csv');
  });

  it('reads a quoted or bare filename', () => {
    expect(fileNameFrom('attachment; filename="report.csv"', 'x.csv')).toBe('report.csv');
    expect(fileNameFrom('attachment; filename=report.csv', 'x.csv')).toBe('report.csv');
  });

  it('falls back without a header, a name, or with a malformed escape', () => {
    expect(fileNameFrom(undefined, 'contacts.csv')).toBe('contacts.csv');
    expect(fileNameFrom('attachment', 'contacts.csv')).toBe('contacts.csv');
    expect(fileNameFrom(`attachment; filename="a.csv"; filename*=UTF-8''%E0%A4%A`, 'x.csv')).toBe('a.csv');
  });
});
