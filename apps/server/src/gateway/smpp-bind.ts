// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../../../packages/smsc-simulator/src/smpp.d.ts" />
import smpp from 'smpp';
import type { Logger } from '../platform/logger';
import { backoffMs, ThrottlePause } from './backoff';
import { statusName } from './command-status';
import type { Reply } from './mo-assembler';
import type { BindState, SendResult, SessionRole } from './smpp-bind-types';
import type { ResolvedConnectionConfig } from './smpp-config';
import { SessionIo } from './smpp-session-io';
import { TokenBucket } from './token-bucket';

export type { BindState, SendResult, SessionRole } from './smpp-bind-types';

/** What a bind tells its connection (smpp-connection.ts). */
export interface BindHooks {
  /** Something changed that may free a slot (bound, response, pause over, down). */
  changed(): void;
  /** A deliver_sm arrived; `reply` sends its deliver_sm_resp (once). */
  deliver(bind: SmppBind, pdu: smpp.PDU, reply: Reply): void;
  /** The SMSC closed this session, bound at `boundAt` (connection clock), within flapSeconds of binding. */
  flapped(bind: SmppBind, boundAt: number): void;
  /** This session has stayed bound flapSeconds. */
  stable(bind: SmppBind): void;
  /** A session of this bind ended (closed, by anyone); `boundAt` when it had bound. */
  ended(bind: SmppBind, generation: number, boundAt: number | undefined): void;
}

const ESME_RINVBNDSTS = 0x04;
const ESME_RMSGQFUL = 0x14;
const ESME_RTHROTTLED = 0x58;
const SMPP_34 = 0x34;

/**
 * One session (a transceiver, or the transmitter or receiver of a tx + rx pair): connect, bind,
 * enquire_link, reconnect with backoff, window and TPS accounting, throttle pauses, flap detection.
 * Window slots are reserved by the caller (`reserve`) and released here when the submit settles.
 *
 * Flaps: a session the SMSC closes within `flapSeconds` of binding is a flap. The reconnect backoff
 * only resets once a session has stayed bound that long, so a server that closes every fresh session
 * (one session per system_type, too many binds) sees slower and slower rebinds, not a storm; the
 * connection's FlapMonitor (smpp-flaps.ts) tells replacements by another bind from other flaps.
 * PDU writes, request tracking and the SMSC's requests go through SessionIo (smpp-session-io.ts).
 */
export class SmppBind {
  state: BindState = 'down';
  /** Reserved window slots (written or about to be). */
  inFlight = 0;
  /** When the bind last stopped being bound (or was created), on the connection's clock. */
  downSince: number;
  readonly label: string;
  /** Flaps in all, and since a session last stayed bound flapSeconds. */
  flaps = 0;
  recentFlaps = 0;
  lastError: string | null = null;
  lastBoundAt: Date | null = null;
  lastClosedAt: Date | null = null;
  /** Connection attempts so far: tells one session of this bind from the next. */
  generation = 0;
  private session: smpp.Session | undefined;
  private readonly io: SessionIo;
  private readonly bucket: TokenBucket;
  private readonly throttle: ThrottlePause;
  private readonly log: Logger;
  private attempts = 0;
  private stopped = false;
  private enquireOutstanding = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private sessionTimers: NodeJS.Timeout[] = [];
  private firstAttempt: (() => void) | undefined;
  private closed: Promise<void> = Promise.resolve();
  /** Why the current session is going down, when we know (our recycle, a socket error, an unbind). */
  private closeReason: string | undefined;
  /** We closed it ourselves (recycle, stop): not a flap. */
  private closedByUs = false;

  constructor(
    readonly cfg: ResolvedConnectionConfig,
    readonly index: number,
    private readonly hooks: BindHooks,
    logger: Logger,
    readonly role: SessionRole = 'transceiver',
  ) {
    this.label = `${cfg.name}#${index}${role === 'transmitter' ? 'tx' : role === 'receiver' ? 'rx' : ''}`;
    this.downSince = cfg.now();
    this.bucket = new TokenBucket(cfg.tps, cfg.tpsBurst, this.downSince);
    this.throttle = new ThrottlePause(cfg.throttlePauseMs, cfg.throttlePauseMaxMs);
    this.log = logger.child({ smpp: this.label });
    this.io = new SessionIo(cfg, this.log);
  }

  get bound(): boolean {
    return this.state === 'bound';
  }

  /** A submit may reserve a slot now: bound, window not full, not paused, a token available. */
  canTake(now: number): boolean {
    return (
      this.role !== 'receiver' &&
      this.bound &&
      this.inFlight < this.cfg.window &&
      now >= this.throttle.until &&
      this.bucket.ready(now)
    );
  }

  /** The SMSC throttled this bind and its pause has not ended (ThrottlePause). */
  throttledAt(now: number): boolean {
    return now < this.throttle.until;
  }

  /** Ms until a pause or the token bucket stops blocking (window and bind state not considered). */
  blockedForMs(now: number): number {
    return Math.max(this.throttle.until - now, this.bucket.waitMs(now), 0);
  }

