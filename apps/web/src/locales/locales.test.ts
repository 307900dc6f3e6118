import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LOCALES } from '@wren/contracts';
import { describe, expect, it } from 'vitest';
import { ADMIN_MENU, MENU, isMenuGroup, type MenuSection } from '@/app/layout/menu';

/**
 * The CI check of issue 47 item 4: no locale lacks a key, has one English does not, or changes a
 * string's placeholders ({{username}}) or tags (<strong>); and every menu label is a key.
 */
const dir = import.meta.dirname;
const read = (locale: string) =>
  JSON.parse(readFileSync(path.join(dir, `${locale}.json`), 'utf8')) as Record<string, string>;
const en = read('en-US');
const marks = (s: string) => [...s.matchAll(/\{\{\s*\w+\s*\}\}|<\/?\w+>/g)].map((m) => m[0]).sort();

describe('locale files', () => {
  it('has one file per locale the app offers, and no other', () => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...LOCALES].sort());
  });

  it('English keys are the English text', () => {
    for (const [key, value] of Object.entries(en)) expect(value, key).toBe(key);
  });

  for (const locale of LOCALES.filter((l) => l !== 'en-US')) {
    it(`${locale}: every key of en-US and no other, each translated with the same placeholders`, () => {
      const strings = read(locale);
      expect(Object.keys(strings).sort()).toEqual(Object.keys(en).sort());
      for (const [key, value] of Object.entries(strings)) {
        expect(value.trim(), `${locale}: ${key}`).not.toBe('');
        expect(marks(value), `${locale}: ${key}`).toEqual(marks(key));
      }
    });
  }

  it('every menu label and caption is a key', () => {
    const labels = (sections: MenuSection[]) =>
      sections.flatMap((s) => [
        ...(s.caption ? [s.caption] : []),
        ...s.items.flatMap((i) =>
          isMenuGroup(i) ? [i.label, ...i.children.map((c) => c.label)] : [i.label],
        ),
      ]);
    const missing = labels([...MENU, ADMIN_MENU]).filter((l) => !(l in en));
    expect(missing).toEqual([]);
  });
});
