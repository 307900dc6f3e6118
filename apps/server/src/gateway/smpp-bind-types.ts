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
