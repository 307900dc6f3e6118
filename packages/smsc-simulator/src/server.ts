// Pulls the local `smpp` typings into any program that imports this package (the library ships none).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./smpp.d.ts" />
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import smpp from 'smpp';
import { splitMo } from './encoding.js';
import { createRandom, pickDelay, submitFault, TokenBucket, type Random } from './faults.js';
import { MessageIdGenerator } from './message-id.js';
import { buildMessage, MessageStore } from './message-store.js';
import {
  expandIdFormat,
  resolveOptions,
  type BindMode,
  type MoInput,
  type MoResult,
  type ResolvedOptions,
  type RuntimeOptions,
  type SmscEvents,
  type SmscHandle,
  type SmscOptions,
  type SmscStats,
  type StoredMessage,
} from './options.js';
import { MESSAGE_STATE } from './receipt.js';
import { ReceiptDispatcher, type Receipt } from './receipt-dispatcher.js';
import { receiptPdu, wantsReceipt } from './receipt-pdu.js';
import { Scheduler } from './scheduler.js';

interface Conn {
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

const UNBIND_GRACE_MS = 200;

const canReceive = (mode: BindMode | undefined): boolean => mode === 'receiver' || mode === 'transceiver';
const canSubmit = (mode: BindMode | undefined): boolean => mode === 'transmitter' || mode === 'transceiver';
/** Whether a new bind of mode `b` replaces an older session of mode `a` (oneSessionPerSystemType). */
const replaces = (a: BindMode, b: BindMode): boolean => a === b || a === 'transceiver' || b === 'transceiver';

class Smsc implements SmscHandle {
  readonly host: string;
  private readonly server: smpp.Server;
  private readonly emitter = new EventEmitter();
  private readonly scheduler: Scheduler;
  private ids: MessageIdGenerator;
  /** switchIdFormat: accepted submits counted towards the switch, and whether it happened. */
  private submitsBeforeSwitch = 0;
  private idFormatSwitched = false;
  private readonly conns = new Set<Conn>();
  private readonly store = new MessageStore();
  private readonly receipts: ReceiptDispatcher<Conn>;
  private readonly moWaiters = new Set<(err: Error) => void>();
  private opts: ResolvedOptions;
  private rand: Random;
  private rr = 0;
  private moRef = 0;
  private closing: Promise<void> | undefined;
  /** restart(): connections are refused until then. */
  private downUntil = 0;
  /** Bumped by a restart that loses receipts: scheduled receipt tasks of older epochs do nothing. */
  private epoch = 0;
  /** Receipt tasks on the scheduler (not yet due). */
  private scheduledReceipts = 0;
  /** Submits forgotten by restartWithUnanswered: their delayed response and receipt never happen. */
  private readonly forgotten = new WeakSet<StoredMessage>();
  /** restartWithUnanswered = N: responses held until N wait; armed until it fires. */
  private held: (() => void)[] = [];
  private restartArmed = true;
  private readonly n = {
    connections: 0,
    binds: 0,
    bindFailures: 0,
    unbinds: 0,
    enquireLinks: 0,
    submitReceived: 0,
    submitted: 0,
    rejected: 0,
    throttled: 0,
    tpsLimited: 0,
    queueFull: 0,
    receiptsSent: 0,
    receiptsAcked: 0,
    receiptsNacked: 0,
    moSent: 0,
    moPartsSent: 0,
    connectionsDropped: 0,
    ignoredPdus: 0,
    sessionsReplaced: 0,
    restarts: 0,
    receiptsLost: 0,
    unansweredForgotten: 0,
  };

  constructor(options: SmscOptions) {
    this.host = options.host ?? '127.0.0.1';
    const expanded = expandIdFormat(options);
    this.opts = resolveOptions(expanded);
    this.rand = createRandom(options.seed);
    this.ids = new MessageIdGenerator(expanded.messageIdStart, options.seed);
    this.scheduler = new Scheduler((err) => this.report(err));
    this.receipts = new ReceiptDispatcher<Conn>({
      faults: () => this.opts,
      random: () => this.rand,
      scheduler: this.scheduler,
      deliver: (r) => this.deliver(r),
    });
    this.server = smpp.createServer({}, (session) => this.attach(session));
  }

