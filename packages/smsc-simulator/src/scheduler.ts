interface Task {
  at: number;
  seq: number;
  run: () => void;
}

/**
 * Single-timer scheduler: tasks live in a binary min-heap ordered by due time (FIFO for ties) and one
 * unref'd setTimeout is armed for the earliest task. A flood of receipts therefore costs one timer,
 * and clear() drops everything at once.
 */
export class Scheduler {
  private heap: Task[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private stopped = false;

  constructor(private readonly onError: (err: unknown) => void = () => {}) {}

  get size(): number {
    return this.heap.length;
  }

  /** Run `run` after `delayMs` (0 = next macrotask). */
  after(delayMs: number, run: () => void): void {
    if (this.stopped) return;
    this.push({ at: Date.now() + Math.max(0, delayMs), seq: this.seq++, run });
    this.arm();
  }

  /** Drop all pending tasks and the timer; further after() calls are ignored. */
  stop(): void {
    this.stopped = true;
    this.heap = [];
    this.disarm();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
  }

  private arm(): void {
    const first = this.heap[0];
    if (!first) return this.disarm();
    if (this.timer && this.timerAt <= first.at) return;
    this.disarm();
    this.timerAt = first.at;
    this.timer = setTimeout(() => this.tick(), Math.max(0, first.at - Date.now()));
    this.timer.unref();
  }

  private tick(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    // Tasks scheduled while running with a zero delay wait for the next tick (no starvation).
    let budget = this.heap.length;
    while (budget-- > 0 && !this.stopped) {
      const first = this.heap[0];
      if (!first || first.at > now) break;
      this.pop();
      try {
        first.run();
      } catch (err) {
        this.onError(err);
      }
    }
    if (!this.stopped) this.arm();
  }

  private less(a: Task, b: Task): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(t: Task): void {
    const h = this.heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (!last || h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l], h[m])) m = l;
      if (r < h.length && this.less(h[r], h[m])) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}
