#!/usr/bin/env node
// The whole test suite: unit and server tests (vitest; the server tests on one embedded PostgreSQL
// cluster started for the run by apps/server/test/global-setup.ts, or on the PostgreSQL at
// TEST_DATABASE_URL when it is set), then browser tests in headless Chromium when it is installed
// (each browser test server runs `wren start` on its own embedded PostgreSQL; e2e/run.mjs runs the
// spec files), then the fault run (npm run test:faults, a fixed seed). Each stage lists its 20
// slowest test files with their seconds.
// Ends with one summary line: "N passed, N failed, N skipped".
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const only = process.argv[2]; // optional: "unit" or "e2e"; further arguments go to vitest
const vitestArgs = process.argv.slice(3);
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = []; // "file › test" of every failed test, repeated after the summary line
const SLOWEST = 20; // how many of the slowest test files each stage lists

/** The `SLOWEST` longest of `files` ([name, seconds]), as lines for the log. */
function slowest(title, files) {
  const top = [...files].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST);
  const total = files.reduce((sum, [, s]) => sum + s, 0);
  const lines = top.map(([name, s]) => `  ${s.toFixed(1).padStart(7)} s  ${name}`);
  return `\nSlowest ${top.length} of ${files.length} ${title} (${total.toFixed(0)} s in all files):\n${lines.join('\n')}`;
}

/**
 * Runs `cmd`, its output streamed to ours; `capture` keeps it for the caller. With `log` (an array),
 * it is kept there instead of streamed, both streams in order, for a run alongside another.
 */