  reserve(now: number): void {
    this.bucket.take(now);
    this.inFlight++;
  }

  /** Connect; resolves once the first bind attempt succeeded or failed. */
  start(): Promise<void> {
    this.stopped = false;
    const first = new Promise<void>((resolve) => (this.firstAttempt = resolve));
    this.connect();
    return first;
  }

  /** Stop reconnecting, unbind (waiting at most `unbindTimeoutMs`), close the socket. */
  async stop(unbindTimeoutMs: number): Promise<void> {
    this.stopped = true;
    this.closedByUs = true;
    clearTimeout(this.reconnectTimer);
    const session = this.session;
    if (session && this.state === 'bound' && session.socket.writable) {
      this.setState('unbinding');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, unbindTimeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          resolve();
        };
        const handlers = { onResp: done, onTimeout: done, onClose: done };
        if (!this.io.request(session, new smpp.PDU('unbind'), handlers)) done();
      });
    }
    session?.destroy();
    await this.closed;
    this.setState('stopped');
  }

  /** Send one submit_sm on a reserved slot; the slot is released when the result is known. */
  submit(fields: smpp.PduOptions): Promise<SendResult> {
    const session = this.session;
    if (!session || this.state !== 'bound') {
      this.release();
      return Promise.resolve({ kind: 'not-written', reason: `bind ${this.label} is ${this.state}` });
    }
    return new Promise<SendResult>((resolve) => {
      const settle = (r: SendResult): void => {
        this.release();
        resolve(r);
      };
      let written: boolean;
      try {
        // session.send encodes before writing, so a throw means nothing was written.
        written = this.io.request(session, new smpp.PDU('submit_sm', fields), {
          onResp: (resp) => settle(this.onSubmitResp(resp)),
          onTimeout: () => {
            settle({ kind: 'timeout' });
            this.probe();
          },
          onClose: (reason) => settle({ kind: 'closed', reason }),
        });
      } catch (err) {
        return settle({ kind: 'invalid', reason: `cannot encode submit_sm: ${(err as Error).message}` });
      }
      if (!written) settle({ kind: 'not-written', reason: `socket of ${this.label} not writable` });
    });
  }

  /** Destroy the socket (a dead link or a confused session); reconnect follows. */
  recycle(reason: string): void {
    if (!this.session) return;
    this.log.warn({ reason }, 'SMPP session recycled');
    this.closedByUs = true;
    this.closeReason ??= reason;
    this.session.destroy();
  }

  private release(): void {
    this.inFlight--;
    this.hooks.changed();
  }

  private onSubmitResp(pdu: smpp.PDU): SendResult {
    const status = pdu.command_status;
    let pauseMs = 0;
    if (status === ESME_RTHROTTLED || status === ESME_RMSGQFUL) pauseMs = this.pause(status);
    else if (status === 0) this.throttle.succeeded();
    else if (status === ESME_RINVBNDSTS) this.recycle('SMSC says we are not bound (ESME_RINVBNDSTS)');
    return { kind: 'resp', status, messageId: pdu.message_id ?? '', pauseMs };
  }

  /** Throttled: pause this bind (see ThrottlePause); returns the pause left, in ms. */
  private pause(status: number): number {
    const { ms, started } = this.throttle.throttled(this.cfg.now());
    if (started) this.log.warn({ status: statusName(status), pauseMs: ms }, 'SMSC throttling: bind paused');
    return ms;
  }

  // ---- session lifecycle ----

  private setState(state: BindState): void {
    if (this.state === state) return;
    if (this.state === 'bound') this.downSince = this.cfg.now();
    this.state = state;
    this.hooks.changed();
  }

  private connect(): void {
    if (this.stopped) return;
    this.generation++;
    this.setState('connecting');
    let session: smpp.Session;
    try {
      session = smpp.connect({
        host: this.cfg.host,
        port: this.cfg.port,
        ...(this.cfg.tls
          ? { tls: true, rejectUnauthorized: this.cfg.tlsVerify, servername: this.cfg.host }
          : {}),
      });
    } catch (err) {
      this.log.error({ err }, 'SMPP connect failed');
      this.setState('down');
      this.settleFirstAttempt();
      this.scheduleReconnect();
      return;
    }
    this.session = session;
    this.closeReason = undefined;
    this.closedByUs = false;
    this.closed = new Promise((resolve) => session.socket.once('close', () => resolve()));
    const connectTimer = setTimeout(() => {
      this.log.warn('SMPP connect timed out');
      this.closeReason ??= 'connect timed out';
      session.destroy();
    }, this.cfg.responseTimeoutMs);
    this.sessionTimers = [connectTimer, setInterval(() => this.io.pending.sweep(), this.io.sweepMs)];
    // Over TLS the bind waits for the handshake (a certificate refused ends it as a socket error).
    session.on(this.cfg.tls ? 'secureConnect' : 'connect', () => {
      clearTimeout(connectTimer);
      session.socket.setNoDelay(true);
      session.socket.setKeepAlive(true, 30_000);
      this.bind(session);
    });
    session.on('error', (err) => {
      this.log.warn({ err: err.message }, 'SMPP socket error');
      this.closeReason ??= `socket error: ${err.message}`;
      session.destroy();
    });
    session.on('close', () => this.onClose(session));
    session.on('pdu', (pdu) => this.onPdu(session, pdu));
  }

  private bind(session: smpp.Session): void {
    this.setState('binding');
    const command = `bind_${this.role}`;
    const fields = {
      system_id: this.cfg.systemId,
      password: this.cfg.password,
      system_type: this.cfg.systemType,
      interface_version: SMPP_34,
    };
    const fail = (reason: string): void => {
      this.log.warn({ reason, attempt: this.attempts + 1 }, 'SMPP bind failed');
      this.closeReason ??= `bind failed: ${reason}`;
      session.destroy();
    };
    const written = this.io.request(session, new smpp.PDU(command, fields), {
      onResp: (pdu) => {
        if (pdu.command_status !== 0) return fail(`${command}_resp ${statusName(pdu.command_status)}`);
        // The backoff resets only once the session has stayed bound flapSeconds (not at bind).
        this.throttle.succeeded();
        this.lastBoundAt = new Date(this.cfg.now());
        this.log.info({ smsc: pdu.system_id, role: this.role }, 'SMPP bound');
        const ms = this.cfg.enquireLinkSeconds * 1000;
        this.sessionTimers.push(
          setInterval(() => this.probe(), ms),
          setTimeout(() => this.stable(), this.cfg.flapSeconds * 1000),
        );
        this.setState('bound');
        this.settleFirstAttempt();
      },
      onTimeout: () => fail(`no ${command}_resp`),
      onClose: () => undefined,
    });
    if (!written) fail('socket not writable');
  }

  /** The session stayed bound flapSeconds: the reconnect backoff and the flap run start over. */
  private stable(): void {
    this.attempts = 0;
    this.recentFlaps = 0;
    this.hooks.stable(this);
  }

  /** The last flap was a replacement: `by`, another session of the connection, had just bound. */
  noteReplaced(by: string): void {
    if (this.lastError) this.lastError += `, just after ${by} bound (one session per system_id/system_type)`;
  }

  private onClose(session: smpp.Session): void {
    if (session !== this.session) return;
    this.session = undefined;
    for (const t of this.sessionTimers) clearTimeout(t);
    this.sessionTimers = [];
    this.enquireOutstanding = false;
    const wasBound = this.state === 'bound' || this.state === 'unbinding';
    const boundAt = wasBound ? this.lastBoundAt?.getTime() : undefined;
    this.setState(this.stopped ? 'stopped' : 'down');
    if (!this.stopped) {
      const now = this.cfg.now();
      this.lastClosedAt = new Date(now);
      const livedMs = wasBound && this.lastBoundAt ? now - this.lastBoundAt.getTime() : undefined;
      const byPeer = wasBound && !this.closedByUs;
      this.lastError =
        this.closeReason ??
        (byPeer ? `closed by the SMSC ${livedMs ?? 0} ms after binding` : 'connection closed before bind');
      const flap = byPeer && livedMs !== undefined && livedMs < this.cfg.flapSeconds * 1000;
      if (wasBound) {
        this.log.warn(
          { unanswered: this.io.pending.size, livedMs, flap, reason: this.lastError },
          'SMPP connection closed',
        );
      }
      if (flap && this.lastBoundAt) {
        this.flaps++;
        this.recentFlaps++;
        this.hooks.flapped(this, this.lastBoundAt.getTime());
      }
    }
    this.hooks.ended(this, this.generation, boundAt);
    this.io.pending.closeAll('connection closed');
    this.settleFirstAttempt();
    this.scheduleReconnect();
  }

  private settleFirstAttempt(): void {
    this.firstAttempt?.();
    this.firstAttempt = undefined;
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = backoffMs(this.attempts++, this.cfg.reconnectBaseMs, this.cfg.reconnectMaxMs);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  // ---- PDUs ----

  /** Send enquire_link unless one is outstanding; no answer within the timeout = dead link. */
  private probe(): void {
    const session = this.session;
    if (!session || this.state !== 'bound' || this.enquireOutstanding) return;
    this.enquireOutstanding = true;
    const done = (): void => {
      this.enquireOutstanding = false;
    };
    const written = this.io.request(session, new smpp.PDU('enquire_link'), {
      onResp: done,
      onTimeout: () => {
        done();
        this.recycle('enquire_link timeout: dead link');
      },
      onClose: done,
    });
    if (!written) done();
  }

  private onPdu(session: smpp.Session, pdu: smpp.PDU): void {
    if (session !== this.session) return;
    this.io.inbound(session, pdu, {
      unbind: () => {
        this.log.info('SMSC unbinds');
        this.closeReason ??= 'the SMSC unbound';
        this.setState('unbinding');
        // Destroy once the unbind_resp is flushed: do not wait for the SMSC to close its side.
        if (!this.io.write(session, pdu.response(), () => session.destroy())) session.destroy();
      },
      deliver: (reply) => this.hooks.deliver(this, pdu, reply),
    });
  }
}
