import { FINAL_TIMEOUT_MS } from './peer-settings';
import type { RunResult } from './peer-run';
import { percentile } from './wren-process';

/** bench:peer's printed figures: one run's, and the ratios between the products and the floor. */

export function printRun(r: RunResult) {
  const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const total = r.cpu.product.reduce((s, [, v]) => s + v, 0);
  const lat = [...r.load.latencies].sort((a, b) => a - b);
  console.log(`\n== ${r.name}`);
  console.log(
    `HTTP: ${r.load.accepted} accepted, ${r.load.errors} errors in ${secs(r.load.ended - r.load.started)} = ` +
      `${((r.load.accepted * 1000) / (r.load.ended - r.load.started)).toFixed(0)} accepted/s; ` +
      `p50 ${percentile(lat, 50).toFixed(1)} ms, p99 ${percentile(lat, 99).toFixed(1)} ms`,
  );
  for (const e of r.load.errorSamples) console.log(`  error: ${e}`);
  console.log(
    `submitted to the SMSC: ${r.submitted} by ${secs(r.submitMs)} = ${((r.submitted * 1000) / r.submitMs).toFixed(0)} submitted/s`,
  );
  if (r.timedOut) {
    console.log(
      `NOT ALL FINAL: ${r.final} of ${r.load.accepted} final, ${r.load.accepted - r.final} stayed non-final ` +
        `${FINAL_TIMEOUT_MS / 1000} s after the last submit`,
    );
  } else {
    console.log(
      `all ${r.final} final after ${secs(r.finalMs)} (` +
        (r.finalMs >= r.submitMs
          ? `${secs(r.finalMs - r.submitMs)} after the last submit`
          : 'with the last submit, within the polling interval') +
        `) = ` +
        `${((r.final * 1000) / r.finalMs).toFixed(0)} msg/s end to end`,
    );
  }
  console.log(
    `CPU per message: ${total.toFixed(0)} µs (${r.cpu.product.map(([n, v]) => `${n} ${v.toFixed(0)}`).join(' + ')}); ` +
      `not counted: SMSC simulator ${r.cpu.simulator.toFixed(0)} µs, load generator ${r.cpu.loadGenerator.toFixed(0)} µs`,
  );
  for (const line of [...r.cpu.extra, ...r.notes]) console.log(line);
}

const cpuOf = (r: RunResult) => r.cpu.product.reduce((s, [, v]) => s + v, 0);

/** The Node.js floor's CPU per message against Kannel's. */
export function printFloorRatio(k: RunResult, floorUs: number) {
  const cpu = cpuOf(k);
  console.log(
    `Node.js floor / Kannel: ${(floorUs / cpu).toFixed(2)} (${floorUs.toFixed(0)} µs vs ${cpu.toFixed(0)} µs)`,
  );
}

/** Wren's figures against Kannel's. */
export function printRatios(w: RunResult, k: RunResult) {
  const rate = (r: RunResult) => (r.submitted * 1000) / r.submitMs;
  console.log('\n== Wren / Kannel');
  console.log(`submitted/s: ${(rate(w) / rate(k)).toFixed(2)}`);
  console.log(
    w.timedOut || k.timedOut
      ? `time until every message is final: n/a (${w.timedOut ? 'Wren' : 'Kannel'} left messages non-final)`
      : `time until every message is final: ${(w.finalMs / k.finalMs).toFixed(2)}`,
  );
  console.log(
    `CPU per message: ${(cpuOf(w) / cpuOf(k)).toFixed(2)} (${cpuOf(w).toFixed(0)} µs vs ${cpuOf(k).toFixed(0)} µs)`,
  );
}
