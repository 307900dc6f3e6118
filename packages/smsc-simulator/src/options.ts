import type { ConcatInfo } from './encoding.js';
import { idFormatSettings, type IdFormat, type IdNotation, type MessageIdFormat } from './message-id.js';
import type { FinalStat, ReceiptStat } from './receipt.js';

/** A fixed delay or a uniformly random [min, max] range, in milliseconds. */
export type DelayMs = number | readonly [min: number, max: number];

export interface Credentials {
  systemId: string;
  password: string;
}

/** Relative weights per final state, e.g. { DELIVRD: 90, UNDELIV: 10 }. Missing = 0. */
export type StatMix = Partial<Record<FinalStat, number>>;

export interface ThrottleFault {
  /** Fraction (0..1) of submits answered ESME_RTHROTTLED (0x58). */
  rate?: number;
  /** Fraction (0..1) of submits answered ESME_RMSGQFUL (0x14). */
  queueFull?: number;
}

export interface OutOfOrderFault {
  /** Receipts are buffered and flushed shuffled once this many are waiting (default 10). */
  window?: number;
  /** ...or after this long (default 100 ms). */
  flushMs?: number;
  /** After each final receipt of a flush, also send a stale intermediate receipt (default off). */
  intermediateAfterFinal?: boolean | 'ENROUTE' | 'ACCEPTD';
}

/** Fault modes; all off by default and all switchable at runtime via setOptions(). */
export interface FaultOptions {
  throttle?: ThrottleFault | undefined;
  /** Per-bind submit_sm rate limit (token bucket, burst = maxTps); excess gets ESME_RTHROTTLED. */
  maxTps?: number | undefined;
  /** Delay every submit_sm_resp. */
  slowResponseMs?: DelayMs | undefined;
  /** Answer N submit_sm on a connection, then destroy the socket. */
  dropConnection?: { afterSubmits: number } | undefined;
  /** Read but never answer anything, hold receipts/MO, keep sockets open. */
  halfOpen?: boolean | undefined;
  /** true = every receipt twice; a number = that many copies. */
  duplicateReceipts?: boolean | number | undefined;
  /** Send the receipt before the submit_sm_resp of the same message. */
  receiptBeforeResp?: boolean | undefined;
  /** Shuffle receipts across messages (and optionally send stale intermediates after finals). */
  outOfOrderReceipts?: boolean | OutOfOrderFault | undefined;
  /**
   * One session per system_id + system_type, as Kannel's opensmppbox: a new bind closes the older
   * session(s) it replaces (a transmitter replaces transmitters and transceivers, a receiver replaces
   * receivers and transceivers, a transceiver replaces all three).
   */
  oneSessionPerSystemType?: boolean | undefined;
  /**
   * Destroy each session (no unbind, as a crash of that session) this many ms after it bound; the
   * other sessions stay (default off).
   */
  dropAfterBindMs?: number | undefined;
  /** Bind types accepted (default all three); any other bind is answered ESME_RINVCMDID. */
  bindModes?: readonly BindMode[] | undefined;
  /**
   * Receipts with stat:ACCEPTD and message_state 6: 'final' = ACCEPTD is the only receipt, 'interim' =
   * ACCEPTD, then the drawn final state after another receipt delay, 'contradictory' = ACCEPTD is the
   * only receipt and says `dlvrd:000 err:001` (how Kannel's opensmppbox reports an expired message: its
   * DLR_FAIL case falls through to ACCEPTD).
   */
  acceptdReceipts?: 'final' | 'interim' | 'contradictory' | undefined;
  /** restart() forgets every receipt not yet written (scheduled, held or buffered). */
  loseReceiptsOnRestart?: boolean | undefined;
  /**
   * true: submits a session has not answered when it closes (restart(), dropAll(), close()) were never
   * received: they are forgotten (no message, no receipt). A number N: also hold every submit_sm_resp
   * until N submits are waiting, then restart() by itself (once; setting the option again re-arms it).
   */
  restartWithUnanswered?: boolean | number | undefined;
}

