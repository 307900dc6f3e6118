import smpp from 'smpp';
import type { Logger } from '../platform/logger';
import type { Reply } from './mo-assembler';
import { PendingRequests, type RequestHandlers } from './pending-requests';
import type { ResolvedConnectionConfig } from './smpp-config';

const ESME_RINVCMDID = 0x03;

/** What a bind does with the requests of the SMSC that are not answered here. */
export interface InboundRequests {
  unbind(): void;
  /** A deliver_sm; `reply` sends its deliver_sm_resp (once). */
  deliver(reply: Reply): void;
}

/**
 * The PDU traffic of one bind's sessions: writes of a tick batched into one syscall, requests tracked
 * until answered, timed out (`pending.sweep`, every `sweepMs`) or closed, and the SMSC's requests
 * answered (enquire_link, unknown commands) or handed to the bind (unbind, deliver_sm).
 */
export class SessionIo {
  readonly pending: PendingRequests;
  /** How often to sweep for timed-out requests. */
  readonly sweepMs: number;
  private corked = false;

  constructor(
    cfg: ResolvedConnectionConfig,
    private readonly log: Logger,
  ) {
    this.pending = new PendingRequests(cfg.responseTimeoutMs, cfg.now);
    this.sweepMs = Math.min(500, Math.max(10, Math.floor(cfg.responseTimeoutMs / 5)));
  }

  /** Write a request and track its response; false when nothing was written. */
  request(session: smpp.Session, pdu: smpp.PDU, handlers: RequestHandlers): boolean {
    if (!this.write(session, pdu)) return false;
    this.pending.add(pdu.sequence_number, handlers);
    return true;
  }

  /** Write with the writes of this tick batched into one syscall. */
  write(session: smpp.Session, pdu: smpp.PDU, sent?: () => void): boolean {
    const socket = session.socket;
    if (!socket.writable) return false;
    if (!this.corked) {
      this.corked = true;
      socket.cork();
      process.nextTick(() => {
        this.corked = false;
        socket.uncork();
      });
    }
    return session.send(pdu, sent);
  }

  /** A PDU from the SMSC on `session` (the bind's current one). */
  inbound(session: smpp.Session, pdu: smpp.PDU, on: InboundRequests): void {
    if (pdu.isResponse()) {
      if (!this.pending.answer(pdu)) {
        this.log.debug({ command: pdu.command, seq: pdu.sequence_number }, 'late or unknown response');
      }
      return;
    }
    switch (pdu.command) {
      case 'enquire_link':
        this.write(session, pdu.response());
        return;
      case 'unbind':
        return on.unbind();
      case 'deliver_sm': {
        let answered = false;
        return on.deliver((status) => {
          if (answered) return;
          answered = true;
          this.write(session, pdu.response({ command_status: status }));
        });
      }
      case 'alert_notification':
      case 'outbind':
        return;
      default:
        this.write(session, pdu.response({ command_status: ESME_RINVCMDID }));
    }
  }
}