function run(cmd, args, { capture = false, env = {}, log = null } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      if (log) log.push(d);
      else process.stdout.write(d);
      if (capture) out += d.toString();
    });
    child.stderr.on('data', (d) => {
      if (log) log.push(d);
      else process.stderr.write(d);
      // The last 256 KB: enough for an unhandled-error report, bounded for a noisy run.
      if (capture) err = (err + d.toString()).slice(-262_144);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** Vitest's "Unhandled Errors" report (error, stack, originating file), for the failure list. */
function unhandledReport(text) {
  const plain = text.replace(ANSI, '');
  const at = plain.search(/Unhandled (Errors?|Rejection)/);
  if (at < 0) return null;
  return plain
    .slice(at)
    .split('\n')
    .filter((l) => l.trim() !== '' && !/^[⎯\s]+$/.test(l))
    .slice(0, 40)
    .join('\n    ');
}

/** One vitest run (`args` after `vitest run`); `env` and `log` as for run(). */
async function vitest(args = vitestArgs, { env = {}, log = null, title = 'vitest files' } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'wren-vitest-'));
  const json = path.join(dir, 'report.json');
  const { code, out, err } = await run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...args],
    { capture: true, env, log },
  );
  const print = (text) => (log ? log.push(`${text}\n`) : console.log(text));
  const unhandled = unhandledReport(`${out}\n${err}`);
  if (existsSync(json)) {
    const r = JSON.parse(readFileSync(json, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    if (code !== 0 && r.numFailedTests === 0) {
      // A global set-up or unhandled error fails the run without failing a test: count and name it.
      totals.failed += 1;
      failures.push(
        `vitest exited with ${code} without a failed test (set-up or unhandled error; see above)`,
      );
    }
    if (code !== 0 && unhandled) {
      // Repeated here: in a long log the report scrolls out of what is kept.
      failures.push(unhandled);
    }
    const times = (r.testResults ?? [])
      .filter((f) => f.startTime && f.endTime)
      .map((f) => [path.relative(process.cwd(), f.name), (f.endTime - f.startTime) / 1000]);
    if (times.length > 0) print(slowest(title, times));
    for (const file of r.testResults ?? []) {
      const rel = path.relative(process.cwd(), file.name);
      for (const t of file.assertionResults ?? []) {
        if (t.status === 'failed')
          failures.push(`${rel} › ${t.fullName}\n    ${(t.failureMessages?.[0] ?? '').split('\n')[0]}`);
      }
      if ((file.assertionResults ?? []).length === 0 && file.status === 'failed')
        failures.push(`${rel}: ${file.message ?? 'failed to run'}`);
    }
  } else if (code !== 0) {
    totals.failed += 1;
  }
  rmSync(dir, { recursive: true, force: true });
  return code;
}

async function e2e() {
  if (!existsSync(CHROMIUM)) {
    console.log(
      `\nSKIPPED browser tests: ${CHROMIUM} not found. Install it with: apt-get install -y chromium\n`,
    );
    return 0;
  }
  console.log('\nBuilding the web app for the browser tests…');
  const build = await run('npm', ['run', '-s', 'build']);
  if (build.code !== 0) {
    totals.failed += 1;
    return build.code;
  }
  const { code, out } = await run('npm', ['run', '-s', '-w', '@wren/e2e', 'test'], { capture: true });
  // e2e/run.mjs runs each spec file on its own and ends with the totals over all of them: the last
  // "ℹ pass N" and "✖ failing tests:" of the output are those.
  const num = (label) => Number([...out.matchAll(new RegExp(`ℹ ${label} (\\d+)`, 'g'))].at(-1)?.[1] ?? 0);
  totals.passed += num('pass');
  totals.failed += num('fail') + num('cancelled');
  totals.skipped += num('skipped') + num('todo');
  // node:test's spec reporter lists failing tests under "✖ failing tests:" at the end.
  const failing = out.split('✖ failing tests:').slice(1).at(-1);
  if (failing) {
    // Each failing test with the first lines of its error: the end of CI's output is often all
    // that is kept, and the reason is what the next person needs.
    const lines = failing.split('\n');
    lines.forEach((l, i) => {
      if (!l.startsWith('✖ ')) return;
      // The error's message runs up to its stack frames: with page-health's page problems and what
      // the open pages showed, it is often the only explanation CI keeps.
      const rest = lines.slice(i + 1, i + 24).map((w) => w.trim());
      const end = rest.findIndex((w) => w.startsWith('✖ ') || w.startsWith('at '));
      const why = (end === -1 ? rest : rest.slice(0, end)).filter(Boolean).join(' ').slice(0, 1200);
      failures.push(`e2e › ${l.slice(2)}${why ? `\n      ${why}` : ''}`);
    });
  }
  if (code !== 0 && num('fail') === 0) totals.failed += 1;
  return code;
}

/**
 * TEST_AGAIN_DATABASE_URL (CI sets it): after the vitest stage, the server tests again on the
 * PostgreSQL at that URL, while the browser tests run (they mostly wait on Chromium and leave
 * CPU over); its output is printed after them and its results join the totals.
 */
const againUrl = process.env.TEST_AGAIN_DATABASE_URL;
async function serverTestsAgain() {
  const log = [];
  const started = Date.now();
  // Tests of the embedded cluster itself (they start their own, never TEST_DATABASE_URL) ran already.
  const embeddedOnly = ['embedded-postgres', 'backup'].flatMap((f) => [
    '--exclude',
    `**/platform/${f}.test.ts`,
  ]);
  const code = await vitest(['--project', 'server', ...embeddedOnly], {
    // One file at a time beside the browser tests (TEST_AGAIN_WORKERS), so that both keep to 2 cores.
    env: {
      TEST_DATABASE_URL: againUrl,
      TEST_AGAIN_DATABASE_URL: '',
      VITEST_MAX_WORKERS: process.env.TEST_AGAIN_WORKERS ?? '1',
    },
    log,
    title: `server test files on ${againUrl.replace(/\/\/[^@]*@/, '//')}`,
  });
  return { code, log, seconds: (Date.now() - started) / 1000 };
}

let failed = false;
let stageStart = Date.now();
const stageTime = (name) => {
  console.log(`\n== ${name}: ${((Date.now() - stageStart) / 1000).toFixed(0)} s`);
  stageStart = Date.now();
};
if (only !== 'e2e') {
  failed = (await vitest()) !== 0 || failed;
  stageTime('vitest');
}
const again = againUrl && only !== 'e2e' ? serverTestsAgain() : null;
if (only !== 'unit') {
  failed = (await e2e()) !== 0 || failed;
  stageTime('browser tests');
}
if (again) {
  const { code, log, seconds } = await again;
  console.log(`\n== The server tests again, on TEST_AGAIN_DATABASE_URL (alongside the browser tests):\n`);
  for (const chunk of log) process.stdout.write(chunk);
  console.log(`\n== server tests on TEST_AGAIN_DATABASE_URL: ${seconds.toFixed(0)} s`);
  failed = code !== 0 || failed;
}
/**
 * The fault run (apps/server/test/faults/run.ts, issue 44): a fixed seed and 90 s of load on a
 * quiet machine, after the other stages (it starts four Wren processes of its own). FAULTS_SEED and
 * FAULTS_MINUTES change it; TEST_FAULTS=0 leaves it out.
 */
if (!only && process.env.TEST_FAULTS !== '0') {
  stageStart = Date.now();
  console.log(`\n== fault run (seed ${process.env.FAULTS_SEED ?? 1}):\n`);
  const { code } = await run('npm', ['run', '-s', 'test:faults'], {
    env: { FAULTS_SEED: process.env.FAULTS_SEED ?? '1', FAULTS_MINUTES: process.env.FAULTS_MINUTES ?? '1.5' },
  });
  if (code === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push('fault run › see its table above (FAULTS_SEED reproduces it)');
  }
  stageTime('fault run');
}
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failed || totals.failed > 0 ? 1 : 0);
