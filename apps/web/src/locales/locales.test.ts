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
/** The shell's strings (locales/<locale>.json) and one directory per area (locales/<area>/<locale>.json). */
const areas = [
  '',
  ...readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name),
];
const read = (area: string, locale: string) =>
  JSON.parse(readFileSync(path.join(dir, area, `${locale}.json`), 'utf8')) as Record<string, string>;
const merged = (locale: string) =>
  Object.assign({}, ...areas.map((a) => read(a, locale))) as Record<string, string>;
const en = merged('en-US');
const marks = (s: string) => [...s.matchAll(/\{\{\s*\w+\s*\}\}|<\/?\w+>/g)].map((m) => m[0]).sort();

describe('locale files', () => {
  for (const area of areas) {
    const where = area || 'the shell';
    it(`${where}: one file per locale the app offers, and no other`, () => {
      const files = readdirSync(path.join(dir, area))
        .filter((f) => f.endsWith('.json') && f !== 'untranslated.json')
        .map((f) => f.replace(/\.json$/, ''));
      expect(files.sort()).toEqual([...LOCALES].sort());
    });

    it(`${where}: English keys are the English text`, () => {
      for (const [key, value] of Object.entries(read(area, 'en-US'))) expect(value, key).toBe(key);
    });

    for (const locale of LOCALES.filter((l) => l !== 'en-US')) {
      it(`${where}, ${locale}: every key of en-US and no other, each translated with the same placeholders`, () => {
        const strings = read(area, locale);
        expect(Object.keys(strings).sort()).toEqual(Object.keys(read(area, 'en-US')).sort());
        for (const [key, value] of Object.entries(strings)) {
          expect(value.trim(), `${locale}: ${key}`).not.toBe('');
          expect(marks(value), `${locale}: ${key}`).toEqual(marks(key));
        }
      });
    }
  }

  for (const locale of LOCALES.filter((l) => l !== 'en-US')) {
    it(`${locale}: a key in two files reads the same in both (the files are merged)`, () => {
      const seen = new Map<string, string>();
      const clashes: string[] = [];
      for (const area of areas) {
        for (const [key, value] of Object.entries(read(area, locale))) {
          const before = seen.get(key);
          if (before !== undefined && before !== value) clashes.push(`${area}: ${key}`);
          seen.set(key, value);
        }
      }
      expect(clashes).toEqual([]);
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
