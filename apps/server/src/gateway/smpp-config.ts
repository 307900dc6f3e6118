import type { Clock } from '../platform/clock';

/**
 * How a bind is made: one transceiver session (`trx`), or a transmitter + receiver pair (`tx+rx`):
 * submits go over the transmitter, receipts and MO arrive on the receiver.
 */
export type BindModeSetting = 'trx' | 'tx+rx';

export const BIND_MODES: readonly BindModeSetting[] = ['trx', 'tx+rx'];

/** One SMPP account at an SMSC (or carrier), served by `binds` transceiver sessions or tx + rx pairs. */
export interface SmppConnectionConfig {
  /** Unique name; appears in outcomes, receipts, status and logs. */
  name: string;
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
  /** SMPP over TLS (default false). */
  tls?: boolean;
  /** With tls: check the SMSC's certificate against the trusted authorities (default true). */
  tlsVerify?: boolean;
  /** Number of binds: transceiver sessions, or tx + rx pairs with bindMode 'tx+rx' (default 1). */
  binds?: number;
  /** 'trx' (default): transceiver sessions; 'tx+rx': a transmitter + receiver pair per bind. */
  bindMode?: BindModeSetting;
  /** Max outstanding submit_sm per bind (default 50). */
  window?: number;
  /** Max submit_sm per second per bind (token bucket; default 0 = unlimited). */
  tps?: number;
  /** Token bucket size per bind (default: a tenth of a second's worth, at least 1). */
  tpsBurst?: number;
  /** E.164 destination prefixes routed here, e.g. ['+44']; [] (the default) = the default route. */
  prefixes?: string[];
  /** enquire_link period (default 30; fractions allowed). */
  enquireLinkSeconds?: number;
  /** Wait for any response (submit_sm, bind, enquire_link, unbind) (default 10000). */
  responseTimeoutMs?: number;
  /** Reconnect backoff: base * 2^attempt capped at max, with jitter (defaults 1000 / 30000). */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** How long a submit waits for a bound session before answering 'retry' (default 2000). */
  bindWaitMs?: number;
  /** Pause of a bind after ESME_RTHROTTLED / ESME_RMSGQFUL, doubling while it repeats (1000 / 10000). */
  throttlePauseMs?: number;
  throttlePauseMaxMs?: number;
  /**
   * A session closed by the SMSC within this many seconds of binding is a flap; the reconnect backoff
   * only resets once a session has stayed bound this long (default 10; 0 = off, reset at bind).
   */
  flapSeconds?: number;
  /** Flaps in a row (over the connection's sessions) before the warning naming the causes (default 3). */
  flapWarnAfter?: number;
  /** The flapping warning is repeated at most this often while it goes on (default 300). */
  flapWarnIntervalSeconds?: number;
  /**
   * Replacements in a row (a new bind made the SMSC close an older session of this connection: one
   * session per system_id/system_type) before the connection keeps one bind until it is configured
   * again (default flapWarnAfter; 0 = never).
   */
  keepOneBindAfter?: number;
  /**
   * The clock read for TPS, throttle pauses, response deadlines, bind waits and flaps (default: the
   * machine's). Timers still use setTimeout/setInterval, so tests fake those as well.
   */
  clock?: Clock;
}

export type ResolvedConnectionConfig = Required<
  Omit<SmppConnectionConfig, 'systemType' | 'tpsBurst' | 'clock'>
> & {
  systemType: string;
  tpsBurst: number | undefined;
  /** Milliseconds since the epoch on the connection's clock. */
  now: () => number;
};

/** The machine's clock, read through `Date` at each call (so a faked `Date` is seen too). */
const systemNow = (): number => Date.now();

function positive(name: string, v: number, min: number): number {
  if (!Number.isFinite(v) || v < min) throw new Error(`SMPP config: ${name} must be a number >= ${min}`);
  return v;
}

function bindMode(c: SmppConnectionConfig): BindModeSetting {
  const m = c.bindMode ?? 'trx';
  if (!BIND_MODES.includes(m)) {
    throw new Error(`SMPP config: ${c.name}.bindMode must be ${BIND_MODES.join(' or ')}, not ${String(m)}`);
  }
  return m;
}

function nowOf(clock: Clock): () => number {
  return () => clock.now().getTime();
}

/** Apply defaults and check the values (fails fast on a bad configuration). */
export function resolveConnection(c: SmppConnectionConfig): ResolvedConnectionConfig {
  if (!c.name) throw new Error('SMPP config: a connection needs a name');
  const n = (key: string, v: number, min: number): number => positive(`${c.name}.${key}`, v, min);
  const prefixes = c.prefixes ?? [];
  for (const p of prefixes) {
    if (!/^\+\d+$/.test(p)) throw new Error(`SMPP config: ${c.name}: prefix ${p} is not '+' and digits`);
  }
  return {
    name: c.name,
    host: c.host,
    port: n('port', c.port, 1),
    systemId: c.systemId,
    password: c.password,
    systemType: c.systemType ?? '',
    tls: c.tls ?? false,
    tlsVerify: c.tlsVerify ?? true,
    binds: Math.floor(n('binds', c.binds ?? 1, 1)),
    bindMode: bindMode(c),
    window: Math.floor(n('window', c.window ?? 50, 1)),
    tps: n('tps', c.tps ?? 0, 0),
    tpsBurst: c.tpsBurst === undefined ? undefined : n('tpsBurst', c.tpsBurst, 1),
    prefixes,
    enquireLinkSeconds: n('enquireLinkSeconds', c.enquireLinkSeconds ?? 30, 0.01),
    responseTimeoutMs: n('responseTimeoutMs', c.responseTimeoutMs ?? 10_000, 1),
    reconnectBaseMs: n('reconnectBaseMs', c.reconnectBaseMs ?? 1000, 1),
    reconnectMaxMs: n('reconnectMaxMs', c.reconnectMaxMs ?? 30_000, 1),
    bindWaitMs: n('bindWaitMs', c.bindWaitMs ?? 2000, 0),
    throttlePauseMs: n('throttlePauseMs', c.throttlePauseMs ?? 1000, 1),
    throttlePauseMaxMs: n('throttlePauseMaxMs', c.throttlePauseMaxMs ?? 10_000, 1),
    flapSeconds: n('flapSeconds', c.flapSeconds ?? 10, 0),
    flapWarnAfter: Math.floor(n('flapWarnAfter', c.flapWarnAfter ?? 3, 1)),
    flapWarnIntervalSeconds: n('flapWarnIntervalSeconds', c.flapWarnIntervalSeconds ?? 300, 0),
    keepOneBindAfter: Math.floor(n('keepOneBindAfter', c.keepOneBindAfter ?? c.flapWarnAfter ?? 3, 0)),
    now: c.clock ? nowOf(c.clock) : systemNow,
  };
}
