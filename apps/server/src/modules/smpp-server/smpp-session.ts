import type { Socket } from 'node:net';
import type smpp from 'smpp';
import type { SmppBindMode } from '@wren/contracts';
import type { Logger } from '../../platform/logger';
import {
  isRefusal,
  type SmppAccountsService,
  type SmppPrincipal,
} from '../smpp-accounts/smpp-accounts.service';
import type { SmppSend } from './smpp-send';
import { parseSmppId, renderSmppId } from './smpp-text';
import { encode, FrameReader, genericNack, MalformedBody, readSubmit, STATUS } from './smpp-wire';

const BIND_MODES: Readonly<Record<string, SmppBindMode>> = {
  bind_transmitter: 'tx',
  bind_receiver: 'rx',
  bind_transceiver: 'trx',
};

/** SMPP message_state values (SMPP 3.4 §5.2.28) of Wren's statuses. */
export const MESSAGE_STATE_OF: Readonly<Record<string, number>> = {
  scheduled: 1,
  queued: 1,
  sending: 1,
  sent: 1,
  delivered: 2,
  expired: 3,
  canceled: 4,
  undelivered: 5,
  failed: 5,
  unknown: 7,
  rejected: 8,
};

/** What a session needs of the server around it. */
export interface SessionHost {
  accounts: SmppAccountsService;
  send: SmppSend;
  logger: Logger;
  systemId: string;
  /** Binds open now for a login on all nodes. */
  liveBinds(smppAccountId: string): Promise<number>;
  /** The login's shared throughput bucket on this node: false when over the limit. */
  takeToken(p: SmppPrincipal): boolean;
  bound(s: SmppServerSession): Promise<void>;
  closed(s: SmppServerSession): void;
  /** A receiver or transceiver is bound and has its bind_resp: send it what waits. */
  receiverReady(s: SmppServerSession): void;
  /** A deliver_sm_resp arrived, or a deliver_sm went unanswered (status -1). */
  deliverAnswered(s: SmppServerSession, outboxId: number, status: number): void;
}

let nextSessionNo = 0;

/** The number of seconds a deliver_sm may go unanswered before it is sent again (elsewhere or later). */
export const DELIVER_TIMEOUT_MS = 10_000;

/** How long a connection may stay open without binding. */
export const BIND_TIMEOUT_MS = 60_000;

/**
 * One client connection: bind, unbind, enquire_link, submit_sm, query_sm, cancel_sm, and the
 * deliver_sm the outbox hands it. Frames are read by FrameReader: a malformed PDU gets a
 * generic_nack and the session goes on; an impossible length closes this session only.
 */
export class SmppServerSession {
  readonly no = ++nextSessionNo;
  readonly bindId: string;
  mode: SmppBindMode | null = null;
  principal: SmppPrincipal | null = null;
  boundAt: Date | null = null;
  private readonly reader = new FrameReader();
  private closedFlag = false;
  private binding = false;
  /** submit_sm being processed (the window in). */
  submitsInFlight = 0;
  /** deliver_sm sent and not answered: sequence -> outbox id and its timer. */
  readonly delivering = new Map<number, { outboxId: number; timer: NodeJS.Timeout }>();
  private seq = 0;
  /** Accepted submits per second over the last 10 seconds (ring of per-second counts). */
  private readonly submitRing = new Array<number>(10).fill(0);
  private ringSecond = Math.floor(Date.now() / 1000);

