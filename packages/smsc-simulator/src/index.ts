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
  type FinalStat,
  type ReceiptFields,
  type ReceiptStat,
} from './receipt.js';
export {
  ID_FORMAT_PRESETS,
  ID_FORMATS,
  formatMessageId,
  idFormatSettings,
  messageIdCandidates,
  messageIdsMatch,
  renderIdInNotation,
  type IdFormat,
  type IdFormatPreset,
  type IdFormatSettings,
  type IdNotation,
  type MessageIdFormat,
} from './message-id.js';
export { parseCliArgs, parseDelay, parseMix } from './cli-args.js';
