import smpp from 'smpp';
import type { Counters } from './counters.js';
import type { BindEvent, BindMode, ResolvedOptions, StoredMessage } from './options.js';
import { MESSAGE_STATE } from './receipt.js';
import { canReceive, cork, replacedBy, type Conn } from './sessions.js';

/** What the session protocol needs of the simulator. */
export interface ProtocolHost {
  options(): ResolvedOptions;
  readonly n: Counters;
  readonly conns: Iterable<Conn>;
  message(id: string): StoredMessage | undefined;
  /** A submit_sm (the simulator's submit path: faults, store, response, receipt). */
  submit(conn: Conn, pdu: smpp.PDU): void;
  /** A bind was answered; `receiver` when a session that takes receipts and MO bound. */
  bindAnswered(event: BindEvent, receiver: boolean): void;
  kill(conn: Conn): void;
  after(ms: number, fn: () => void): void;
}

/**
 * The SMSC side of one session's requests: binds (credentials, bind modes, one session per
 * system_type, dropAfterBindMs), enquire_link, unbind, query_sm, and generic_nack for the rest;
 * submit_sm goes to the host. Half-open and doomed sessions read and ignore everything.
 */
export class SessionProtocol {
  constructor(private readonly host: ProtocolHost) {}

  onPdu(conn: Conn, pdu: smpp.PDU): void {
    if (pdu.isResponse()) return; // answered through send() callbacks
    const n = this.host.n;
    if (this.host.options().halfOpen || conn.doomed) {
      n.ignoredPdus++;
      return;
    }
    cork(conn);
    switch (pdu.command) {
      case 'bind_transmitter':
        return this.onBind(conn, pdu, 'transmitter');
      case 'bind_receiver':
        return this.onBind(conn, pdu, 'receiver');
      case 'bind_transceiver':
        return this.onBind(conn, pdu, 'transceiver');
      case 'enquire_link':
        n.enquireLinks++;
        conn.session.send(pdu.response());
        return;
      case 'unbind':
        n.unbinds++;
        conn.mode = undefined;
        conn.session.send(pdu.response(), () => conn.session.close());
        return;
      case 'submit_sm':
        return this.host.submit(conn, pdu);
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
    const opts = this.host.options();
    const systemId = pdu.system_id ?? '';
    const systemType = pdu.system_type ?? '';
    let status = smpp.ESME_ROK;
    if (conn.mode) status = smpp.ESME_RALYBND;
    else if (opts.bindModes && !opts.bindModes.includes(mode)) status = smpp.ESME_RINVCMDID;
    else {
      const cred = opts.credentials.find((c) => c.systemId === systemId);
      if (!cred) status = smpp.ESME_RBINDFAIL;
      else if (cred.password !== pdu.password) status = smpp.ESME_RINVPASWD;
    }
    conn.session.send(pdu.response({ command_status: status, system_id: opts.smscSystemId }));
    if (status === smpp.ESME_ROK) {
      conn.systemId = systemId;
      conn.systemType = systemType;
      conn.mode = mode;
      this.host.n.binds++;
      if (opts.oneSessionPerSystemType) this.replaceOlder(conn, mode);
      const dropMs = opts.dropAfterBindMs;
      if (dropMs !== undefined && dropMs > 0) this.host.after(dropMs, () => this.host.kill(conn));
    } else {
      this.host.n.bindFailures++;
    }
    this.host.bindAnswered({ systemId, mode, status }, status === smpp.ESME_ROK && canReceive(mode));
  }

  /** oneSessionPerSystemType: close the sessions of the same system_id + system_type that `conn` replaces. */
  private replaceOlder(conn: Conn, mode: BindMode): void {
    for (const c of replacedBy(this.host.conns, conn, mode)) {
      this.host.n.sessionsReplaced++;
      c.doomed = true;
      c.session.destroy();
    }
  }

  private onQuery(conn: Conn, pdu: smpp.PDU): void {
    const msg = pdu.message_id === undefined ? undefined : this.host.message(pdu.message_id);
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
}
