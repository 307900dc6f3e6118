interface Window {
  timer: NodeJS.Timeout;
  windowMs: number;
  /** The latest call that arrived while the window was open; fired at its end. */
  pending: (() => void) | null;
}

/**
 * Keyed leading + trailing throttle: the first call for a key fires at once and opens a window;
 * calls inside the window collapse into one that fires when it ends (and opens the next window).
 * So a key fires at most once per window, and its last call is never lost. A key's window is the
 * coalescer's, or the one its call names.
 */
export class Coalescer {
  private readonly windows = new Map<string, Window>();
  private closed = false;

  constructor(
    private readonly windowMs: number,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  run(key: string, fire: () => void, windowMs = this.windowMs): void {
    if (this.closed) return;
    const open = this.windows.get(key);
    if (open) {
      open.pending = fire;
      return;
    }
    this.fire(fire);
    this.open(key, windowMs);
  }

  /** Keys with an open window (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  close(): void {
    this.closed = true;
    for (const w of this.windows.values()) clearTimeout(w.timer);
    this.windows.clear();
  }

  private open(key: string, windowMs: number) {
    const timer = setTimeout(() => this.end(key), windowMs);
    timer.unref();
    this.windows.set(key, { timer, windowMs, pending: null });
  }

  private end(key: string) {
    const w = this.windows.get(key);
    this.windows.delete(key);
    if (!w?.pending || this.closed) return;
    this.fire(w.pending);
    this.open(key, w.windowMs);
  }

  private fire(fn: () => void) {
    try {
      fn();
    } catch (err) {
      this.onError(err);
    }
  }
}
