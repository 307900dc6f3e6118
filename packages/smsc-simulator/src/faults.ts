import type { DelayMs, FaultOptions, OutOfOrderFault, StatMix } from './options.js';
import { FINAL_STATS, type FinalStat } from './receipt.js';

export type Random = () => number;

/** Deterministic PRNG (mulberry32); Math.random when no seed is given. */
export function createRandom(seed?: number): Random {
  if (seed === undefined) return Math.random;
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pickDelay(delay: DelayMs | undefined, rand: Random): number {
  if (delay === undefined) return 0;
  if (typeof delay === 'number') return Math.max(0, delay);
  const [min, max] = delay;
  return Math.max(0, min + Math.floor(rand() * (max - min + 1)));
}

export function pickStat(mix: StatMix | undefined, rand: Random): FinalStat {
  const entries = FINAL_STATS.map((s) => [s, Math.max(0, mix?.[s] ?? 0)] as const).filter(([, w]) => w > 0);
  const total = entries.reduce((n, [, w]) => n + w, 0);
  if (total === 0) return 'DELIVRD';
  let r = rand() * total;
  for (const [stat, w] of entries) {
    if ((r -= w) < 0) return stat;
  }
  return entries[entries.length - 1]?.[0] ?? 'DELIVRD';
}

/** Token bucket: `rate` tokens per second, burst of `rate`. */
export class TokenBucket {
  private tokens = -1;
  private last = 0;

  take(rate: number, now: number = Date.now()): boolean {
    if (this.tokens < 0) this.tokens = rate;
    else this.tokens = Math.min(rate, this.tokens + ((now - this.last) * rate) / 1000);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

export type SubmitFault = 'tps' | 'throttled' | 'queueFull';

/** Decide whether a submit_sm is refused by a rate/throttle fault. */
export function submitFault(f: FaultOptions, rand: Random, bucket: TokenBucket): SubmitFault | undefined {
  if (f.maxTps !== undefined && f.maxTps > 0 && !bucket.take(f.maxTps)) return 'tps';
  const rate = f.throttle?.rate ?? 0;
  const queueFull = f.throttle?.queueFull ?? 0;
  if (rate <= 0 && queueFull <= 0) return undefined;
  const r = rand();
  if (r < rate) return 'throttled';
  if (r < rate + queueFull) return 'queueFull';
  return undefined;
}

export function receiptCopies(duplicate: FaultOptions['duplicateReceipts']): number {
  if (duplicate === true) return 2;
  if (typeof duplicate === 'number' && duplicate > 1) return Math.floor(duplicate);
  return 1;
}

export function outOfOrderConfig(
  v: FaultOptions['outOfOrderReceipts'],
): Required<OutOfOrderFault> | undefined {
  if (!v) return undefined;
  const o = v === true ? {} : v;
  return {
    window: Math.max(1, o.window ?? 10),
    flushMs: Math.max(0, o.flushMs ?? 100),
    intermediateAfterFinal: o.intermediateAfterFinal ?? false,
  };
}

export function shuffle<T>(items: T[], rand: Random): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
