import { outOfOrderConfig, receiptCopies, shuffle, type Random } from './faults.js';
import type { FaultOptions, StoredMessage } from './options.js';
import type { ReceiptStat } from './receipt.js';
import type { Scheduler } from './scheduler.js';

const MAX_PENDING_RECEIPTS = 100_000;

export interface Receipt<C> {
  msg: StoredMessage;
  stat: ReceiptStat;
  /** Session that submitted the message; preferred route when it can receive. */
  origin?: C | undefined;
}

export interface DispatchHost<C> {
  faults(): FaultOptions;
  random(): Random;
  readonly scheduler: Scheduler;
  /** Write one receipt deliver_sm; false when no receiver is bound/usable (it is then held). */
  deliver(r: Receipt<C>): boolean;
}

/**
 * Applies the receipt-side fault modes (halfOpen hold, duplicates, shuffling, stale intermediates) and
 * holds receipts while no receiver of the message's system_id is bound.
 */
export class ReceiptDispatcher<C> {
  private pending: Receipt<C>[] = [];
  private shuffleBuf: Receipt<C>[] = [];
  private shuffleGen = 0;

  constructor(private readonly host: DispatchHost<C>) {}

  /** Receipts not yet written (held + waiting in the shuffle buffer). */
  get waiting(): number {
    return this.pending.length + this.shuffleBuf.length;
  }

  /** The receipt delay elapsed: send now, or buffer it when outOfOrderReceipts is on. */
  due(r: Receipt<C>): void {
    r.msg.doneAt = new Date();
    const ooo = outOfOrderConfig(this.host.faults().outOfOrderReceipts);
    if (!ooo) return this.sendCopies(r);
    this.shuffleBuf.push(r);
    if (this.shuffleBuf.length >= ooo.window) return this.flushShuffled();
    if (this.shuffleBuf.length === 1) {
      const gen = this.shuffleGen;
      this.host.scheduler.after(ooo.flushMs, () => {
        if (gen === this.shuffleGen) this.flushShuffled();
      });
    }
  }

  /** Send (with duplicates) right away, bypassing the shuffle buffer. */
  sendCopies(r: Receipt<C>): void {
    const copies = receiptCopies(this.host.faults().duplicateReceipts);
    for (let i = 0; i < copies; i++) this.send(r);
  }

  /** Re-try held receipts (after a receiver binds or halfOpen is switched off). */
  flushPending(): void {
    if (this.pending.length === 0 || this.host.faults().halfOpen) return;
    for (const r of this.pending.splice(0)) this.send(r);
  }

  /** React to setOptions(). */
  optionsChanged(wasHalfOpen: boolean): void {
    const f = this.host.faults();
    if (!f.outOfOrderReceipts && this.shuffleBuf.length > 0) this.flushShuffled();
    if (wasHalfOpen && !f.halfOpen) this.flushPending();
  }

  clear(): void {
    this.pending = [];
    this.shuffleBuf = [];
    this.shuffleGen++;
  }

  private flushShuffled(): void {
    this.shuffleGen++;
    const batch = shuffle(this.shuffleBuf, this.host.random());
    this.shuffleBuf = [];
    for (const r of batch) this.sendCopies(r);
    const stale = outOfOrderConfig(this.host.faults().outOfOrderReceipts)?.intermediateAfterFinal;
    if (!stale) return;
    const stat: ReceiptStat = stale === true ? 'ENROUTE' : stale;
    for (const r of batch) this.send({ ...r, stat });
  }

  private send(r: Receipt<C>): void {
    if (!this.host.faults().halfOpen && this.host.deliver(r)) return;
    this.pending.push({ msg: r.msg, stat: r.stat });
    if (this.pending.length > MAX_PENDING_RECEIPTS) this.pending.shift();
  }
}
