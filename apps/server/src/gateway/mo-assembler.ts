import type { ConcatPart } from './inbound-text';

/** Answers one deliver_sm (deliver_sm_resp with this command_status). */
export type Reply = (status: number) => void;

export const ESME_ROK = 0x00;
export const ESME_RX_T_APPN = 0x64;

export interface Completed<M> {
  meta: M;
  text: string;
  /** Call once the MO handler settled: answers the completing part and forgets (ok) or keeps the rest. */
  done(ok: boolean): void;
}

interface Entry<M> {
  meta: M;
  total: number;
  parts: Map<number, string>;
  timer: NodeJS.Timeout;
  /** The handler is running for the completed message. */
  busy: boolean;
}

/**
 * Reassembles concatenated MO parts. Parts that do not complete a message are acknowledged at once
 * (an SMSC that waits for each deliver_sm_resp before sending the next part would otherwise stall);
 * the part that completes the message is answered only after the handler settles, and if the handler
 * fails the other parts stay buffered so the SMSC's resend of that part completes it again.
 * Incomplete messages are handed over as they are after `timeoutMs`.
 */
export class MoAssembler<M> {
  private readonly entries = new Map<string, Entry<M>>();

  constructor(
    private readonly timeoutMs: number,
    private readonly onExpire: (meta: M, text: string) => void,
    private readonly maxPending = 10_000,
  ) {}

  get pending(): number {
    return this.entries.size;
  }

  /** Add a part; returns the completed message when this part completes it. */
  add(key: string, meta: M, part: ConcatPart, text: string, reply: Reply): Completed<M> | undefined {
    let entry = this.entries.get(key);
    if (!entry) {
      this.evictIfFull();
      const timer = setTimeout(() => this.expire(key), this.timeoutMs);
      entry = { meta, total: part.total, parts: new Map(), timer, busy: false };
      this.entries.set(key, entry);
    }
    if (entry.busy) {
      reply(ESME_ROK); // a resend while the handler runs: the buffered copy is used
      return undefined;
    }
    entry.parts.set(part.seq, text);
    if (entry.parts.size < entry.total) {
      reply(ESME_ROK);
      return undefined;
    }
    entry.busy = true;
    const e = entry;
    return {
      meta: e.meta,
      text: join(e),
      done: (ok) => {
        e.busy = false;
        if (ok) {
          clearTimeout(e.timer);
          if (this.entries.get(key) === e) this.entries.delete(key);
          reply(ESME_ROK);
        } else {
          e.parts.delete(part.seq);
          reply(ESME_RX_T_APPN);
        }
      },
    };
  }

  /** Drop everything (on stop); held parts were already acknowledged. */
  clear(): void {
    for (const e of this.entries.values()) clearTimeout(e.timer);
    this.entries.clear();
  }

  private expire(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    if (e.busy) {
      e.timer = setTimeout(() => this.expire(key), this.timeoutMs);
      return;
    }
    this.entries.delete(key);
    this.onExpire(e.meta, join(e));
  }

  private evictIfFull(): void {
    if (this.entries.size < this.maxPending) return;
    for (const [key, e] of this.entries) {
      if (e.busy) continue;
      clearTimeout(e.timer);
      this.entries.delete(key);
      this.onExpire(e.meta, join(e));
      return;
    }
  }
}

function join(e: Entry<unknown>): string {
  return [...e.parts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, t]) => t)
    .join('');
}
