import type smpp from 'smpp';
import { TokenBucket } from './faults.js';
import type { BindMode, StoredMessage } from './options.js';

/** One SMPP session of the simulator, from accept to close. */
export interface Conn {
  session: smpp.Session;
  systemId?: string;
  systemType?: string;
  mode?: BindMode;
  /** Accepted submits whose submit_sm_resp has not been written yet. */
  unanswered: Set<StoredMessage>;
  submits: number;
  bucket: TokenBucket;
  /** dropConnection fired: ignore further input, destroy after the last response. */
  doomed: boolean;
  closed: boolean;
  corked: boolean;
}

/** How long close() waits for an unbind_resp before destroying the socket. */
const UNBIND_GRACE_MS = 200;

export const canReceive = (mode: BindMode | undefined): boolean =>
  mode === 'receiver' || mode === 'transceiver';
export const canSubmit = (mode: BindMode | undefined): boolean =>
  mode === 'transmitter' || mode === 'transceiver';
/** Whether a new bind of mode `b` replaces an older session of mode `a` (oneSessionPerSystemType). */
const replaces = (a: BindMode, b: BindMode): boolean => a === b || a === 'transceiver' || b === 'transceiver';

export function newConn(session: smpp.Session): Conn {
  return {
    session,
    unanswered: new Set(),
    submits: 0,
    bucket: new TokenBucket(),
    doomed: false,
    closed: false,
    corked: false,
  };
}

/** Batch all writes of this tick into one syscall (a window of 50 PDUs arrives in one read). */
export function cork(c: Conn): void {
  if (c.corked) return;
  c.corked = true;
  c.session.socket.cork();
  process.nextTick(() => {
    c.corked = false;
    c.session.socket.uncork();
  });
}

function usable(c: Conn): boolean {
  return !c.closed && !c.doomed && c.session.socket.writable;
}

/**
 * A receiver/transceiver for systemId (any system when undefined), preferring `origin`; among
 * several, the one `turn` (a round-robin counter) points at.
 */
export function routeReceiver(
  conns: Iterable<Conn>,
  systemId: string | undefined,
  origin: Conn | undefined,
  turn: number,
): Conn | undefined {
  if (origin && usable(origin) && canReceive(origin.mode) && origin.systemId === systemId) return origin;
  const candidates: Conn[] = [];
  for (const c of conns) {
    if (usable(c) && canReceive(c.mode) && (systemId === undefined || c.systemId === systemId)) {
      candidates.push(c);
    }
  }
  return candidates.length ? candidates[turn % candidates.length] : undefined;
}

/** oneSessionPerSystemType: the bound sessions of `conn`'s system_id + system_type that its bind as `mode` replaces. */
export function replacedBy(conns: Iterable<Conn>, conn: Conn, mode: BindMode): Conn[] {
  const out: Conn[] = [];
  for (const c of conns) {
    if (c === conn || !c.mode || c.closed || c.doomed) continue;
    if (c.systemId !== conn.systemId || c.systemType !== conn.systemType || !replaces(c.mode, mode)) continue;
    out.push(c);
  }
  return out;
}

/** Unbind a bound session (destroyed after UNBIND_GRACE_MS without an answer); resolves once closed. */
export function unbindAndClose(c: Conn): Promise<void> {
  return new Promise((resolve) => {
    if (c.closed) return resolve();
    const timer = setTimeout(() => c.session.destroy(), UNBIND_GRACE_MS);
    c.session.socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    if (c.mode && c.session.socket.writable) c.session.unbind(() => c.session.destroy());
    else c.session.destroy();
  });
}
