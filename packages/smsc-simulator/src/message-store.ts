import type smpp from 'smpp';
import { concatInfo, messageContent } from './encoding.js';
import { pickStat, type Random } from './faults.js';
import type { MessageIdGenerator } from './message-id.js';
import type { ResolvedOptions, StoredMessage } from './options.js';
import { errorCodeFor } from './receipt-pdu.js';

/** Build the record of an accepted submit_sm, drawing its final state now. */
export function buildMessage(
  pdu: smpp.PDU,
  systemId: string,
  ids: MessageIdGenerator,
  o: ResolvedOptions,
  rand: Random,
): StoredMessage {
  const content = messageContent(pdu);
  const dest = pdu.destination_addr ?? '';
  const finalStat = o.statByDestination?.(dest) ?? pickStat(o.statMix, rand);
  const { id, n } = ids.next(o.messageIdFormat, o.messageIdPadLength);
  const msg: StoredMessage = {
    id,
    n,
    idFormat: o.messageIdFormat,
    systemId,
    source: pdu.source_addr ?? '',
    dest,
    text: content.text,
    shortMessage: content.bytes,
    dataCoding: pdu.data_coding ?? 0,
    esmClass: pdu.esm_class ?? 0,
    registeredDelivery: pdu.registered_delivery ?? 0,
    submittedAt: new Date(),
    finalStat,
    errorCode: errorCodeFor(finalStat, o),
    receiptsSent: 0,
  };
  if (content.udh) msg.udh = content.udh;
  const concat = concatInfo(pdu, content.udhList);
  if (concat) msg.concat = concat;
  return msg;
}

/** Insertion-ordered id → message map that forgets the oldest entries beyond `max`. */
export class MessageStore extends Map<string, StoredMessage> {
  put(msg: StoredMessage, max: number): void {
    this.set(msg.id, msg);
    while (this.size > max) {
      const oldest = this.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }
}