/** Everything that setOptions() may change at runtime. */
export interface RuntimeOptions extends FaultOptions {
  credentials?: Credentials[];
  /** Delay before the receipt is sent, counted from the submit_sm_resp (default 50). */
  receiptDelayMs?: DelayMs;
  /** Weights of final states (default { DELIVRD: 100 }). */
  statMix?: StatMix;
  /** Deterministic override: return a stat for a destination to force it; undefined = use statMix. */
  statByDestination?: ((dest: string) => FinalStat | undefined) | undefined;
  /** err: code per final state (3 digits). */
  errorCodes?: Partial<Record<FinalStat, string>>;
  /** Format of ids in submit_sm_resp (default 'hex', or what `idFormat` sets). */
  messageIdFormat?: MessageIdFormat;
  /** Width for 'decimalPadded' (default 20). */
  messageIdPadLength?: number;
  /** Notation of the id: field of receipt texts (default 'same'). */
  receiptIdNotation?: IdNotation;
  /** Notation of the receipted_message_id TLV; 'none' omits it (default 'same'). */
  receiptTlvIdNotation?: IdNotation | 'none';
  /**
   * A notation change in the middle of one run (an SMSC reconfigured, or a replacement box behind the
   * same address): after `afterSubmits` more accepted submits, every later message gets its id and
   * receipts as `idFormat` sets them, and the id counter starts again at the preset's start (1 for
   * the sequential presets). Messages accepted before keep the notation they were given. Once.
   */
  switchIdFormat?: { afterSubmits: number; idFormat: IdFormat } | undefined;
  /** Oldest messages are forgotten beyond this (default 100000). */
  maxStoredMessages?: number;
  /** Seed for the PRNG used by mixes and fault rates (default Math.random). */
  seed?: number | undefined;
  /** How long sendMo waits for deliver_sm_resp (default 5000). */
  moTimeoutMs?: number;
  /** system_id returned in bind responses (default 'WrenSMSC'). */
  smscSystemId?: string;
  /** Errors from listeners/handlers (default console.error). */
  onError?: ((err: unknown) => void) | undefined;
}

export interface SmscOptions extends RuntimeOptions {
  /** Default 2775; 0 = random free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /**
   * First value of the sequential id counter (default Date.now() * 1000, unique across restarts; 1 with
   * the sequential `idFormat` presets).
   */
  messageIdStart?: number;
  /**
   * Id behaviour of a kind of SMSC: a preset ('seq-dec', 'seq-hex', 'random-hex', 'uuid', 'zero-padded',
   * 'hex-resp-dec-receipt') or a plain MessageIdFormat. It sets messageIdFormat, messageIdPadLength,
   * receiptIdNotation, receiptTlvIdNotation and messageIdStart; any of those given explicitly wins.
   */
  idFormat?: IdFormat;
}

export type BindMode = 'transmitter' | 'receiver' | 'transceiver';

export interface StoredMessage {
  /** Id as returned in submit_sm_resp. */
  id: string;
  /** Underlying number (the same number in every notation); undefined for uuid ids. */
  n: bigint | undefined;
  idFormat: MessageIdFormat;
  systemId: string;
  source: string;
  dest: string;
  /** Decoded text of this part (without UDH). */
  text: string;
  /** short_message (or message_payload) bytes incl. UDH, re-encoded from the decoded PDU. */
  shortMessage: Buffer;
  udh?: Buffer;
  concat?: ConcatInfo;
  dataCoding: number;
  esmClass: number;
  registeredDelivery: number;
  /** Receipt notations this message was given (set once switchIdFormat is in use; else the options'). */
  receiptIdNotation?: IdNotation;
  receiptTlvIdNotation?: IdNotation | 'none';
  submittedAt: Date;
  finalStat: FinalStat;
  errorCode: string;
  doneAt?: Date;
  /** Receipt PDUs sent so far for this message (duplicates and intermediates included). */
  receiptsSent: number;
}

export interface SmscStats {
  connections: number;
  activeSessions: number;
  boundSessions: number;
  binds: number;
  bindFailures: number;
  unbinds: number;
  enquireLinks: number;
  submitReceived: number;
  submitted: number;
  rejected: number;
  throttled: number;
  tpsLimited: number;
  queueFull: number;
  receiptsSent: number;
  receiptsAcked: number;
  receiptsNacked: number;
  receiptsPending: number;
  moSent: number;
  moPartsSent: number;
  connectionsDropped: number;
  ignoredPdus: number;
  /** Sessions closed because a newer bind replaced them (oneSessionPerSystemType). */
  sessionsReplaced: number;
  restarts: number;
  /** Receipts dropped by restart() (loseReceiptsOnRestart). */
  receiptsLost: number;
  /** Submits forgotten because their session closed before they were answered (restartWithUnanswered). */
  unansweredForgotten: number;
  storedMessages: number;
}

export interface MoInput {
  from: string;
  to: string;
  text: string;
  /** Route to a receiver bound with this system_id (default: any receiver/transceiver). */
  systemId?: string;
}

