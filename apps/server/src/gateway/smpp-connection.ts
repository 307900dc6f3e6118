import { RecentCount } from './recent-count';
import type { Logger } from '../platform/logger';
import { SmppBind, type BindHooks } from './smpp-bind';
import type { ResolvedConnectionConfig } from './smpp-config';
import { FlapMonitor } from './smpp-flaps';
import type { ConnectionStatus } from './sms-gateway';

/** A bind with a reserved window slot, or why none could be had. */
export type Acquired = SmppBind | { reason: string; retryAfterMs: number };

interface Waiter {
  since: number;
  resolve(got: Acquired): void;
}

/** FIFO with O(1) shift. */
class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

const RETRY_NO_BIND_MS = 5000;
const RETRY_BUSY_MS = 1000;

/**
 * The binds of one connection and the submits waiting for a window slot on them. A bind is one
 * transceiver session, or (bindMode 'tx+rx') a transmitter that submits and a receiver that takes
 * receipts and MO; `sessions` holds every session, `binds` the ones that submit. First parts wait in
 * one queue and get the least-loaded usable bind; later parts of a concatenated message wait for their
 * own bind and are served first. A waiter gives up when no usable bind has been bound for `bindWaitMs`
 * or after `maxWaitMs` in all.
 */
export class SmppConnection {
  /** Sessions that submit: the transceivers, or the transmitters of tx + rx pairs. */
  readonly binds: SmppBind[];
  /** Every session (with tx + rx, the receivers too). */
  readonly sessions: SmppBind[];
  private readonly flaps: FlapMonitor;
  /** Submits refused with a throttling status, and other refusals or failures, over the last minute. */
  readonly throttles: RecentCount;
  readonly submitErrors: RecentCount;
  /** Sessions put aside when the connection kept fewer binds (see FlapMonitor): never started again. */
  private readonly parked = new Set<SmppBind>();
  /**
   * Waiters for a first part, one FIFO per priority (0 OTP, 1 single, 2 bulk): a free slot goes to
   * the most urgent lane first, so an OTP claimed behind hundreds of bulk submits is not queued
   * behind them on the wire.
   */
  private readonly lanes = [new Fifo<Waiter>(), new Fifo<Waiter>(), new Fifo<Waiter>()] as const;
  private readonly affinity = new Map<SmppBind, Fifo<Waiter>>();
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeAt = 0;
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly delays = new Set<() => void>();
  private rr = 0;
  private stopped = false;
  private pumping = false;
  private again = false;

  constructor(
    readonly cfg: ResolvedConnectionConfig,
    deliver: BindHooks['deliver'],
    logger: Logger,
    private readonly maxWaitMs: number,
  ) {
    this.throttles = new RecentCount(cfg.now);
    this.submitErrors = new RecentCount(cfg.now);
    const hooks: BindHooks = {
      changed: () => this.pump(),
      deliver,
      flapped: (bind, boundAt) => this.flaps.flapped(bind, boundAt),
      stable: () => this.flaps.stable(),
      ended: (bind, generation, boundAt) => this.flaps.ended(bind, generation, boundAt),
    };
    this.flaps = new FlapMonitor(
      {
        name: cfg.name,
        cfg,
        active: () => this.sessions.filter((s) => !this.parked.has(s)),
        keepOnly: (keeper) => this.keepOnly(keeper),
      },
      logger.child({ smpp: cfg.name }),
    );
    const slots = Array.from({ length: cfg.binds }, (_, i) => i);
    if (cfg.bindMode === 'tx+rx') {
      const pairs = slots.map((i) => ({
        tx: new SmppBind(cfg, i, hooks, logger, 'transmitter'),
        rx: new SmppBind(cfg, i, hooks, logger, 'receiver'),
      }));
      this.binds = pairs.map((p) => p.tx);
      this.sessions = pairs.flatMap((p) => [p.tx, p.rx]);
    } else {
      this.binds = slots.map((i) => new SmppBind(cfg, i, hooks, logger));
      this.sessions = this.binds;
    }
    for (const b of this.binds) this.affinity.set(b, new Fifo());
  }

