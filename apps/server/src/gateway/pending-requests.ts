import type smpp from 'smpp';

/** What to do with the answer to one request PDU, or without it. */
export interface RequestHandlers {
  onResp(pdu: smpp.PDU): void;
  onTimeout(): void;
  onClose(reason: string): void;
}

interface Pending extends RequestHandlers {
  deadline: number;
}

/**
 * Requests written on one session and not answered yet, by sequence number. Every request gets the
 * same timeout, so the map (in insertion order) is also in deadline order and a sweep stops at the
 * first live entry.
 */
export class PendingRequests {
  private readonly map = new Map<number, Pending>();

  constructor(
    private readonly timeoutMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  get size(): number {
    return this.map.size;
  }

  add(seq: number, handlers: RequestHandlers): void {
    this.map.set(seq, { deadline: this.now() + this.timeoutMs, ...handlers });
  }

  /** Hand a response to its request; false when nothing waits for it (late or unknown). */
  answer(pdu: smpp.PDU): boolean {
    const p = this.map.get(pdu.sequence_number);
    if (!p) return false;
    this.map.delete(pdu.sequence_number);
    p.onResp(pdu);
    return true;
  }

  /** Time out the requests past their deadline. */
  sweep(now: number = this.now()): void {
    for (const [seq, p] of this.map) {
      if (p.deadline > now) break;
      this.map.delete(seq);
      p.onTimeout();
    }
  }

  /** The session closed: nothing will be answered any more. */
  closeAll(reason: string): void {
    const all = [...this.map.values()];
    this.map.clear();
    for (const p of all) p.onClose(reason);
  }
}
