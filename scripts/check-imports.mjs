#!/usr/bin/env node
// The server's import structure (docs/architecture.md, "Where code lives"), checked on every CI run:
// 1. layers, from the ground up: platform/ and db/ (infrastructure), shared/ (pure helpers),
//    gateway/ (SMPP; knows no accounts), modules/ and realtime/ (the product and its transports),
//    app/ (the composition root, with main.ts). A file imports only from its own layer or below;
//    the one exception is `import type` of app/context.ts, the composed context the root hands to
//    routes and hub methods (a type, no code: app/ is still built last);
// 2. a module reads another module's data only through that module's service: it never imports
//    another module's repository (`*.repository.ts`);
// 3. no circle: no file reaches itself through imports (type-only imports included: a circle of
//    types is a circle of knowledge all the same).
// Test files are left out (a test may reach into anything it tests).
// Prints every violation and exits 1 when there is one; `--list` also prints the layers' arrows.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'apps/server/src');

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC = /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    try {
      if (statSync(c).isFile()) return c;
    } catch {
      // next candidate
    }
  }
  return null;
}

const files = walk(src);
const graph = new Map();
/** Per file, the files it imports with `import type` only. */
const typeOnly = new Map();
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  const deps = new Set();
  const types = new Set();
  for (const m of text.matchAll(IMPORT)) {
    const target = resolve(f, m[2]);
    if (!target || /\.test\.tsx?$/.test(target)) continue;
    if (m[1]) types.add(target);
    else deps.add(target);
  }
  for (const m of text.matchAll(DYNAMIC)) {
    const target = resolve(f, m[1]);
    if (target && !/\.test\.tsx?$/.test(target)) deps.add(target);
  }
  for (const d of deps) types.delete(d);
  graph.set(f, [...deps, ...types]);
  typeOnly.set(f, types);
}

const rel = (f) => path.relative(src, f);
/** The layer of a file: its first folder (`platform`, `modules`, …), or the file itself at the top. */
const layer = (f) => rel(f).split(path.sep)[0];
/** The module a file belongs to (`modules/<name>/…`), or null. */
const moduleOf = (f) => (layer(f) === 'modules' ? rel(f).split(path.sep)[1] : null);

const violations = [];
const LEVEL = { platform: 0, db: 0, shared: 1, gateway: 2, modules: 3, realtime: 3, app: 4, 'main.ts': 4 };
const CONTEXT = path.join(src, 'app', 'context.ts');
for (const f of graph.keys())
  if (LEVEL[layer(f)] === undefined)
    violations.push(`${rel(f)}: not in a known layer (${Object.keys(LEVEL).join(', ')})`);
for (const [f, deps] of graph) {
  for (const d of deps) {
    const up = (LEVEL[layer(d)] ?? 0) > (LEVEL[layer(f)] ?? 0);
    const contextType = d === CONTEXT && typeOnly.get(f)?.has(d);
    if (up && !contextType)
      violations.push(
        `${rel(f)} imports ${rel(d)} (${layer(f)}/ may not import ${layer(d)}/, a layer above it)`,
      );
    const a = moduleOf(f);
    const b = moduleOf(d);
    if (a && b && a !== b && /\.repository\.ts$/.test(d))
      violations.push(
        `${rel(f)} imports ${rel(d)} (module ${a} reads module ${b}'s repository; go through its service)`,
      );
  }
}

// Circles: Tarjan's strongly connected components; any component of more than one file is a circle.
let index = 0;
const idx = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const circles = [];
function strong(v) {
  idx.set(v, index);
  low.set(v, index);
  index += 1;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) {
      strong(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const comp = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(comp);
  }
}
for (const f of graph.keys()) if (!idx.has(f)) strong(f);
for (const c of circles) violations.push(`circle: ${c.map(rel).sort().join(' <-> ')}`);

if (process.argv.includes('--list')) {
  const arrows = new Map();
  for (const [f, deps] of graph)
    for (const d of deps) {
      const k = `${layer(f)} -> ${layer(d)}`;
      if (layer(f) !== layer(d)) arrows.set(k, (arrows.get(k) ?? 0) + 1);
    }
  for (const [k, n] of [...arrows].sort()) console.log(`${k}: ${n}`);
}
if (violations.length > 0) {
  console.error(`Import structure: ${violations.length} violation(s)`);
  for (const v of violations) console.error(`  ${v}`);
  process.exit(1);
}
console.log(`Import structure: ${files.length} files, no arrow back up, no circle`);