  get name(): string {
    return this.cfg.name;
  }

  get bound(): number {
    return this.binds.filter((b) => b.bound).length;
  }

  /**
   * Every bound bind is in a throttle pause: the SMSC keeps refusing with ESME_RTHROTTLED (or a
   * full queue). Routing passes the connection over until a pause ends; a pause grows with each
   * throttle in a row and ends at the first accepted submit, so a connection that throttles again
   * is tried less and less often (backoff.ts).
   */
  get throttled(): boolean {
    const now = this.cfg.now();
    let bound = 0;
    for (const b of this.binds) {
      if (!b.bound) continue;
      bound += 1;
      if (!b.throttledAt(now)) return false;
    }
    return bound > 0;
  }

  get inFlight(): number {
    return this.binds.reduce((n, b) => n + b.inFlight, 0);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await Promise.all(this.sessions.filter((b) => !this.parked.has(b)).map((b) => b.start()));
  }

  /** Keep the bind of `keeper` (a transceiver, or a tx + rx pair) and stop the others for good. */
  private keepOnly(keeper: SmppBind): void {
    for (const s of this.sessions) {
      if (s.index === keeper.index || this.parked.has(s)) continue;
      this.parked.add(s);
      s.recentFlaps = 0;
      void s.stop(this.cfg.responseTimeoutMs);
    }
  }

  status(): ConnectionStatus {
    let lastError: string | null = null;
    let lastAt = -Infinity;
    for (const b of this.sessions) {
      const at = b.lastClosedAt?.getTime() ?? -Infinity;
      if (b.lastError && at >= lastAt) [lastError, lastAt] = [b.lastError, at];
    }
    return {
      name: this.name,
      bindMode: this.cfg.bindMode,
      binds: this.cfg.binds,
      bound: this.bound,
      inFlight: this.inFlight,
      flaps: this.sessions.reduce((n, b) => n + b.flaps, 0),
      flapping: this.flaps.recentFlaps >= this.cfg.flapWarnAfter,
      replacedSessions: this.flaps.replaced,
      keptBinds: this.flaps.kept,
      bindsNotice: this.flaps.notice,
      lastError,
      throttlesPerMinute: this.throttles.lastMinute(),
      submitErrorsPerMinute: this.submitErrors.lastMinute(),
      sessions: this.sessions.map((b) => ({
        bind: b.index,
        role: b.role,
        state: b.state,
        inFlight: b.inFlight,
        flaps: b.flaps,
        recentFlaps: b.recentFlaps,
        lastError: b.lastError,
        lastBoundAt: b.lastBoundAt,
        lastClosedAt: b.lastClosedAt,
      })),
    };
  }

  /** Refuse new waiters and answer the waiting ones with `reason` (the binds are stopped separately). */
  close(reason: string): void {
    this.stopped = true;
    this.flaps.close();
    clearTimeout(this.wakeTimer);
    clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    for (const wake of [...this.delays]) wake();
    const fail = { reason, retryAfterMs: RETRY_NO_BIND_MS };
    for (const q of [...this.lanes, ...this.affinity.values()]) {
      for (let w = q.shift(); w; w = q.shift()) w.resolve(fail);
    }
  }

