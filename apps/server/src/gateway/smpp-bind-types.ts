import type smpp from 'smpp';
import type { Reply } from './mo-assembler';
import type { SmppBind } from './smpp-bind';

/** What became of one submit_sm. Only 'resp' and 'not-written' say anything for sure. */
export type SendResult =
  | { kind: 'resp'; status: number; messageId: string; pauseMs: number }
  /** Never handed to the socket: safe to send again. */
  | { kind: 'not-written'; reason: string }
  /** Written, unanswered within responseTimeoutMs. */
  | { kind: 'timeout' }
  /** Written, then the connection closed before the answer. */
  | { kind: 'closed'; reason: string }
  /** The PDU could not be encoded (a bug or a bad field): nothing was written. */
  | { kind: 'invalid'; reason: string };

export type BindState = 'down' | 'connecting' | 'binding' | 'bound' | 'unbinding' | 'stopped';

/** The SMPP bind type of a session. */
export type SessionRole = 'transceiver' | 'transmitter' | 'receiver';

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
