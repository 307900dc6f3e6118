/** Final receipt stats; DELIVRD counts as delivered, the others as not. Interim ones are not counted. */
const FINAL = new Set(['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED', 'UNKNOWN']);

/** The sliding window quality routes judge a connection by. */
export const HEALTH_WINDOW_MINUTES = 15;
/** Fewer final receipts than this in the window: no ratio yet (a quality route ranks it at its floor). */
export const HEALTH_MIN_RECEIPTS = 20;

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

  constructor(private readonly now: () => number = Date.now) {}

  record(connection: string, stat: string): void {
    const s = stat.toUpperCase();
    if (!FINAL.has(s)) return;
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

  /** The connection's figures now: a delivered ratio once enough receipts are in the window. */
  figures(connection: string): { deliveredRatio?: number; finalReceipts: number } {
    const list = this.buckets.get(connection);
    if (!list) return { finalReceipts: 0 };
    const oldest = Math.floor(this.now() / 60_000) - HEALTH_WINDOW_MINUTES;
    let delivered = 0;
    let final = 0;
    for (const b of list) {
      if (b.minute <= oldest) continue;
      delivered += b.delivered;
      final += b.final;
    }
    return final >= HEALTH_MIN_RECEIPTS
      ? { deliveredRatio: delivered / final, finalReceipts: final }
      : { finalReceipts: final };
  }
}
