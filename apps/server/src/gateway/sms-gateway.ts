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
}

export type SubmitOutcome =
  /** Every part was accepted; smscIds[i] is the SMSC's id for part i, as the SMSC wrote it. */
  | { kind: 'accepted'; connection: string; smscIds: string[] }
  /** Not accepted and safe to send again later (throttled, queue full, no bind, PDU never written). */
  | { kind: 'retry'; reason: string; retryAfterMs: number }
  /** Refused for good by the SMSC (e.g. invalid destination). Nothing was accepted. */
  | { kind: 'rejected'; commandStatus: number; reason: string }
  /**
   * The outcome is unknown or partial: a PDU was written but no response came (timeout, dropped
   * connection), or a later part failed after earlier parts were accepted. Never resend it.
   * smscIds holds the ids of the parts that were accepted.
   */
  | { kind: 'unknown'; connection: string; reason: string; smscIds: string[] };

export interface DeliveryReceipt {
  connection: string;
  /** The id the receipt refers to (receipted_message_id TLV if present, else the text's id:). */
  smscId: string;
  /** Receipt stat: DELIVRD, UNDELIV, EXPIRED, REJECTD, DELETED, UNKNOWN, ACCEPTD, ENROUTE. */
  stat: string;
  err: string;
  doneAt: Date | null;
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

export interface ConnectionStatus {
  name: string;
  binds: number;
  bound: number;
  inFlight: number;
}

export interface SmsGateway {
  start(): Promise<void>;
  /** Unbinds and closes; in-flight submits resolve (as 'unknown' if unanswered). */
  stop(): Promise<void>;
  submit(sms: OutboundSms): Promise<SubmitOutcome>;
  /**
   * Receipts are acknowledged (deliver_sm_resp) only after the handler's promise resolves, so a
   * receipt is never lost by a crash between receipt and storage. A rejected promise answers
   * with a temporary error so the SMSC retries.
   */
  onReceipt(handler: (receipt: DeliveryReceipt) => Promise<void>): void;
  onMo(handler: (mo: MobileOriginated) => Promise<void>): void;
  status(): ConnectionStatus[];
}
