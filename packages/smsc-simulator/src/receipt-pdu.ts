import type smpp from 'smpp';
import { encodeGsm7, isGsm7 } from './encoding.js';
import { renderIdInNotation, type IdNotation } from './message-id.js';
import type { RuntimeOptions, StoredMessage } from './options.js';
import {
  DEFAULT_ERROR_CODES,
  FINAL_STATS,
  formatReceiptText,
  MESSAGE_STATE,
  type FinalStat,
  type ReceiptStat,
} from './receipt.js';

export const ESM_CLASS_RECEIPT = 0x04;

const isFinal = (stat: ReceiptStat): stat is FinalStat => (FINAL_STATS as readonly string[]).includes(stat);

/** err: code for a state: '000' for DELIVRD and intermediates, a nonzero 3-digit code for failures. */
export function errorCodeFor(stat: ReceiptStat, opts: Pick<RuntimeOptions, 'errorCodes'>): string {
  if (!isFinal(stat)) return '000';
  return opts.errorCodes?.[stat] ?? DEFAULT_ERROR_CODES[stat];
}

/**
 * registered_delivery bits 0-1: 1 = receipt on any final state, 2 = on failure only,
 * 3 = on success only (SMPP 5.0 meaning; reserved in 3.4).
 */
export function wantsReceipt(msg: StoredMessage): boolean {
  const mode = msg.registeredDelivery & 0x03;
  if (mode === 1) return true;
  if (mode === 2) return msg.finalStat !== 'DELIVRD';
  if (mode === 3) return msg.finalStat === 'DELIVRD';
  return false;
}

/**
 * The receipt text is GSM-7 encoded (data_coding 0). The smpp library's encoder turns characters
 * outside the GSM alphabet into 0x00 ('@'), so replace them with '?' first.
 */
const gsmSafe = (text: string): string =>
  [...text.slice(0, 20)].map((ch) => (isGsm7(ch) ? ch : '?')).join('');

type ReceiptOpts = Required<Pick<RuntimeOptions, 'receiptIdNotation' | 'receiptTlvIdNotation'>> &
  Pick<RuntimeOptions, 'errorCodes' | 'messageIdPadLength' | 'acceptdReceipts'>;

/** deliver_sm fields of a delivery receipt (esm_class 0x04, text + receipted_message_id/message_state). */
export function receiptPdu(msg: StoredMessage, stat: ReceiptStat, opts: ReceiptOpts): smpp.PduOptions {
  // uuid ids have no number behind them: every notation is the id itself.
  const idIn = (notation: IdNotation): string =>
    notation === 'same' || msg.n === undefined
      ? msg.id
      : renderIdInNotation(msg.n, msg.idFormat, notation, opts.messageIdPadLength);
  // acceptdReceipts 'contradictory': an ACCEPTD that carries an error (text dlvrd:000 err:001).
  const err = isFinal(stat)
    ? msg.errorCode
    : stat === 'ACCEPTD' && opts.acceptdReceipts === 'contradictory'
      ? '001'
      : '000';
  const fields: smpp.PduOptions = {
    source_addr: msg.dest,
    destination_addr: msg.source,
    esm_class: ESM_CLASS_RECEIPT,
    data_coding: 0,
    short_message: encodeGsm7(
      formatReceiptText({
        id: idIn(msg.receiptIdNotation ?? opts.receiptIdNotation),
        stat,
        err,
        submitDate: msg.submittedAt,
        doneDate: msg.doneAt ?? new Date(),
        text: gsmSafe(msg.text),
      }),
    ),
    message_state: MESSAGE_STATE[stat],
  };
  const tlv = msg.receiptTlvIdNotation ?? opts.receiptTlvIdNotation;
  if (tlv !== 'none') fields.receipted_message_id = idIn(tlv);
  const code = Number.parseInt(err, 10);
  if (isFinal(stat) && stat !== 'DELIVRD' && code > 0) {
    fields.network_error_code = Buffer.from([0x03, (code >> 8) & 0xff, code & 0xff]);
  }
  return fields;
}
