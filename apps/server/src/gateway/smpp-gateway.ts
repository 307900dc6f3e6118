import type smpp from 'smpp';
import type { Logger } from '../platform/logger';
import { concatPart, inboundText } from './inbound-text';
import { ESME_ROK, ESME_RX_T_APPN, MoAssembler, type Reply } from './mo-assembler';
import { buildSubmitSm, invalidReason } from './pdu';
import { deliverKind, parseReceipt } from './receipt';
import type { SmppBind } from './smpp-bind';
import { resolveConnection, type SmppConnectionConfig } from './smpp-config';
import { SmppConnection } from './smpp-connection';
import type { DeliveryReceipt, MobileOriginated, SmsGateway, SubmitOutcome } from './sms-gateway';
import { submitParts } from './submit-message';

export type { SmppConnectionConfig } from './smpp-config';

export interface SmppGatewayOptions {
  connections: SmppConnectionConfig[];
  logger: Logger;
  /** Longest a submit waits for a window slot while binds are up, then 'retry' (default 30000). */
  maxQueueWaitMs?: number;
  /** start() resolves once every bind's first attempt settled, or after this (default 5000). */
  startWaitMs?: number;
  /** stop(): wait this long for in-flight submits and handlers before unbinding (default 2000). */
  drainMs?: number;
  /** stop(): wait this long for each unbind_resp (default 1000). */
  unbindTimeoutMs?: number;
  /** Incomplete concatenated MO is handed over as it is after this (default 60000). */
  moAssemblyTimeoutMs?: number;
}

/** Longest-prefix routing over E.164 destinations; the connection with no prefixes is the default. */
export function createRouter<C extends { cfg: { name: string; prefixes: string[] } }>(
  connections: C[],
): (to: string) => C | undefined {
  const byPrefix = new Map<string, C>();
  let fallback: C | undefined;
  let longest = 0;
  for (const c of connections) {
    if (c.cfg.prefixes.length === 0) {
      if (fallback) throw new Error(`SMPP config: ${fallback.cfg.name} and ${c.cfg.name} are both default`);
      fallback = c;
    }
    for (const p of c.cfg.prefixes) {
      const other = byPrefix.get(p);
      if (other) throw new Error(`SMPP config: prefix ${p} on both ${other.cfg.name} and ${c.cfg.name}`);
      byPrefix.set(p, c);
      longest = Math.max(longest, p.length);
    }
  }
  return (to) => {
    for (let len = Math.min(longest, to.length); len >= 2; len--) {
      const c = byPrefix.get(to.slice(0, len));
      if (c) return c;
    }
    return fallback;
  };
}

/** MO addresses: international (TON 1), or TON unknown with 8-15 digits not starting with 0 → "+digits". */
function moAddress(addr: string | undefined, ton: unknown): string {
  const a = (addr ?? '').trim();
  if (/^\d+$/.test(a) && (ton === 1 || (ton === 0 && /^[1-9]\d{7,14}$/.test(a)))) return `+${a}`;
  return a;
}

type Handler<T> = (value: T) => Promise<void>;

/** A routed message whose every connection is down steps back this long (the dispatcher caps it). */
const RETRY_NO_CONNECTION_MS = 1000;

