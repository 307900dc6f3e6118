// Pulls the local `smpp` typings into any program that imports this package (the library ships none).
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./smpp.d.ts" />
import type { AddressInfo } from 'node:net';
import smpp from 'smpp';
import { newCounters } from './counters.js';
import { splitMo } from './encoding.js';
import { createRandom, pickDelay, submitFault, type Random } from './faults.js';
import { MessageIdGenerator } from './message-id.js';
import { buildMessage, MessageStore } from './message-store.js';
import { MoRequests } from './mo-requests.js';
import {
  expandIdFormat,
  resolveOptions,
  type MoInput,
  type MoResult,
  type ResolvedOptions,
  type RuntimeOptions,
  type SmscHandle,
  type SmscOptions,
  type SmscStats,
  type StoredMessage,
} from './options.js';
import { ReceiptDispatcher, type Receipt } from './receipt-dispatcher.js';
import { receiptPdu, wantsReceipt } from './receipt-pdu.js';
import { Scheduler } from './scheduler.js';
import { SessionProtocol } from './session-protocol.js';
import { canSubmit, cork, newConn, routeReceiver, unbindAndClose, type Conn } from './sessions.js';
import { SmscEventSource } from './smsc-events.js';

class Smsc extends SmscEventSource implements SmscHandle {
  readonly host: string;
  private readonly server: smpp.Server;
  private readonly protocol: SessionProtocol;
  private readonly scheduler: Scheduler;
  private ids: MessageIdGenerator;
  /** switchIdFormat: accepted submits counted towards the switch, and whether it happened. */
  private submitsBeforeSwitch = 0;
  private idFormatSwitched = false;
  private readonly conns = new Set<Conn>();
  private readonly store = new MessageStore();
  private readonly receipts: ReceiptDispatcher<Conn>;
  private readonly mo: MoRequests;
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
  private readonly n = newCounters();

  constructor(options: SmscOptions) {
    super();
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
    this.mo = new MoRequests(this.scheduler, () => this.n.moPartsSent++);
    this.protocol = new SessionProtocol({
      options: () => this.opts,
      n: this.n,
      conns: this.conns,
      message: (id) => this.store.get(id),
      submit: (conn, pdu) => this.onSubmit(conn, pdu),
      bindAnswered: (event, receiver) => {
        this.emit('bind', event);
        if (receiver) this.receipts.flushPending();
      },
      kill: (conn) => this.kill(conn),
      after: (ms, fn) => this.scheduler.after(ms, fn),
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
        this.mo.request(
          conn,
          {
            source_addr: mo.from,
            destination_addr: mo.to,
            esm_class: 0,
            data_coding: p.dataCoding,
            short_message: p.udh ? { udh: p.udh, message: p.message } : p.message,
          },
          this.opts.moTimeoutMs,
        ),
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
    const conn = newConn(session);
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
        this.protocol.onPdu(conn, pdu);
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

  /** A receiver/transceiver for systemId (any system when undefined), preferring `origin`. */
  private route(systemId: string | undefined, origin?: Conn): Conn | undefined {
    return routeReceiver(this.conns, systemId, origin, this.rr++);
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
    cork(conn);
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
    cork(conn);
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

  private async shutdown(): Promise<void> {
    this.scheduler.stop();
    this.mo.failAll(new Error('SMSC simulator closed'));
    this.receipts.clear();
    const serverClosed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    await Promise.all([...this.conns].map((c) => unbindAndClose(c)));
    await serverClosed;
  }

  protected report(err: unknown): void {
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
