#!/usr/bin/env node
// Runs the browser specs, each spec file in its own `node --test` process, E2E_CONCURRENCY files at
// a time (default 1; 2 is not yet measured on the shared 2-core machine, docs/benchmarks.md),
// longest first by the previous run's times (.tmp/spec-times.json). Each file's output is printed
// whole when it ends (at once with E2E_CONCURRENCY=1). Ends with node:test's totals ("ℹ pass N", ...)
// over all files, the failing tests ("✖ failing tests:") and the slowest spec files with their times.
// Arguments: spec files (default specs/*.spec.ts).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const E2E_DIR = path.dirname(fileURLToPath(import.meta.url));
const TIMES = path.join(E2E_DIR, '.tmp', 'spec-times.json');
const concurrency = Math.max(1, Number(process.env.E2E_CONCURRENCY ?? 1) || 1);
const SLOWEST = 20;

const files =
  process.argv.length > 2
    ? process.argv.slice(2).map((f) => path.relative(E2E_DIR, path.resolve(f)))
    : readdirSync(path.join(E2E_DIR, 'specs'))
        .filter((f) => f.endsWith('.spec.ts'))
        .sort()
        .map((f) => `specs/${f}`);

let previous = {};
try {
  previous = JSON.parse(readFileSync(TIMES, 'utf8'));
} catch {
  // first run: alphabetical
}
const queue = [...files].sort((a, b) => (previous[b] ?? 0) - (previous[a] ?? 0));

// One data directory migrated once for the run, which each spec's servers copy (lib/server.ts);
// E2E_FRESH_DATA=1: every server runs initdb and the migrations itself, as a first `wren start` does.
const template = path.join(E2E_DIR, '.tmp', `data-template-${process.pid}`);
const env = { ...process.env };
if (!process.env.DATABASE_URL && process.env.E2E_FRESH_DATA !== '1') {
  const t0 = Date.now();
  try {
    rmSync(template, { recursive: true, force: true });
    execFileSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'migrate'], {
      cwd: path.resolve(E2E_DIR, '..'),
      env: { ...process.env, DATA_DIR: template, LOG_LEVEL: 'warn' },
      stdio: 'inherit',
    });
    env.E2E_DATA_TEMPLATE = template;
    console.log(`Data directory template (wren migrate): ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  } catch (err) {
    console.log(`No data directory template (each server runs initdb): ${err.message}`);
  }
}

const COUNTS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const totals = Object.fromEntries(COUNTS.map((k) => [k, 0]));
const failing = [];
const times = {};

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', file], {
      cwd: E2E_DIR,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const take = (stream) => (d) => {
      out += d.toString();
      if (concurrency === 1) stream.write(d);
    };
    child.stdout.on('data', take(process.stdout));
    child.stderr.on('data', take(process.stderr));
    child.on('close', (code) => {
      const seconds = (Date.now() - started) / 1000;
      times[file] = seconds;
      if (concurrency > 1) process.stdout.write(`\n── ${file}\n${out}`);
      console.log(`── ${file}: ${seconds.toFixed(1)} s, exit ${code}`);
      let counted = false;
      for (const k of COUNTS) {
        const all = [...out.matchAll(new RegExp(`ℹ ${k} (\\d+)`, 'g'))];
        if (all.length > 0) {
          totals[k] += Number(all.at(-1)[1]);
          counted = true;
        }
      }
      const failed = out.split('✖ failing tests:').slice(1).at(-1);
      if (failed) failing.push(`${file}\n${failed.trim()}`);
      else if (code !== 0) {
        // It ended without a failed test to show (a crash, a timeout of the file): say so.
        failing.push(`${file}\n✖ ${file} exited with ${code}${counted ? '' : ' before reporting'}`);
        if (!counted || totals.fail === 0) totals.fail += 1;
      }
      resolve(code);
    });
  });
}

const started = Date.now();
let worst = 0;
await Promise.all(
  Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) worst = Math.max(worst, await runFile(file));
  }),
);

rmSync(template, { recursive: true, force: true });
mkdirSync(path.dirname(TIMES), { recursive: true });
writeFileSync(TIMES, `${JSON.stringify({ ...previous, ...times }, null, 2)}\n`);

const wall = (Date.now() - started) / 1000;
const sum = Object.values(times).reduce((a, b) => a + b, 0);
const top = Object.entries(times)
  .sort((a, b) => b[1] - a[1])
  .slice(0, SLOWEST);
console.log(
  `\nSlowest ${top.length} of ${files.length} browser spec files (${sum.toFixed(0)} s in all files, ` +
    `${wall.toFixed(0)} s wall, ${concurrency} at a time):\n` +
    top.map(([f, s]) => `  ${s.toFixed(1).padStart(7)} s  ${f}`).join('\n'),
);
console.log(`\n${COUNTS.map((k) => `ℹ ${k} ${totals[k]}`).join('\n')}`);
if (failing.length > 0) console.log(`\n✖ failing tests:\n\n${failing.join('\n\n')}`);
process.exit(worst === 0 && totals.fail === 0 && totals.cancelled === 0 ? 0 : 1);