/** The SMPP implementation of SmsGateway: one or more connections, each with N binds (trx, or tx + rx). */
export function createSmppGateway(opts: SmppGatewayOptions): SmsGateway {
  const log = opts.logger.child({ component: 'smpp-gateway' });
  const names = new Set<string>();
  for (const c of opts.connections) {
    if (names.has(c.name)) throw new Error(`SMPP config: duplicate connection name ${c.name}`);
    names.add(c.name);
  }
  let receiptHandler: Handler<DeliveryReceipt> | undefined;
  let moHandler: Handler<MobileOriginated> | undefined;
  let running = 0; // handler calls not yet settled
  let ref = Math.floor(Math.random() * 256);
  let stopping: Promise<void> | undefined;

  /** Run a handler; resolves true when its promise resolved. */
  async function call<T>(handler: Handler<T> | undefined, value: T, what: string): Promise<boolean> {
    if (!handler) {
      log.warn(`${what} arrived with no handler registered; answered with a temporary error`);
      return false;
    }
    running++;
    try {
      await handler(value);
      return true;
    } catch (err) {
      log.error({ err }, `${what} handler failed; answered with a temporary error`);
      return false;
    } finally {
      running--;
    }
  }

  const answer = (reply: Reply) => (ok: boolean) => reply(ok ? ESME_ROK : ESME_RX_T_APPN);

  const assembler = new MoAssembler<MobileOriginated>(opts.moAssemblyTimeoutMs ?? 60_000, (mo, text) => {
    log.warn({ from: mo.from, to: mo.to }, 'concatenated MO incomplete; handing over the parts received');
    void call(moHandler, { ...mo, text }, 'MO').then((ok) => {
      if (!ok) log.error({ from: mo.from, to: mo.to }, 'incomplete MO lost: handler failed');
    });
  });

  function onReceipt(bind: SmppBind, pdu: smpp.PDU, reply: Reply): void {
    const receipt = parseReceipt(bind.cfg.name, pdu);
    if (!receipt) {
      log.warn({ connection: bind.cfg.name, pdu: inboundText(pdu).text }, 'receipt without an id: dropped');
      return reply(ESME_ROK);
    }
    void call(receiptHandler, receipt, 'receipt').then(answer(reply));
  }

  function onMo(bind: SmppBind, pdu: smpp.PDU, reply: Reply): void {
    const { text, udh } = inboundText(pdu);
    const mo: MobileOriginated = {
      connection: bind.cfg.name,
      from: moAddress(pdu.source_addr, pdu.source_addr_ton),
      to: moAddress(pdu.destination_addr, pdu.dest_addr_ton),
      text,
      receivedAt: new Date(),
    };
    const part = concatPart(pdu, udh);
    if (!part || part.total <= 1 || part.seq < 1 || part.seq > part.total) {
      void call(moHandler, mo, 'MO').then(answer(reply));
      return;
    }
    const key = `${mo.connection}|${mo.from}|${mo.to}|${part.ref}|${part.total}`;
    const done = assembler.add(key, { ...mo, parts: part.total }, part, text, reply);
    if (done) void call(moHandler, { ...done.meta, text: done.text }, 'MO').then((ok) => done.done(ok));
  }

  function deliver(bind: SmppBind, pdu: smpp.PDU, reply: Reply): void {
    const kind = deliverKind(pdu.esm_class);
    if (kind === 'receipt') return onReceipt(bind, pdu, reply);
    if (kind === 'mo') return onMo(bind, pdu, reply);
    reply(ESME_ROK); // SME / user acknowledgements: nothing to do
  }

  const maxWaitMs = opts.maxQueueWaitMs ?? 30_000;
  const open = (c: SmppConnectionConfig) =>
    new SmppConnection(resolveConnection(c), deliver, opts.logger, maxWaitMs);
  let connections = opts.connections.map(open);
  let route = createRouter(connections);
  let byName = new Map(connections.map((c) => [c.name, c]));
  /** Connections an operator paused at start (bound on resume; reconfigure keeps them unbound). */
  let pausedAtStart: ReadonlySet<string> = new Set();
  /** The settings each connection was opened with, to tell a change from a repeat. */
  const settingsKey = (c: SmppConnectionConfig) => {
    const { clock: _clock, ...rest } = c;
    return JSON.stringify(rest, (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
        : v,
    );
  };
  const keys = new Map(opts.connections.map((c) => [c.name, settingsKey(c)]));

  /** Closes a connection gracefully: no new submits, those in flight answered (up to drainMs), unbound. */
  async function retire(c: SmppConnection, why: string): Promise<void> {
    c.close(why);
    const deadline = Date.now() + (opts.drainMs ?? 2000);
    while (c.inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await Promise.all(c.sessions.map((b) => b.stop(opts.unbindTimeoutMs ?? 1000)));
  }

  /**
   * A route's candidates in order: connections with no bind up are passed over (they are the
   * failover's reason to exist); the first that has one takes the message. A refusal that is safe
   * to resend (throttled, a transient error, a PDU never written, the bind lost while waiting) is
   * tried once more, on the next candidate with a bind up: never twice on one connection, and
   * never after anything may have reached an SMSC (accepted, rejected and unknown end it).
   */
  async function submitVia(
    via: readonly string[],
    pdus: smpp.PduOptions[],
    priority?: number,
  ): Promise<SubmitOutcome> {
    const passed: string[] = [];
    let refused: SubmitOutcome | undefined;
    for (const name of via) {
      const conn = byName.get(name);
      if (!conn || conn.bound === 0) {
        passed.push(`${name}: ${conn ? 'no bind up' : 'not configured'}`);
        continue;
      }
      const outcome = await submitParts(conn, pdus, priority);
      if (outcome.kind !== 'retry') return outcome;
      if (refused) {
        const first = refused.kind === 'retry' ? refused.reason : '';
        return { ...outcome, reason: `${outcome.reason} on ${name}, after ${first}` };
      }
      refused = { ...outcome, reason: `${outcome.reason} on ${name}` };
    }
    if (refused) return refused;
    return {
      kind: 'retry',
      reason: `no connection of the route has a bind up (${passed.join('; ') || 'none listed'})`,
      retryAfterMs: RETRY_NO_CONNECTION_MS,
      waiting: true,
    };
  }

  async function drain(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    const busy = (): boolean => running > 0 || connections.some((c) => c.inFlight > 0);
    while (busy() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  }

  return {
    async start(startOpts) {
      const wait = opts.startWaitMs ?? 5000;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)));
      pausedAtStart = new Set(startOpts?.paused ?? []);
      const active = connections.filter((c) => !pausedAtStart.has(c.name));
      await Promise.race([Promise.all(active.map((c) => c.start())), timeout]);
      clearTimeout(timer);
      const down = active.filter((c) => c.bound === 0).map((c) => c.name);
      if (down.length > 0) log.warn({ connections: down }, 'SMPP connections not bound yet; retrying');
    },

    stop() {
      stopping ??= (async () => {
        for (const c of connections) c.close('gateway stopped');
        await drain(opts.drainMs ?? 2000);
        const unbindMs = opts.unbindTimeoutMs ?? 1000;
        await Promise.all(connections.flatMap((c) => c.sessions.map((b) => b.stop(unbindMs))));
        assembler.clear();
      })();
      return stopping;
    },

    async submit(sms): Promise<SubmitOutcome> {
      const invalid = invalidReason(sms);
      if (invalid) return { kind: 'rejected', commandStatus: 0, reason: `local: ${invalid}` };
      if (stopping) return { kind: 'retry', reason: 'gateway stopped', retryAfterMs: 5000 };
      ref = (ref + 1) & 0xff;
      if (sms.via) return submitVia(sms.via, buildSubmitSm(sms, ref), sms.priority);
      if (connections.length === 0) {
        // An operator removed every connection: messages wait for one to be added.
        return {
          kind: 'retry',
          reason: 'no SMPP connection is configured',
          retryAfterMs: 5000,
          waiting: true,
        };
      }
      const conn = route(sms.to.trim());
      if (!conn) {
        return { kind: 'rejected', commandStatus: 0, reason: `local: no SMPP route for ${sms.to}` };
      }
      return submitParts(conn, buildSubmitSm(sms, ref), sms.priority);
    },

    boundOf(name) {
      return byName.get(name)?.bound ?? 0;
    },

    throttledOf(name) {
      return byName.get(name)?.throttled ?? false;
    },

    onReceipt(handler) {
      receiptHandler = handler;
    },

    onMo(handler) {
      moHandler = handler;
    },

    status() {
      return connections.map((c) => c.status());
    },

    async pauseConnection(name) {
      const c = connections.find((x) => x.name === name);
      if (!c) return false;
      c.close(`connection ${name} is paused by an operator`);
      const deadline = Date.now() + (opts.drainMs ?? 2000);
      while (c.inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await Promise.all(c.sessions.map((b) => b.stop(opts.unbindTimeoutMs ?? 1000)));
      return true;
    },

    async reconfigure(next, paused) {
      const names = new Set<string>();
      for (const c of next) {
        if (names.has(c.name)) throw new Error(`SMPP config: duplicate connection name ${c.name}`);
        names.add(c.name);
      }
      const opened = next.map((c) => {
        const current = byName.get(c.name);
        if (current && keys.get(c.name) === settingsKey(c)) return { c: current, fresh: false };
        return { c: open(c), fresh: true, replaces: current };
      });
      const nextRoute = createRouter(opened.map((o) => o.c)); // throws on a clash, before anything changes
      const added: string[] = [];
      const changed: string[] = [];
      const removed = connections.filter((c) => !names.has(c.name));
      // Swapped in at once: a submit from now on sees the new set (a replaced connection's new
      // sessions are not bound yet, so its messages fail over or wait, as for a dropped bind).
      connections = opened.map((o) => o.c);
      byName = new Map(connections.map((c) => [c.name, c]));
      route = nextRoute;
      for (const c of next) keys.set(c.name, settingsKey(c));
      for (const c of removed) keys.delete(c.name);
      const retiring: Promise<void>[] = removed.map((c) => retire(c, `connection ${c.name} was removed`));
      for (const o of opened) {
        if (!o.fresh) continue;
        (o.replaces ? changed : added).push(o.c.name);
        const old = o.replaces;
        const after = old ? retire(old, `connection ${old.name}'s settings changed`) : Promise.resolve();
        // Rebound with the new settings once the old sessions are closed (the SMSC may allow one).
        retiring.push(
          after.then(async () => {
            if (!stopping && !paused?.has(o.c.name) && !pausedAtStart.has(o.c.name)) await o.c.start();
          }),
        );
      }
      await Promise.all(retiring);
      if (added.length || changed.length || removed.length) {
        log.info(
          { added, changed, removed: removed.map((c) => c.name) },
          'SMPP connections changed: applied',
        );
      }
      return { added, changed, removed: removed.map((c) => c.name) };
    },

    async resumeConnection(name) {
      const c = connections.find((x) => x.name === name);
      if (!c || stopping) return false;
      await c.start();
      return true;
    },
  };
}
