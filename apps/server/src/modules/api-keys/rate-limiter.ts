/**
 * Fixed one-minute windows per key, counted across every API node. Each node decides in memory
 * (`take` is O(1), no database call on the request path) from what it knows of the cluster's count:
 * its own requests plus the other nodes' as of its last sync. A node syncs every SYNC_MS (one
 * batched upsert for all keys it served; the answer is each window's cluster total), and reads a
 * key's total once per window before its first request there. So the limit holds for the cluster,
 * with an overshoot of at most what the other nodes accept within one sync interval.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

interface Window {
  start: number;
  /** This node's requests already added to the shared counter. */
  flushed: number;
  /** This node's requests not yet added. */
  pending: number;
  /** The other nodes' requests, as of the last sync or read. */
  others: number;
  /** The shared counter has been read for this window. */
  primed: boolean;
}

export interface WindowDelta {
  keyId: string;
  start: Date;
  delta: number;
}

/** The shared counter (PostgreSQL): `add` returns each window's new total, `read` one total. */
export interface SharedCounter {
  add(rows: WindowDelta[]): Promise<{ keyId: string; start: Date; total: number }[]>;
  read(keyId: string, start: Date): Promise<number>;
}

/** An idle node rereads the totals of the windows it serves at most this often. */
const READ_EVERY_MS = 1_000;

export function createRateLimiter(now: () => number = Date.now) {
  const windows = new Map<string, Window>();
  let sweptAt = 0;
  let syncing = false;
  let readAt = 0;

  function current(keyId: string, t: number) {
    const start = t - (t % 60_000);
    if (t - sweptAt > 120_000) {
      for (const [k, w] of windows) if (w.start < start) windows.delete(k);
      sweptAt = t;
    }
    let w = windows.get(keyId);
    if (!w || w.start !== start) {
      w = { start, flushed: 0, pending: 0, others: 0, primed: false };
      windows.set(keyId, w);
    }
    return w;
  }

  return {
    /** Whether the key's shared count for this window is still unknown here (then `prime` first). */
    needsPrime(keyId: string) {
      const w = windows.get(keyId);
      const t = now();
      return !w || w.start !== t - (t % 60_000) || !w.primed;
    },

    /** Reads the cluster's count of the key's current window (once per window per node). */
    async prime(keyId: string, counter: SharedCounter) {
      const w = current(keyId, now());
      const total = await counter.read(keyId, new Date(w.start));
      if (!w.primed && windows.get(keyId) === w) {
        w.others = Math.max(0, total - w.flushed);
        w.primed = true;
      }
    },

    take(keyId: string, limitPerMinute: number): RateDecision {
      const t = now();
      const w = current(keyId, t);
      const resetSeconds = Math.max(1, Math.ceil((w.start + 60_000 - t) / 1000));
      const used = w.others + w.flushed + w.pending;
      if (used >= limitPerMinute) {
        return { allowed: false, limit: limitPerMinute, remaining: 0, resetSeconds };
      }
      w.pending += 1;
      return { allowed: true, limit: limitPerMinute, remaining: limitPerMinute - used - 1, resetSeconds };
    },

    /** Adds this node's new requests to the shared counter and learns the other nodes' counts. */
    async sync(counter: SharedCounter) {
      if (syncing) return;
      syncing = true;
      const sent: [Window, number][] = [];
      try {
        // Every window of the current minute this node serves: new requests are added; the others
        // are only read, so an idle node still learns what the other nodes accepted.
        const rows: WindowDelta[] = [];
        const t = now();
        const minute = t - (t % 60_000);
        let added = 0;
        for (const [keyId, w] of windows) {
          if (w.start !== minute && w.pending === 0) continue;
          rows.push({ keyId, start: new Date(w.start), delta: w.pending });
          if (w.pending === 0) continue;
          added += 1;
          sent.push([w, w.pending]);
          w.flushed += w.pending;
          w.pending = 0;
        }
        if (rows.length === 0 || (added === 0 && t - readAt < READ_EVERY_MS)) return;
        if (added === 0) readAt = t;
        const totals = await counter.add(rows);
        for (const r of totals) {
          const w = windows.get(r.keyId);
          if (w && w.start === r.start.getTime()) {
            w.others = Math.max(0, r.total - w.flushed);
            w.primed = true;
          }
        }
      } catch (err) {
        // Not counted in the cluster: kept as pending for the next sync (this node still limits).
        for (const [w, n] of sent) {
          w.flushed -= n;
          w.pending += n;
        }
        throw err;
      } finally {
        syncing = false;
      }
    },

    reset(keyId: string) {
      windows.delete(keyId);
    },
  };
}