  get port(): number {
    return (this.server.address() as AddressInfo | null)?.port ?? 0;
  }

  get messages(): ReadonlyMap<string, StoredMessage> {
    return this.store;
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, this.host, () => {
        this.server.off('error', reject);
        this.server.on('error', (err) => this.report(err));
        resolve();
      });
    });
  }

  options(): Readonly<RuntimeOptions> {
    return this.opts;
  }

  setOptions(partial: Partial<RuntimeOptions>): void {
    const wasHalfOpen = this.opts.halfOpen;
    this.opts = resolveOptions({ ...this.opts, ...partial });
    if ('seed' in partial) this.rand = createRandom(partial.seed);
    if ('restartWithUnanswered' in partial) this.restartArmed = true;
    if ('switchIdFormat' in partial) this.submitsBeforeSwitch = 0;
    this.receipts.optionsChanged(wasHalfOpen === true);
  }

  on<K extends keyof SmscEvents>(event: K, listener: SmscEvents[K]): this {
    this.emitter.on(event, listener);
    return this;
  }

  once<K extends keyof SmscEvents>(event: K, listener: SmscEvents[K]): this {
    this.emitter.once(event, listener);
    return this;
  }

  off<K extends keyof SmscEvents>(event: K, listener: SmscEvents[K]): this {
    this.emitter.off(event, listener);
    return this;
  }

  stats(): SmscStats {
    let bound = 0;
    for (const c of this.conns) if (c.mode) bound++;
    return {
      ...this.n,
      activeSessions: this.conns.size,
      boundSessions: bound,
      receiptsPending: this.receipts.waiting,
      storedMessages: this.store.size,
    };
  }

  dropAll(): void {
    for (const c of this.conns) this.kill(c);
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  async restart(opts: { downMs?: number } = {}): Promise<void> {
    if (this.closing) return;
    this.n.restarts++;
    this.held = [];
    if (this.opts.loseReceiptsOnRestart) {
      this.n.receiptsLost += this.scheduledReceipts + this.receipts.waiting;
      this.scheduledReceipts = 0;
      this.epoch++;
      this.receipts.clear();
    }
    this.downUntil = Date.now() + Math.max(0, opts.downMs ?? 0);
    const conns = [...this.conns];
    const closed = conns.map(
      (c) => new Promise<void>((resolve) => (c.closed ? resolve() : c.session.socket.once('close', resolve))),
    );
    for (const c of conns) this.kill(c);
    await Promise.all(closed);
  }

  async sendMo(mo: MoInput): Promise<MoResult> {
    if (this.closing) throw new Error('SMSC simulator is closed');
    if (this.opts.halfOpen) throw new Error('SMSC simulator is half-open; MO suppressed');
    const conn = this.route(mo.systemId);
    if (!conn) throw new Error(`no bound receiver${mo.systemId ? ` for ${mo.systemId}` : ''}`);
    const parts = splitMo(mo.text, this.moRef++);
    const statuses = await Promise.all(
      parts.map((p) =>
        this.request(conn, {
          source_addr: mo.from,
          destination_addr: mo.to,
          esm_class: 0,
          data_coding: p.dataCoding,
          short_message: p.udh ? { udh: p.udh, message: p.message } : p.message,
        }),
      ),
    );
    this.n.moSent++;
    const result: MoResult = { parts: parts.length, statuses };
    this.emit('mo', mo, result);
    return result;
  }

  // ---- connections ----

  private attach(session: smpp.Session): void {
    if (this.closing || Date.now() < this.downUntil) return session.destroy();
    session.socket.setNoDelay(true);
    const conn: Conn = {
      session,
      unanswered: new Set(),
      submits: 0,
      bucket: new TokenBucket(),
      doomed: false,
      closed: false,
      corked: false,
    };
    this.conns.add(conn);
    this.n.connections++;
    session.on('error', () => session.destroy());
    session.on('close', () => {
      conn.closed = true;
      this.conns.delete(conn);
      this.forgetUnanswered(conn);
    });
    session.on('pdu', (pdu) => {
      try {
        this.onPdu(conn, pdu);
      } catch (err) {
        this.report(err);
      }
    });
  }

  /** restartWithUnanswered: what a closed session had not answered was never received. */
  private forgetUnanswered(conn: Conn): void {
    if (!this.opts.restartWithUnanswered) return;
    for (const msg of conn.unanswered) {
      this.forgotten.add(msg);
      if (this.store.get(msg.id) === msg) this.store.delete(msg.id);
      this.n.unansweredForgotten++;
    }
    conn.unanswered.clear();
  }

  private kill(conn: Conn): void {
    if (conn.closed) return;
    conn.doomed = true;
    this.n.connectionsDropped++;
    conn.session.destroy();
  }

  /** Batch all writes of this tick into one syscall (a window of 50 PDUs arrives in one read). */
  private cork(c: Conn): void {
    if (c.corked) return;
    c.corked = true;
    c.session.socket.cork();
    process.nextTick(() => {
      c.corked = false;
      c.session.socket.uncork();
    });
  }

  private usable(c: Conn): boolean {
    return !c.closed && !c.doomed && c.session.socket.writable;
  }

  /** A receiver/transceiver for systemId (any system when undefined), preferring `origin`. */
  private route(systemId: string | undefined, origin?: Conn): Conn | undefined {
    if (origin && this.usable(origin) && canReceive(origin.mode) && origin.systemId === systemId) {
      return origin;
    }
    const candidates: Conn[] = [];
    for (const c of this.conns) {
      if (this.usable(c) && canReceive(c.mode) && (systemId === undefined || c.systemId === systemId)) {
        candidates.push(c);
      }
    }
    return candidates.length ? candidates[this.rr++ % candidates.length] : undefined;
  }

  // ---- inbound PDUs ----

  private onPdu(conn: Conn, pdu: smpp.PDU): void {
    if (pdu.isResponse()) return; // answered through send() callbacks
    if (this.opts.halfOpen || conn.doomed) {
      this.n.ignoredPdus++;
      return;
    }
    this.cork(conn);
    switch (pdu.command) {
      case 'bind_transmitter':
        return this.onBind(conn, pdu, 'transmitter');
      case 'bind_receiver':
        return this.onBind(conn, pdu, 'receiver');
      case 'bind_transceiver':
        return this.onBind(conn, pdu, 'transceiver');
      case 'enquire_link':
        this.n.enquireLinks++;
        conn.session.send(pdu.response());
        return;
      case 'unbind':
        this.n.unbinds++;
        conn.mode = undefined;
        conn.session.send(pdu.response(), () => conn.session.close());
        return;
      case 'submit_sm':
        return this.onSubmit(conn, pdu);
      case 'query_sm':
        return this.onQuery(conn, pdu);
      default:
        conn.session.send(
          new smpp.PDU('generic_nack', {
            sequence_number: pdu.sequence_number,
            command_status: smpp.ESME_RINVCMDID,
          }),
        );
    }
  }

  private onBind(conn: Conn, pdu: smpp.PDU, mode: BindMode): void {
    const systemId = pdu.system_id ?? '';
    const systemType = pdu.system_type ?? '';
    let status = smpp.ESME_ROK;
    if (conn.mode) status = smpp.ESME_RALYBND;
    else if (this.opts.bindModes && !this.opts.bindModes.includes(mode)) status = smpp.ESME_RINVCMDID;
    else {
      const cred = this.opts.credentials.find((c) => c.systemId === systemId);
      if (!cred) status = smpp.ESME_RBINDFAIL;
      else if (cred.password !== pdu.password) status = smpp.ESME_RINVPASWD;
    }
    conn.session.send(pdu.response({ command_status: status, system_id: this.opts.smscSystemId }));
    if (status === smpp.ESME_ROK) {
      conn.systemId = systemId;
      conn.systemType = systemType;
      conn.mode = mode;
      this.n.binds++;
      if (this.opts.oneSessionPerSystemType) this.replaceOlder(conn, mode);
      const dropMs = this.opts.dropAfterBindMs;
      if (dropMs !== undefined && dropMs > 0) this.scheduler.after(dropMs, () => this.kill(conn));
    } else {
      this.n.bindFailures++;
    }
    this.emit('bind', { systemId, mode, status });
    if (status === smpp.ESME_ROK && canReceive(mode)) this.receipts.flushPending();
  }

  /** oneSessionPerSystemType: close the sessions of the same system_id + system_type that `conn` replaces. */
  private replaceOlder(conn: Conn, mode: BindMode): void {
    for (const c of this.conns) {
      if (c === conn || !c.mode || c.closed || c.doomed) continue;
      if (c.systemId !== conn.systemId || c.systemType !== conn.systemType || !replaces(c.mode, mode))
        continue;
      this.n.sessionsReplaced++;
      c.doomed = true;
      c.session.destroy();
    }
  }

  private onQuery(conn: Conn, pdu: smpp.PDU): void {
    const msg = pdu.message_id === undefined ? undefined : this.store.get(pdu.message_id);
    if (!conn.mode || !msg) {
      conn.session.send(
        pdu.response({ command_status: conn.mode ? smpp.ESME_RQUERYFAIL : smpp.ESME_RINVBNDSTS }),
      );
      return;
    }
    conn.session.send(
      pdu.response({
        message_id: msg.id,
        final_date: msg.doneAt ?? '',
        message_state: MESSAGE_STATE[msg.doneAt ? msg.finalStat : 'ENROUTE'],
        error_code: msg.doneAt ? Number.parseInt(msg.errorCode, 10) & 0xff : 0,
      }),
    );
  }

  private onSubmit(conn: Conn, pdu: smpp.PDU): void {
    this.n.submitReceived++;
    if (!canSubmit(conn.mode)) {
      this.n.rejected++;
      conn.session.send(pdu.response({ command_status: smpp.ESME_RINVBNDSTS }));
      return;
    }
    conn.submits++;
    const drop = this.opts.dropConnection;
    const dropAfter = drop !== undefined && drop.afterSubmits > 0 && conn.submits >= drop.afterSubmits;
    if (dropAfter) conn.doomed = true;
    const slowMs = pickDelay(this.opts.slowResponseMs, this.rand);
    const fault = submitFault(this.opts, this.rand, conn.bucket);
    if (fault) {
      if (fault === 'queueFull') this.n.queueFull++;
      else this.n.throttled++;
      if (fault === 'tps') this.n.tpsLimited++;
      const status = fault === 'queueFull' ? smpp.ESME_RMSGQFUL : smpp.ESME_RTHROTTLED;
      this.later(slowMs, () => this.respond(conn, pdu, { command_status: status }, dropAfter));
      return;
    }
    const msg = this.accept(conn, pdu);
    const receipt = wantsReceipt(msg);
    conn.unanswered.add(msg);
    const answer = (): void => {
      if (this.forgotten.has(msg)) return;
      conn.unanswered.delete(msg);
      if (receipt && this.opts.receiptBeforeResp) {
        msg.doneAt = new Date();
        this.receipts.sendCopies({ msg, stat: msg.finalStat, origin: conn });
        this.respond(conn, pdu, { message_id: msg.id }, dropAfter);
        return;
      }
      this.respond(conn, pdu, { message_id: msg.id }, dropAfter);
      if (receipt) this.scheduleReceipt(msg, conn);
    };
    const hold = this.opts.restartWithUnanswered;
    if (typeof hold === 'number' && hold > 0 && this.restartArmed) {
      this.held.push(answer);
      if (this.held.length >= hold) {
        this.restartArmed = false;
        void this.restart();
      }
      return;
    }
    this.later(slowMs, answer);
  }

  /** The receipt(s) of an accepted message, after the receipt delay (ACCEPTD first with acceptdReceipts). */
  private scheduleReceipt(msg: StoredMessage, origin: Conn): void {
    const acceptd = this.opts.acceptdReceipts;
    this.afterReceiptDelay(() => {
      if (!acceptd) return this.receipts.due({ msg, stat: msg.finalStat, origin });
      this.receipts.due({ msg, stat: 'ACCEPTD', origin });
      if (acceptd === 'interim') {
        this.afterReceiptDelay(() => this.receipts.due({ msg, stat: msg.finalStat, origin }));
      }
    });
  }

  private afterReceiptDelay(fn: () => void): void {
    const epoch = this.epoch;
    this.scheduledReceipts++;
    this.scheduler.after(pickDelay(this.opts.receiptDelayMs, this.rand), () => {
      if (epoch !== this.epoch) return;
      this.scheduledReceipts--;
      fn();
    });
  }

  private accept(conn: Conn, pdu: smpp.PDU): StoredMessage {
    this.switchIdFormatWhenDue();
    const msg = buildMessage(pdu, conn.systemId ?? '', this.ids, this.opts, this.rand);
    if (this.opts.switchIdFormat || this.idFormatSwitched) {
      msg.receiptIdNotation = this.opts.receiptIdNotation;
      msg.receiptTlvIdNotation = this.opts.receiptTlvIdNotation;
    }
    this.store.put(msg, this.opts.maxStoredMessages);
    this.n.submitted++;
    this.emit('submit', msg);
    return msg;
  }

  /** switchIdFormat: the next message is the first in the new format (its counter starts again). */
  private switchIdFormatWhenDue(): void {
    const sw = this.opts.switchIdFormat;
    if (!sw || this.submitsBeforeSwitch++ < sw.afterSubmits) return;
    const { idFormat: _format, messageIdStart, ...ids } = expandIdFormat({ idFormat: sw.idFormat });
    this.opts = resolveOptions({ ...this.opts, ...ids, switchIdFormat: undefined });
    this.ids = new MessageIdGenerator(messageIdStart, this.opts.seed);
    this.idFormatSwitched = true;
  }

  /** Run now when ms <= 0 (keeps floods cheap), else on the scheduler. */
  private later(ms: number, fn: () => void): void {
    if (ms <= 0) fn();
    else this.scheduler.after(ms, fn);
  }

  private respond(conn: Conn, pdu: smpp.PDU, fields: smpp.PduOptions, dropAfter: boolean): void {
    if (conn.closed) return;
    if (this.opts.halfOpen) return;
    const resp = pdu.response(fields);
    this.cork(conn);
    if (!dropAfter) {
      conn.session.send(resp);
      return;
    }
    if (!conn.session.send(resp, () => this.kill(conn))) this.kill(conn);
  }

  // ---- receipts ----

  /** DispatchHost.deliver: write one receipt to a receiver of the message's system_id. */
  private deliver(r: Receipt<Conn>): boolean {
    const conn = this.route(r.msg.systemId, r.origin);
    if (!conn) return false;
    this.cork(conn);
    const ok = conn.session.deliver_sm(receiptPdu(r.msg, r.stat, this.opts), (resp) => {
      if (resp.command_status === smpp.ESME_ROK) this.n.receiptsAcked++;
      else this.n.receiptsNacked++;
    });
    if (!ok) return false;
    this.n.receiptsSent++;
    r.msg.receiptsSent++;
    this.emit('receipt', r.msg, r.stat);
    return true;
  }

  // ---- MO / shutdown / misc ----

  private request(conn: Conn, fields: smpp.PduOptions): Promise<number> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err: Error): void => {
        if (settled) return;
        settled = true;
        this.moWaiters.delete(fail);
        reject(err);
      };
      this.moWaiters.add(fail);
      const ok = conn.session.deliver_sm(fields, (resp) => {
        if (settled) return;
        settled = true;
        this.moWaiters.delete(fail);
        resolve(resp.command_status);
      });
      if (!ok) return fail(new Error('receiver connection is not writable'));
      this.n.moPartsSent++;
      this.scheduler.after(this.opts.moTimeoutMs, () => fail(new Error('deliver_sm_resp timeout')));
    });
  }

  private async shutdown(): Promise<void> {
    this.scheduler.stop();
    for (const fail of [...this.moWaiters]) fail(new Error('SMSC simulator closed'));
    this.receipts.clear();
    const serverClosed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    await Promise.all([...this.conns].map((c) => this.unbindAndClose(c)));
    await serverClosed;
  }

  private unbindAndClose(c: Conn): Promise<void> {
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

  private emit<K extends keyof SmscEvents>(event: K, ...args: Parameters<SmscEvents[K]>): void {
    try {
      this.emitter.emit(event, ...args);
    } catch (err) {
      this.report(err);
    }
  }

  private report(err: unknown): void {
    const onError = this.opts.onError;
    if (onError) onError(err);
    else console.error('[smsc-simulator]', err);
  }
}

/** Start an SMSC simulator; resolves once it is listening. */
export async function startSmsc(options: SmscOptions = {}): Promise<SmscHandle> {
  const smsc = new Smsc(options);
  await smsc.listen(options.port ?? 2775);
  return smsc;
}
