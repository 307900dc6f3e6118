import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import remaining from './untranslated.json';

/**
 * Issue 47 item 4: every string of the web app in the resource files. This finds the English a
 * component still writes as a literal: JSX text, and the text props below given a plain string.
 * `untranslated.json` lists the files that still have some, with how many; a file may only go down,
 * a file not listed has none, and a file that reaches none leaves the list (so it stays exact).
 */
const TEXT_PROPS = new Set([
  'label',
  'placeholder',
  'title',
  'description',
  'aria-label',
  'alt',
  'error',
  'confirmLabel',
  'emptyText',
  'message',
]);
const root = path.resolve(import.meta.dirname, '..');
const words = /[A-Za-z]{2,}/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'test' ? [] : files(p);
    return d.name.endsWith('.tsx') && !/\.test\.tsx$/.test(d.name) ? [p] : [];
  });
}

/** The literal English strings of one component file. */
export function literals(source: string, name = 'x.tsx'): string[] {
  const sf = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) {
      const text = node.getText().trim();
      if (words.test(text)) found.push(text);
    } else if (ts.isJsxAttribute(node) && TEXT_PROPS.has(node.name.getText())) {
      const init = node.initializer;
      const literal =
        init && ts.isStringLiteral(init)
          ? init.text
          : init &&
              ts.isJsxExpression(init) &&
              init.expression &&
              (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression))
            ? init.expression.text
            : undefined;
      if (literal !== undefined && words.test(literal)) found.push(literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('literal English in components', () => {
  it('finds JSX text and text props, not translated ones', () => {
    expect(
      literals(`const A = () => <Stack><Text>Hello there</Text><TextInput label="Name" placeholder={t('Your name')} />
        <Button aria-label={'Close'}>{t('Save')}</Button><Badge>{count}</Badge> / </Stack>;`),
    ).toEqual(['Hello there', 'Name', 'Close']);
  });

  const counts = Object.fromEntries(
    files(root)
      .map((f) => [path.relative(root, f), literals(readFileSync(f, 'utf8'), f).length] as const)
      .filter(([, n]) => n > 0),
  );
  const allowed = remaining as Record<string, number>;
  // UNTRANSLATED_REPORT=features/otp prints what is left under that folder, string by string.
  const prefix = process.env.UNTRANSLATED_REPORT;
  if (prefix) {
    for (const f of files(root).filter((f) => path.relative(root, f).startsWith(prefix))) {
      const left = literals(readFileSync(f, 'utf8'), f);
      if (left.length) console.log(`${path.relative(root, f)} (${left.length}): ${JSON.stringify(left)}`);
    }
  }
  // WRITE_UNTRANSLATED=1 rewrites the list from the code (after translating a file).
  if (process.env.WRITE_UNTRANSLATED) {
    const sorted = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(
      path.join(import.meta.dirname, 'untranslated.json'),
      `${JSON.stringify(sorted, null, 2)}\n`,
    );
  }

  it('no file has more than untranslated.json allows, and a file not listed has none', () => {
    const over = Object.entries(counts)
      .filter(([f, n]) => n > (allowed[f] ?? 0))
      .map(([f, n]) => `${f}: ${n} (allowed ${allowed[f] ?? 0})`);
    expect(over).toEqual([]);
  });

  it('untranslated.json is exact: each listed file still has that many', () => {
    const stale = Object.entries(allowed)
      .filter(([f, n]) => (counts[f] ?? 0) !== n)
      .map(([f, n]) => `${f}: listed ${n}, has ${counts[f] ?? 0}`);
    expect(stale).toEqual([]);
  });
});
