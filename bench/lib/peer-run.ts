import type { Dispatcher } from 'undici';
import { runLoad, type LoadResult } from './load';
import { CONCURRENCY, FINAL_TIMEOUT_MS, N, WARMUP } from './peer-settings';

/** What one product's run measured (bench:peer), and the waits every run shares. */

export interface Cpu {
  /** µs per message by process, for the product. */
  product: [string, number][];
  simulator: number;
  loadGenerator: number;
  /** Not counted: shared by every database on the server, or machine-wide. */
  extra: string[];
}

export interface RunResult {
  name: string;
  load: LoadResult;
  submitted: number;
  /** ms from the first request until the last message was submitted / was final. */
  submitMs: number;
  finalMs: number;
  final: number;
  timedOut: boolean;
  cpu: Cpu;
  notes: string[];
}

export const us = (seconds: number, messages: number) => (seconds * 1e6) / Math.max(1, messages);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends WARMUP requests (built by `request(i)` from index N on, so no measured recipient repeats),
 * then waits until `finalCount()` reaches `base + accepted`. Returns the final count to count from.
 */
export async function warmUp(
  origin: string,
  request: (i: number) => Dispatcher.RequestOptions,
  finalCount: () => Promise<number>,
) {
  const base = await finalCount();
  if (WARMUP <= 0) return base;
  const l = await runLoad(origin, WARMUP, CONCURRENCY, (i) => request(N + i));
  if (l.errors > 0) throw new Error(`warm-up: ${l.errors} errors: ${l.errorSamples.join('; ')}`);
  const deadline = performance.now() + FINAL_TIMEOUT_MS;
  for (;;) {
    const n = await finalCount();
    if (n >= base + l.accepted) return n;
    if (performance.now() > deadline) throw new Error(`warm-up: ${n - base} of ${l.accepted} final`);
    await sleep(100);
  }
}

/**
 * Polls `progress` until `final` reaches the accepted count, or until no message was submitted for
 * FINAL_TIMEOUT_MS after the load ended (a bounded wait: a stuck message is a finding, not a hang).
 * `measure` (CPU counters) is taken whenever messages progressed, so a timed-out run is measured up to
 * its last progress, not over the idle wait.
 */
export async function waitForFinal<M>(
  load: Promise<LoadResult>,
  progress: () => Promise<{ submitted: number; final: number }>,
  intervalMs: number,
  measure: () => M,
) {
  let loadDone: LoadResult | undefined;
  let loadFailed: unknown;
  load.then(
    (l) => (loadDone = l),
    (err: unknown) => (loadFailed = err ?? new Error('load failed')),
  );
  let submitted = 0;
  let final = 0;
  let lastSubmitAt = performance.now();
  let submitAllAt = 0;
  let measured = measure();
  let measuredAt = 0;
  const hardDeadline = performance.now() + 60 * 60_000;
  for (;;) {
    const asked = performance.now();
    const p = await progress();
    const now = performance.now();
    const moved = p.submitted > submitted || p.final > final;
    if (p.submitted > submitted) {
      submitted = p.submitted;
      lastSubmitAt = asked;
    }
    final = p.final;
    if (loadFailed) throw loadFailed;
    const target = loadDone?.accepted ?? Infinity;
    if ((moved && now - measuredAt >= 200) || final >= target) {
      measured = measure();
      measuredAt = now;
    }
    if (loadDone) {
      if (!submitAllAt && submitted >= target) submitAllAt = lastSubmitAt;
      const result = { submitted, final, submitAllAt: submitAllAt || lastSubmitAt, measured };
      if (final >= target) return { ...result, timedOut: false };
      if (now - Math.max(lastSubmitAt, loadDone.ended) > FINAL_TIMEOUT_MS || now > hardDeadline) {
        return { ...result, timedOut: true };
      }
    }
    await sleep(intervalMs);
  }
}