export interface MoResult {
  parts: number;
  /** command_status of each deliver_sm_resp. */
  statuses: number[];
}

export interface BindEvent {
  systemId: string;
  mode: BindMode;
  status: number;
}

export interface SmscEvents {
  submit: (message: StoredMessage) => void;
  bind: (event: BindEvent) => void;
  receipt: (message: StoredMessage, stat: ReceiptStat) => void;
  mo: (mo: MoInput, result: MoResult) => void;
}

export interface SmscHandle {
  /** Actual listening port (useful with port 0). */
  readonly port: number;
  readonly host: string;
  /** Accepted submit_sm by submit_sm_resp message id (oldest evicted beyond maxStoredMessages). */
  readonly messages: ReadonlyMap<string, StoredMessage>;
  /** Current runtime options (defaults applied). */
  options(): Readonly<RuntimeOptions>;
  /** Merge options at runtime; a key set to undefined turns that fault off / restores its default. */
  setOptions(partial: Partial<RuntimeOptions>): void;
  /** Send a mobile-originated deliver_sm (esm_class 0; split with UDH when long). */
  sendMo(mo: MoInput): Promise<MoResult>;
  stats(): SmscStats;
  /** Destroy every connection now (no unbind). */
  dropAll(): void;
  /**
   * Restart: destroy every session (no unbind, like a crash) and refuse connections for `downMs`
   * (default 0). Receipts not yet written survive unless `loseReceiptsOnRestart`; they are sent once
   * a receiver binds again. Unanswered submits are forgotten with `restartWithUnanswered`.
   */
  restart(opts?: { downMs?: number }): Promise<void>;
  /** Unbind and close all sessions, stop the server and clear every timer. */
  close(): Promise<void>;
  on<K extends keyof SmscEvents>(event: K, listener: SmscEvents[K]): this;
  once<K extends keyof SmscEvents>(event: K, listener: SmscEvents[K]): this;
  off<K extends keyof SmscEvents>(event: K, listener: SmscEvents[K]): this;
}

export type ResolvedOptions = RuntimeOptions &
  Required<
    Pick<
      RuntimeOptions,
      | 'credentials'
      | 'receiptDelayMs'
      | 'statMix'
      | 'errorCodes'
      | 'messageIdFormat'
      | 'messageIdPadLength'
      | 'receiptIdNotation'
      | 'receiptTlvIdNotation'
      | 'maxStoredMessages'
      | 'moTimeoutMs'
      | 'smscSystemId'
    >
  >;

/** Apply `idFormat`: its settings fill every id option that was not given explicitly. */
export function expandIdFormat(o: SmscOptions): SmscOptions {
  if (o.idFormat === undefined) return o;
  const out: SmscOptions = { ...o };
  const preset = idFormatSettings(o.idFormat);
  out.messageIdFormat = o.messageIdFormat ?? preset.messageIdFormat;
  const padLength = o.messageIdPadLength ?? preset.messageIdPadLength;
  const receiptIdNotation = o.receiptIdNotation ?? preset.receiptIdNotation;
  const receiptTlvIdNotation = o.receiptTlvIdNotation ?? preset.receiptTlvIdNotation;
  const start = o.messageIdStart ?? preset.messageIdStart;
  if (padLength !== undefined) out.messageIdPadLength = padLength;
  if (receiptIdNotation !== undefined) out.receiptIdNotation = receiptIdNotation;
  if (receiptTlvIdNotation !== undefined) out.receiptTlvIdNotation = receiptTlvIdNotation;
  if (start !== undefined) out.messageIdStart = start;
  return out;
}

export function resolveOptions(o: RuntimeOptions): ResolvedOptions {
  return {
    ...o,
    credentials: o.credentials ?? [{ systemId: 'wren', password: 'wrenpass' }],
    receiptDelayMs: o.receiptDelayMs ?? 50,
    statMix: o.statMix ?? { DELIVRD: 100 },
    errorCodes: o.errorCodes ?? {},
    messageIdFormat: o.messageIdFormat ?? 'hex',
    messageIdPadLength: o.messageIdPadLength ?? 20,
    receiptIdNotation: o.receiptIdNotation ?? 'same',
    receiptTlvIdNotation: o.receiptTlvIdNotation ?? 'same',
    maxStoredMessages: o.maxStoredMessages ?? 100_000,
    moTimeoutMs: o.moTimeoutMs ?? 5000,
    smscSystemId: o.smscSystemId ?? 'WrenSMSC',
  };
}