  /** Sleep for `ms`, cut short when the connection closes. */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.delays.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.delays.add(wake);
    });
  }

  private get waitingFirst(): number {
    return this.lanes[0].length + this.lanes[1].length + this.lanes[2].length;
  }

  /**
   * Reserve a window slot: on `bind` (later parts), else on the least-loaded usable bind, waiting
   * in the lane of `priority` (0 OTP, 1 single, 2 bulk; out-of-range values are clamped).
   */
  acquire(bind?: SmppBind, priority = 1): Promise<Acquired> {
    if (this.stopped) return Promise.resolve({ reason: 'gateway stopped', retryAfterMs: RETRY_NO_BIND_MS });
    const now = this.cfg.now();
    const lane = this.lanes[Math.min(2, Math.max(0, Math.trunc(priority)))] ?? this.lanes[1];
    const q = bind ? this.affinity.get(bind) : lane;
    if (!q) throw new Error('bind of another connection');
    if (bind ? q.length === 0 : this.waitingFirst === 0) {
      const free = bind ? (bind.canTake(now) ? bind : undefined) : this.pick(now);
      if (free) {
        free.reserve(now);
        return Promise.resolve(free);
      }
    }
    return new Promise((resolve) => {
      q.push({ since: now, resolve });
      this.ensureSweep();
      this.scheduleWake();
    });
  }

  /** Least-loaded bind that can take a slot now and has no later part waiting (round-robin among equals). */
  private pick(now: number): SmppBind | undefined {
    let best: SmppBind | undefined;
    const n = this.binds.length;
    for (let i = 0; i < n; i++) {
      const b = this.binds[(this.rr + i) % n];
      if (!b || !b.canTake(now) || (this.affinity.get(b)?.length ?? 0) > 0) continue;
      if (!best || b.inFlight < best.inFlight) best = b;
    }
    if (best) this.rr = (this.rr + 1) % n;
    return best;
  }

  /** Hand free slots to waiters; runs whenever a bind reports a change. */
  private pump(): void {
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.again = false;
        const now = this.cfg.now();
        for (const [bind, q] of this.affinity) {
          while (q.length > 0 && bind.canTake(now)) {
            bind.reserve(now);
            q.shift()?.resolve(bind);
          }
        }
        for (const lane of this.lanes) {
          while (lane.length > 0) {
            const bind = this.pick(now);
            if (!bind) break;
            bind.reserve(now);
            lane.shift()?.resolve(bind);
          }
        }
      } while (this.again);
    } finally {
      this.pumping = false;
    }
    this.scheduleWake();
  }

  /** Wake up when a pause or the token bucket stops blocking a bind that has waiters. */
  private scheduleWake(): void {
    const now = this.cfg.now();
    let ms = Infinity;
    for (const b of this.binds) {
      const waiting = this.waitingFirst > 0 || (this.affinity.get(b)?.length ?? 0) > 0;
      if (waiting && b.bound && b.inFlight < b.cfg.window) ms = Math.min(ms, b.blockedForMs(now));
    }
    if (ms === Infinity) return;
    const at = now + Math.max(1, ms);
    if (this.wakeTimer && this.wakeAt <= at) return;
    clearTimeout(this.wakeTimer);
    this.wakeAt = at;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = undefined;
      this.pump();
    }, at - now);
  }

  private ensureSweep(): void {
    if (this.sweepTimer) return;
    const every = Math.min(250, Math.max(10, Math.floor(this.cfg.bindWaitMs / 4)));
    this.sweepTimer = setInterval(() => this.sweep(), every);
  }

  /** Give up on waiters whose bind(s) stayed down for bindWaitMs, or that waited maxWaitMs. */
  private sweep(): void {
    const now = this.cfg.now();
    const anyBound = this.binds.some((b) => b.bound);
    const connDownSince = Math.max(...this.binds.map((b) => b.downSince));
    for (const lane of this.lanes) this.expire(lane, now, anyBound, connDownSince);
    for (const [bind, q] of this.affinity) this.expire(q, now, bind.bound, bind.downSince);
    if (this.waitingFirst === 0 && [...this.affinity.values()].every((q) => q.length === 0)) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = undefined;
    }
  }

  private expire(q: Fifo<Waiter>, now: number, bound: boolean, downSince: number): void {
    for (let w = q.peek(); w; w = q.peek()) {
      if (!bound && now - Math.max(w.since, downSince) >= this.cfg.bindWaitMs) {
        const reason = `no bound SMPP session on ${this.name} for ${this.cfg.bindWaitMs} ms`;
        q.shift();
        w.resolve({ reason, retryAfterMs: RETRY_NO_BIND_MS });
      } else if (now - w.since >= this.maxWaitMs) {
        q.shift();
        w.resolve({
          reason: `no free window slot on ${this.name} within ${this.maxWaitMs} ms`,
          retryAfterMs: RETRY_BUSY_MS,
        });
      } else return;
    }
  }
}
