/**
 * Fixed one-minute windows per key, in this node's memory (each API node counts its own requests).
 * `take` is O(1) and allocation-free after a key's first request in a window.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export function createRateLimiter(now: () => number = Date.now) {
  const windows = new Map<string, { start: number; count: number }>();
  let sweptAt = 0;

  return {
    take(keyId: string, limitPerMinute: number): RateDecision {
      const t = now();
      const start = t - (t % 60_000);
      if (t - sweptAt > 120_000) {
        for (const [k, w] of windows) if (w.start < start) windows.delete(k);
        sweptAt = t;
      }
      let w = windows.get(keyId);
      if (!w || w.start !== start) {
        w = { start, count: 0 };
        windows.set(keyId, w);
      }
      const resetSeconds = Math.max(1, Math.ceil((start + 60_000 - t) / 1000));
      if (w.count >= limitPerMinute) {
        return { allowed: false, limit: limitPerMinute, remaining: 0, resetSeconds };
      }
      w.count += 1;
      return { allowed: true, limit: limitPerMinute, remaining: limitPerMinute - w.count, resetSeconds };
    },
    reset(keyId: string) {
      windows.delete(keyId);
    },
  };
}
