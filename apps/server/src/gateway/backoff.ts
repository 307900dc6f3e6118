/** Exponential backoff with "equal jitter": half of base·2^attempt (capped), plus up to the other half. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * The pause of a bind after ESME_RTHROTTLED / ESME_RMSGQFUL. Throttles answering submits written
 * before the pause began do not lengthen it; a throttle after a pause doubles the next one, and a
 * success resets the growth.
 */
export class ThrottlePause {
  until = 0;
  private level = 0;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  /** Record a throttle; returns the pause left, in ms, and whether a new pause began. */
  throttled(now: number = Date.now()): { ms: number; started: boolean } {
    if (now < this.until) return { ms: this.until - now, started: false };
    const ms = Math.min(this.maxMs, this.baseMs * 2 ** this.level);
    this.level = Math.min(this.level + 1, 30);
    this.until = now + ms;
    return { ms, started: true };
  }

  succeeded(): void {
    this.level = 0;
  }
}
