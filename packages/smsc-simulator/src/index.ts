export { startSmsc } from './server.js';
export type {
  BindEvent,
  BindMode,
  Credentials,
  DelayMs,
  FaultOptions,
  MoInput,
  MoResult,
  OutOfOrderFault,
  RuntimeOptions,
  SmscEvents,
  SmscHandle,
  SmscOptions,
  SmscStats,
  StatMix,
  StoredMessage,
  ThrottleFault,
} from './options.js';
export type { ConcatInfo } from './encoding.js';
export {
  DEFAULT_ERROR_CODES,
  FINAL_STATS,
  MESSAGE_STATE,
  formatReceiptDate,
  formatReceiptText,
  parseReceiptDate,
  parseReceiptText,
  type FinalStat,
  type ParsedReceipt,
  type ReceiptFields,
  type ReceiptStat,
} from './receipt.js';
export {
  formatMessageId,
  messageIdCandidates,
  messageIdsMatch,
  renderIdInNotation,
  type IdNotation,
  type MessageIdFormat,
} from './message-id.js';
export { parseCliArgs, parseDelay, parseMix } from './cli-args.js';
