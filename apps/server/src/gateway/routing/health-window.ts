/** Final receipt stats; DELIVRD counts as delivered, the others as not. Interim ones are not counted. */
const FINAL = new Set(['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED', 'UNKNOWN']);

/** The sliding window quality routes judge a connection by. */
export const HEALTH_WINDOW_MINUTES = 15;
/** Fewer final receipts than this in the window: no ratio yet (a quality route ranks it at its floor). */
export const HEALTH_MIN_RECEIPTS = 20;

/** Submits remembered for their receipt's latency (the oldest forgotten first; a later receipt has none). */
export const LATENCY_TRACKED_SUBMITS = 50_000;
/** Latencies kept per connection for its median (the most recent, within the window). */
const LATENCY_SAMPLES = 1_000;
/** The median is computed again at most this often (routing reads it for every message). */
const P50_CACHE_MS = 1_000;

interface Bucket {
  minute: number;
  delivered: number;
  final: number;
}

/**
 * Each connection's delivered ratio over the last HEALTH_WINDOW_MINUTES, in per-minute buckets,
 * from the final receipts this node stored. A node sees the receipts of its own binds, which is
 * the traffic it routes; nodes may differ a little, and each converges on the same carrier.
 */
export class ConnectionHealthWindow {
  private readonly buckets = new Map<string, Bucket[]>();
  /** connection + NUL + SMSC id → when it was accepted (insertion order: oldest first). */
  private readonly sentAt = new Map<string, number>();
  private readonly latencies = new Map<string, { at: number; ms: number }[]>();
  private readonly p50 = new Map<string, { at: number; value: number | undefined }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** An accepted submit: its parts' receipts will tell how long the carrier took. */
  submitted(connection: string, smscIds: readonly string[]): void {
    const at = this.now();
    for (const id of smscIds) {
      this.sentAt.set(`${connection}\u0000${id}`, at);
      if (this.sentAt.size > LATENCY_TRACKED_SUBMITS) {
        const oldest = this.sentAt.keys().next().value;
        if (oldest !== undefined) this.sentAt.delete(oldest);
      }
    }
  }

  /**
   * A receipt. Its latency counts only when its id is the one the SMSC gave at submit, exactly
   * (a receipt in another notation, or for a submit forgotten, gives no latency, never a wrong one).
   */
  record(connection: string, stat: string, smscId?: string): void {
    const s = stat.toUpperCase();
    if (!FINAL.has(s)) return;
    if (smscId !== undefined) this.latency(connection, smscId);
    const minute = Math.floor(this.now() / 60_000);
    const list = this.buckets.get(connection) ?? [];
    let last = list.at(-1);
    if (!last || last.minute !== minute) {
      last = { minute, delivered: 0, final: 0 };
      list.push(last);
      while (list.length > 0 && (list[0]?.minute ?? minute) <= minute - HEALTH_WINDOW_MINUTES) list.shift();
      this.buckets.set(connection, list);
    }
    last.final += 1;
    if (s === 'DELIVRD') last.delivered += 1;
  }

  private latency(connection: string, smscId: string): void {
    const key = `${connection}\u0000${smscId}`;
    const sent = this.sentAt.get(key);
    if (sent === undefined) return;
    this.sentAt.delete(key);
    const list = this.latencies.get(connection) ?? [];
    list.push({ at: this.now(), ms: Math.max(0, this.now() - sent) });
    if (list.length > LATENCY_SAMPLES) list.shift();
    this.latencies.set(connection, list);
  }

  /** The median receipt latency over the window, with enough samples; cached for a second. */
  receiptP50(connection: string): number | undefined {
    const now = this.now();
    const cached = this.p50.get(connection);
    // Cached for a second, but a connection reaching enough samples gets its figure at once.
    const first =
      cached?.value === undefined && (this.latencies.get(connection)?.length ?? 0) >= HEALTH_MIN_RECEIPTS;
    if (cached && !first && now - cached.at < P50_CACHE_MS) return cached.value;
    const since = now - HEALTH_WINDOW_MINUTES * 60_000;
    const list = (this.latencies.get(connection) ?? []).filter((l) => l.at > since);
    if (list.length > 0) this.latencies.set(connection, list);
    let value: number | undefined;
    if (list.length >= HEALTH_MIN_RECEIPTS) {
      const ms = list.map((l) => l.ms).sort((a, b) => a - b);
      const mid = ms.length >> 1;
      value = ms.length % 2 ? ms[mid] : ((ms[mid - 1] ?? 0) + (ms[mid] ?? 0)) / 2;
    }
    this.p50.set(connection, { at: now, value });
    return value;
  }

  /** The connection's figures now: a delivered ratio and receipt p50 once enough receipts are in. */
  figures(connection: string): { deliveredRatio?: number; finalReceipts: number; receiptP50Ms?: number } {
    const p50 = this.receiptP50(connection);
    const latency = p50 === undefined ? {} : { receiptP50Ms: p50 };
    const list = this.buckets.get(connection);
    if (!list) return { finalReceipts: 0, ...latency };
    const oldest = Math.floor(this.now() / 60_000) - HEALTH_WINDOW_MINUTES;
    let delivered = 0;
    let final = 0;
    for (const b of list) {
      if (b.minute <= oldest) continue;
      delivered += b.delivered;
      final += b.final;
    }
    return final >= HEALTH_MIN_RECEIPTS
      ? { deliveredRatio: delivered / final, finalReceipts: final, ...latency }
      : { finalReceipts: final, ...latency };
  }
}
