/**
 * What the messages module offers OTP (modules/otp): a code's message is inserted, with its row in
 * the work queue, in the transaction that stores the code (`insertMessages`), so a code is never
 * stored without its message nor its message sent without the code. The dependency runs one way,
 * otp → messages.
 */
export { insertMessages, type NewMessage } from './message-inserts.repository';
