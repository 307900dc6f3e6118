import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envSchema } from './env-schema';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The files that read the environment: the schema, the SMPP connections, and config.ts (raw reads). */
const CONFIG_FILES = ['env-schema.ts', 'smsc-connections.ts', 'config.ts'];
const configSource = CONFIG_FILES.map((f) => readFileSync(path.join(here, f), 'utf8')).join('\n');
const docPath = path.resolve(here, '../../../../docs/configuration.md');

/**
 * The variables the configuration reads: the keys of its zod schema, plus any read from the raw
 * environment outside the schema (`env.INIT_CWD`, `process.env.X`, `env['X']`).
 */
function variablesRead(schemaKeys: readonly string[], source: string): string[] {
  const raw = [
    ...source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g),
    ...source.matchAll(/\benv\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\]/g),
  ].map((m) => m[1]!);
  return [...new Set([...schemaKeys, ...raw])].sort();
}

/**
 * The variables a Markdown page documents: the names in backticks in the first column of every
 * table whose header's first cell is `variable` (other tables, such as the development
 * variables', are not configuration and are not counted).
 */
function variablesDocumented(markdown: string): string[] {
  const names = new Set<string>();
  let inTable = false;
  let reading = false;
  for (const line of markdown.split('\n')) {
    const row = line.trim();
    if (!row.startsWith('|')) {
      inTable = false;
      continue;
    }
    const first = row.slice(1).split('|')[0]!.trim();
    if (!inTable) {
      // A table's first row is its header: only a table headed `variable` is read.
      inTable = true;
      reading = first.toLowerCase() === 'variable';
      continue;
    }
    if (!reading || /^:?-+:?$/.test(first)) continue;
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

describe('docs/configuration.md', () => {
  const read = variablesRead(Object.keys(envSchema.shape), configSource);
  const documented = variablesDocumented(readFileSync(docPath, 'utf8'));

  it('finds the variables on both sides', () => {
    expect(read).toContain('PORT');
    expect(read).toContain('INIT_CWD');
    expect(read.length).toBeGreaterThan(60);
    expect(documented).toContain('PORT');
  });

  it('documents every variable config.ts reads', () => {
    expect(read.filter((v) => !documented.includes(v))).toEqual([]);
  });

  it('documents no variable config.ts does not read', () => {
    expect(documented.filter((v) => !read.includes(v))).toEqual([]);
  });
});

describe('the parsers', () => {
  it('read schema keys and raw env reads', () => {
    const src = 'const a = env.INIT_CWD; const b = process.env.FOO_BAR; e.NOT_THIS; env["BAZ"]';
    expect(variablesRead(['PORT'], src)).toEqual(['BAZ', 'FOO_BAR', 'INIT_CWD', 'PORT']);
  });

  it('read only the first column of tables headed variable', () => {
    const md = [
      '| variable | default |',
      '| --- | --- |',
      '| `PORT` | `3000` `NOT_A_NAME` |',
      '| `SMSC_SYSTEM_ID` / `SMSC_PASSWORD` | x |',
      '',
      '| development variable | meaning |',
      '| --- | --- |',
      '| `WREN_TRX_POOL_CHECK` | x |',
      '',
      'Text naming `HOST` is not a table.',
      '| variable | default |',
      '|---|---|',
      '| `HOST` | x |',
    ].join('\n');
    expect(variablesDocumented(md)).toEqual(['HOST', 'PORT', 'SMSC_PASSWORD', 'SMSC_SYSTEM_ID']);
  });
});
