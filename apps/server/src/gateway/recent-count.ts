/**
 * A count of events over the last minute, in six 10-second buckets (cheap enough to add on every
 * refused submit): for the console's "submit errors and throttles per minute".
 */
export class RecentCount {
  private readonly buckets = new Array<number>(6).fill(0);
  private readonly starts = new Array<number>(6).fill(0);

  constructor(private readonly now: () => number) {}

  add(): void {
    const t = this.now();
    const start = t - (t % 10_000);
    const i = (start / 10_000) % 6;
    if (this.starts[i] !== start) {
      this.starts[i] = start;
      this.buckets[i] = 0;
    }
    this.buckets[i] = (this.buckets[i] ?? 0) + 1;
  }

  /** Events in the current 10-second bucket and the five before it (a minute at most). */
  lastMinute(): number {
    const t = this.now();
    const oldest = t - (t % 10_000) - 50_000;
    let n = 0;
    for (let i = 0; i < 6; i++) if ((this.starts[i] ?? 0) >= oldest) n += this.buckets[i] ?? 0;
    return n;
  }
}
