#!/usr/bin/env node
// The whole test suite: unit and server tests (vitest; the server tests on one embedded PostgreSQL
// cluster started for the run by apps/server/test/global-setup.ts, or on the PostgreSQL at
// TEST_DATABASE_URL when it is set), then browser tests in headless Chromium when it is installed
// (each browser test server runs `wren start` on its own embedded PostgreSQL).
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

function run(cmd, args, { capture = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      if (capture) out += d.toString();
    });
    child.stderr.on('data', (d) => {
      process.stderr.write(d);
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

async function vitest() {
  const dir = mkdtempSync(path.join(tmpdir(), 'wren-vitest-'));
  const json = path.join(dir, 'report.json');
  const { code, out, err } = await run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...vitestArgs],
    { capture: true },
  );
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
  const num = (label) => Number(new RegExp(`ℹ ${label} (\\d+)`).exec(out)?.[1] ?? 0);
  totals.passed += num('pass');
  totals.failed += num('fail') + num('cancelled');
  totals.skipped += num('skipped') + num('todo');
  // node:test's spec reporter lists failing tests under "✖ failing tests:" at the end.
  const failing = out.split('✖ failing tests:')[1];
  if (failing)
    failures.push(
      ...failing
        .split('\n')
        .filter((l) => l.startsWith('✖ '))
        .map((l) => `e2e › ${l.slice(2)}`),
    );
  if (code !== 0 && num('fail') === 0) totals.failed += 1;
  return code;
}

let failed = false;
if (only !== 'e2e') failed = (await vitest()) !== 0 || failed;
if (only !== 'unit') failed = (await e2e()) !== 0 || failed;
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failed || totals.failed > 0 ? 1 : 0);
