import type { SmppConnectionConfig } from './smpp-config';

/**
 * The boundary between Wren's message pipeline and whatever carries SMS (SMPP binds to an SMSC, or an
 * HTTP provider). The gateway knows nothing of accounts, campaigns or prices.
 */

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface OutboundSms {
  /** Wren's message id, for logs and correlation only. */
  id: string;
  /** Sender ID: alphanumeric (≤ 11) or a number. */
  from: string;
  /** Destination in E.164 with a leading '+'. */
  to: string;
  encoding: SmsEncoding;
  /** The text split into segments; one element means no concatenation (no UDH). */
  parts: string[];
  /** Optional SMPP validity period from now, in minutes. */
  validityMinutes?: number;
  /** The message's lane (0 OTP, 1 single, 2 bulk): a free window slot goes to the lowest first. Default 1. */
  priority?: number;
  /** The account it is sent for: routes may be limited to one (gateway/routing). */
  accountId?: string;
  /**
   * The connections to try, in order (a route's decision, gateway/routing): the first with a bind
   * up takes it; a retryable refusal there is tried once on the next. Absent: the connections' own
   * prefixes choose one.
   */
  via?: readonly string[];
}

/** The routing decision a submit went by, for the message's history (gateway/routing). */
export interface RouteNote {
  /** One line: route, strategy, connection, why, cost. */
  reason: string;
  /** The chosen connection's cost per segment, in millionths of the currency unit. */
  costMicros: number;
  routeName: string;
  strategy: string;
}

export type SubmitOutcome =
  /** Every part was accepted; smscIds[i] is the SMSC's id for part i, as the SMSC wrote it. */
  | { kind: 'accepted'; connection: string; smscIds: string[] }
  /**
   * Not accepted and safe to send again later (throttled, queue full, no bind, PDU never written).
   * `waiting`: nothing reached the SMSC because no connection could take it (none bound, paused by
   * an operator, no free window slot): the message waits for one within its validity, and the try
   * does not count against the attempts its SMSC refusals may use.
   */
  | { kind: 'retry'; reason: string; retryAfterMs: number; waiting?: true }
  /** Refused for good by the SMSC (e.g. invalid destination). Nothing was accepted. */
  | { kind: 'rejected'; commandStatus: number; reason: string }
  /**
   * The outcome is unknown or partial: a PDU was written but no response came (timeout, dropped
   * connection), or a later part failed after earlier parts were accepted. Never resend it.
   * smscIds holds the ids of the parts that were accepted.
   */
  | { kind: 'unknown'; connection: string; reason: string; smscIds: string[] };

/** An outcome with the routing decision it went by, when a route chose its connection. */
export type RoutedOutcome = SubmitOutcome & { route?: RouteNote };

export interface DeliveryReceipt {
  connection: string;
  /** The id the receipt refers to (receipted_message_id TLV if present, else the text's id:). */
  smscId: string;
  /** Receipt stat: DELIVRD, UNDELIV, EXPIRED, REJECTD, DELETED, UNKNOWN, ACCEPTD, ENROUTE. */
  stat: string;
  err: string;
  doneAt: Date | null;
  /**
   * The text's `submit date:` (minute precision, the SMSC's clock): matching refuses a part sent far
   * from it (modules/dlr/receipt-dates.ts). Absent or null when the text has none.
   */
  submitDate?: Date | null;
  /** The raw short_message text and TLVs, kept for the SMS log. */
  raw: string;
}

export interface MobileOriginated {
  connection: string;
  from: string;
  to: string;
  text: string;
  receivedAt: Date;
  /** Concatenated parts it was reassembled from (absent: one part). */
  parts?: number;
}

/** One SMPP session of a connection, for operators. */
export interface SessionStatus {
  /** Bind slot (0-based): one transceiver, or one transmitter + receiver pair. */
  bind: number;
  role: 'transceiver' | 'transmitter' | 'receiver';
  state: 'down' | 'connecting' | 'binding' | 'bound' | 'unbinding' | 'stopped';
  inFlight: number;
  /** Sessions closed by the SMSC within flapSeconds of binding, in all. */
  flaps: number;
  /** Flaps since this session last stayed bound flapSeconds (the reconnect backoff grows with them). */
  recentFlaps: number;
  /** Why the session last went down or failed to bind (null: never). */
  lastError: string | null;
  lastBoundAt: Date | null;
  lastClosedAt: Date | null;
}

export interface ConnectionStatus {
  name: string;
  bindMode: 'trx' | 'tx+rx';
  /** Configured binds (transceivers, or tx + rx pairs). */
  binds: number;
  /** Sessions that can submit (transceivers or transmitters) and are bound. */
  bound: number;
  inFlight: number;
  /** Flaps of all sessions, in all. */
  flaps: number;
  /** Recent flaps reached flapWarnAfter: the SMSC keeps closing fresh sessions (see the log's warning). */
  flapping: boolean;
  /** Flaps that were replacements: the SMSC closed a session just after another of this connection bound. */
  replacedSessions: number;
  /**
   * Binds in use since replacements made the connection keep fewer than configured (null: all of
   * them); it stays so until a restart with a changed binds setting.
   */
  keptBinds: number | null;
  /** Why binds were kept to keptBinds, naming the setting to change (null: they were not). */
  bindsNotice: string | null;
  /** The most recent session error of the connection. */
  lastError: string | null;
  /** Submits refused with ESME_RTHROTTLED / ESME_RMSGQFUL over the last minute. */
  throttlesPerMinute: number;
  /** Other refusals, and submits with no answer (timeout, connection lost), over the last minute. */
  submitErrorsPerMinute: number;
  sessions: SessionStatus[];
}

export interface SmsGateway {
  /** Binds every connection, except those named in `paused` (an operator paused them: bound on resume). */
  start(opts?: { paused?: ReadonlySet<string> }): Promise<void>;
  /** Unbinds and closes; in-flight submits resolve (as 'unknown' if unanswered). */
  stop(): Promise<void>;
  submit(sms: OutboundSms): Promise<RoutedOutcome>;
  /**
   * Receipts are acknowledged (deliver_sm_resp) only after the handler's promise resolves, so a
   * receipt is never lost by a crash between receipt and storage. A rejected promise answers
   * with a temporary error so the SMSC retries.
   */
  onReceipt(handler: (receipt: DeliveryReceipt) => Promise<void>): void;
  onMo(handler: (mo: MobileOriginated) => Promise<void>): void;
  status(): ConnectionStatus[];
  /** Sessions of a connection that can submit now (cheap: routing asks for every message); 0 when unknown. */
  boundOf?(connection: string): number;
  /** Every bound session of the connection is in a throttle pause (the SMSC keeps throttling). */
  throttledOf?(connection: string): boolean;
  /**
   * An operator's pause of one connection (admin console): refuse its new submits, let those in
   * flight be answered, then unbind its sessions and stay unbound until resumeConnection.
   * False when no connection has that name.
   */
  pauseConnection?(name: string): Promise<boolean>;
  /** Binds a paused connection again. */
  resumeConnection?(name: string): Promise<boolean>;
  /**
   * Applies a new set of connections while running (an operator's change, issue 38): new ones are
   * bound (unless in `paused`), changed ones closed gracefully and bound again with their new
   * settings, removed ones closed once their submits in flight are answered. Throws, changing
   * nothing, when the prefixes clash.
   */
  reconfigure?(
    connections: SmppConnectionConfig[],
    paused?: ReadonlySet<string>,
  ): Promise<{ added: string[]; changed: string[]; removed: string[] }>;
}
