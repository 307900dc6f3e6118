/**
 * Token bucket: `rate` tokens per second, holding at most `burst` tokens (it starts full).
 * A rate of 0 (or less) means unlimited.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly rate: number,
    readonly burst: number = Math.max(1, Math.ceil(rate / 10)),
    now: number = Date.now(),
  ) {
    this.tokens = this.burst;
    this.last = now;
  }

  get unlimited(): boolean {
    return this.rate <= 0;
  }

  private refill(now: number): void {
    if (now <= this.last) return;
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.rate) / 1000);
    this.last = now;
  }

  /** True when a token is available now (without taking it). */
  ready(now: number = Date.now()): boolean {
    if (this.unlimited) return true;
    this.refill(now);
    return this.tokens >= 1;
  }

  /** Take one token; false (and nothing taken) when none is available. */
  take(now: number = Date.now()): boolean {
    if (this.unlimited) return true;
    this.refill(now);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until a token is available (0 when one is available now). */
  waitMs(now: number = Date.now()): number {
    if (this.unlimited) return 0;
    this.refill(now);
    if (this.tokens >= 1) return 0;
    return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }
}
