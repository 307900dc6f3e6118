/**
 * What the messages module offers campaigns (modules/campaigns), in one place: the dependency runs
 * one way, campaigns → messages, and campaigns write and read message rows only through these. The
 * materialiser inserts a batch's messages (`insertMessages`); a cancel moves the queued ones to
 * `canceled` (`transition`), refunds them (`refundMessages`) and records it in their history
 * (`recordEvents`); a campaign's export streams its log (`streamLog`).
 */
export { insertMessages, type NewMessage } from './message-inserts.repository';
export { streamLog } from './log-export.repository';
export { insertEvents as recordEvents } from './messages.repository';
export { refundMessages } from './refunds';
export { transition } from './status.repository';