  constructor(
    readonly socket: Socket,
    readonly tls: boolean,
    private readonly host: SessionHost,
    bindId: string,
  ) {
    this.bindId = bindId;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.onClose());
    // A connection that does not bind in time is closed (it holds a socket and nothing else).
    const unbound = setTimeout(() => {
      if (!this.principal) this.close();
    }, BIND_TIMEOUT_MS);
    unbound.unref();
    socket.once('close', () => clearTimeout(unbound));
  }

  get remoteAddress(): string {
    const a = this.socket.remoteAddress ?? '';
    return a.startsWith('::ffff:') ? a.slice(7) : a;
  }

  get isReceiver() {
    return this.mode === 'rx' || this.mode === 'trx';
  }

  get isClosed() {
    return this.closedFlag;
  }

  get windowInUse() {
    return this.submitsInFlight + this.delivering.size;
  }

  /** Free room for deliver_sm in this session's window. */
  get deliverRoom() {
    return this.principal ? Math.max(0, this.principal.windowSize - this.delivering.size) : 0;
  }

  submitsPerSecond() {
    this.rollRing();
    return this.submitRing.reduce((a, b) => a + b, 0) / this.submitRing.length;
  }

  private rollRing() {
    const now = Math.floor(Date.now() / 1000);
    for (let s = this.ringSecond + 1; s <= now && s - this.ringSecond <= 10; s++) this.submitRing[s % 10] = 0;
    if (now - this.ringSecond > 10) this.submitRing.fill(0);
    this.ringSecond = now;
  }

  private write(buf: Buffer) {
    if (!this.closedFlag && this.socket.writable) this.socket.write(buf);
  }

  private respond(pdu: smpp.PDU, status: number, fields: smpp.PduOptions = {}) {
    this.write(encode(`${pdu.command}_resp`, pdu.sequence_number, { ...fields, command_status: status }));
  }

  close() {
    if (this.closedFlag) return;
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  /** Sends a deliver_sm for an outbox row; the answer comes back through host.deliverAnswered. */
  deliver(outboxId: number, fields: smpp.PduOptions) {
    if (this.seq >= 0x7ffffff0) this.seq = 0;
    const sequence = ++this.seq;
    const timer = setTimeout(() => {
      if (this.delivering.delete(sequence)) this.host.deliverAnswered(this, outboxId, -1);
    }, DELIVER_TIMEOUT_MS);
    timer.unref();
    this.delivering.set(sequence, { outboxId, timer });
    this.write(encode('deliver_sm', sequence, fields));
  }

  private onData(chunk: Buffer) {
    for (const frame of this.reader.push(chunk)) {
      if (frame.kind === 'fatal') {
        this.write(genericNack(frame.status, frame.sequence));
        this.close();
        return;
      }
      if (frame.kind === 'bad') {
        this.write(genericNack(frame.status, frame.sequence));
        continue;
      }
      try {
        this.onPdu(frame.pdu, frame.raw);
      } catch (err) {
        this.host.logger.warn({ err, command: frame.pdu.command }, 'SMPP PDU not handled');
        this.write(genericNack(STATUS.ESME_RSYSERR, frame.pdu.sequence_number));
      }
    }
  }

  private onPdu(pdu: smpp.PDU, raw: Buffer) {
    const command = pdu.command;
    if (command === 'enquire_link') return this.respond(pdu, STATUS.ESME_ROK);
    if (command in BIND_MODES) return void this.onBind(pdu, BIND_MODES[command]);
    if (command === 'unbind') {
      this.respond(pdu, STATUS.ESME_ROK);
      return this.close();
    }
    if (command === 'deliver_sm_resp') {
      const d = this.delivering.get(pdu.sequence_number);
      if (!d) return;
      clearTimeout(d.timer);
      this.delivering.delete(pdu.sequence_number);
      return this.host.deliverAnswered(this, d.outboxId, pdu.command_status);
    }
    if (pdu.isResponse()) return; // enquire_link_resp, unbind_resp, generic_nack: nothing to do
    if (command === 'submit_sm') return void this.onSubmit(pdu, raw);
    if (command === 'query_sm') return void this.onQuery(pdu);
    if (command === 'cancel_sm') return void this.onCancel(pdu);
    // Known to SMPP but not served here (data_sm, submit_multi, replace_sm, …).
    if (!this.principal) return this.respond(pdu, STATUS.ESME_RINVBNDSTS);
    this.write(genericNack(STATUS.ESME_RINVCMDID, pdu.sequence_number));
  }

  private async onBind(pdu: smpp.PDU, mode: SmppBindMode) {
    if (this.principal || this.binding) return this.respond(pdu, STATUS.ESME_RALYBND);
    this.binding = true;
    try {
      const result = await this.host.accounts.authenticate({
        systemId: String(pdu.system_id ?? ''),
        password: String(pdu.password ?? ''),
        ip: this.remoteAddress,
        mode,
        liveBinds: (id) => this.host.liveBinds(id),
      });
      if (this.closedFlag) return;
      if (isRefusal(result)) {
        this.respond(pdu, result.status);
        return;
      }
      this.principal = result;
      this.mode = mode;
      this.boundAt = new Date();
      await this.host.bound(this);
      this.respond(pdu, STATUS.ESME_ROK, { system_id: this.host.systemId });
      // Receipts waiting for this login go out once the client has its bind_resp.
      if (this.isReceiver) setImmediate(() => this.host.receiverReady(this));
    } catch (err) {
      this.host.logger.error({ err }, 'SMPP bind failed');
      this.respond(pdu, STATUS.ESME_RSYSERR);
    } finally {
      this.binding = false;
    }
  }

  private async onSubmit(pdu: smpp.PDU, raw: Buffer) {
    const p = this.principal;
    if (!p || this.mode === 'rx') return this.respond(pdu, STATUS.ESME_RINVBNDSTS);
    if (this.submitsInFlight >= p.windowSize) return this.respond(pdu, STATUS.ESME_RMSGQFUL);
    if (!this.host.takeToken(p)) return this.respond(pdu, STATUS.ESME_RTHROTTLED);
    let fields;
    try {
      fields = readSubmit(raw);
    } catch (err) {
      if (err instanceof MalformedBody)
        return this.write(genericNack(STATUS.ESME_RINVCMDLEN, pdu.sequence_number));
      throw err;
    }
    this.submitsInFlight++;
    try {
      const outcome = await this.host.send.submit(p, fields);
      if (outcome.ok) {
        this.rollRing();
        this.submitRing[this.ringSecond % 10]++;
        this.respond(pdu, STATUS.ESME_ROK, { message_id: renderSmppId(outcome.smppId, p.idNotation) });
      } else {
        this.respond(pdu, outcome.status);
      }
    } catch (err) {
      this.host.logger.error({ err }, 'SMPP submit_sm failed');
      this.respond(pdu, STATUS.ESME_RSYSERR);
    } finally {
      this.submitsInFlight--;
    }
  }

  private async onQuery(pdu: smpp.PDU) {
    const p = this.principal;
    if (!p || this.mode === 'rx') return this.respond(pdu, STATUS.ESME_RINVBNDSTS);
    const id = parseSmppId(String(pdu.message_id ?? ''), p.idNotation);
    const m = id === undefined ? undefined : await this.host.send.find(p, id).catch(() => undefined);
    if (!m || id === undefined) return this.respond(pdu, STATUS.ESME_RQUERYFAIL);
    const err = Number.parseInt(m.smsc_err ?? '0', 10);
    this.respond(pdu, STATUS.ESME_ROK, {
      message_id: renderSmppId(id, p.idNotation),
      final_date: m.done_at ?? '',
      message_state: MESSAGE_STATE_OF[m.status] ?? 7,
      error_code: Number.isFinite(err) ? Math.min(255, Math.max(0, err)) : 0,
    });
  }

  private async onCancel(pdu: smpp.PDU) {
    const p = this.principal;
    if (!p || this.mode === 'rx') return this.respond(pdu, STATUS.ESME_RINVBNDSTS);
    const id = parseSmppId(String(pdu.message_id ?? ''), p.idNotation);
    const m = id === undefined ? undefined : await this.host.send.find(p, id);
    if (!m) return this.respond(pdu, STATUS.ESME_RCANCELFAIL);
    const canceled = await this.host.send.cancel(p, m.id);
    this.respond(pdu, canceled ? STATUS.ESME_ROK : STATUS.ESME_RCANCELFAIL);
  }

  private onClose() {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const d of this.delivering.values()) clearTimeout(d.timer);
    this.host.closed(this);
  }
}
