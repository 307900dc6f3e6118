import type smpp from 'smpp';
import { inboundText } from './inbound-text';
import { parseReceiptText, STAT_BY_MESSAGE_STATE } from './receipt-text';
import type { DeliveryReceipt } from './sms-gateway';

/** esm_class message types (bits 2-5) that carry a delivery receipt / intermediate notification. */
const ESM_TYPE_MASK = 0x3c;
const ESM_RECEIPT = 0x04;
const ESM_INTERMEDIATE = 0x20;

export type DeliverKind = 'receipt' | 'mo' | 'ack';

/** Receipt (0x04 or intermediate notification 0x20), MO (type 0), or an SME/user ack (ignored). */
export function deliverKind(esmClass: number | undefined): DeliverKind {
  const type = (esmClass ?? 0) & ESM_TYPE_MASK;
  if (type === 0) return 'mo';
  if (type === ESM_RECEIPT || type === ESM_INTERMEDIATE) return 'receipt';
  return 'ack';
}

/** TLVs kept in `raw`: the receipt-related ones plus any the library does not know (numeric tags). */
const RAW_TLVS = ['receipted_message_id', 'message_state', 'network_error_code', 'user_message_reference'];

function tlvValue(v: unknown): unknown {
  if (Buffer.isBuffer(v)) return v.toString('hex');
  return v;
}

function rawTlvs(pdu: smpp.PDU): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of RAW_TLVS) if (pdu[key] !== undefined) out[key] = tlvValue(pdu[key]);
  for (const key of Object.keys(pdu)) {
    if (/^\d+$/.test(key)) out[`0x${Number(key).toString(16).padStart(4, '0')}`] = tlvValue(pdu[key]);
  }
  return out;
}

/** network_error_code TLV: 1 octet network type + 2 octets error code → "001". */
function networkErrorCode(v: unknown): string | undefined {
  if (!Buffer.isBuffer(v) || v.length < 3) return undefined;
  return String(v.readUInt16BE(1)).padStart(3, '0');
}

/**
 * Build a DeliveryReceipt from a receipt deliver_sm. The id is the receipted_message_id TLV when
 * present, else the `id:` of the text; stat falls back to the message_state TLV. Returns undefined
 * when no id can be found (nothing to match).
 */
export function parseReceipt(connection: string, pdu: smpp.PDU): DeliveryReceipt | undefined {
  const { text } = inboundText(pdu);
  const parsed = parseReceiptText(text);
  const tlvId = typeof pdu.receipted_message_id === 'string' ? pdu.receipted_message_id.trim() : '';
  const smscId = tlvId || parsed?.id;
  if (!smscId) return undefined;
  const stateStat =
    pdu.message_state === undefined ? undefined : STAT_BY_MESSAGE_STATE.get(pdu.message_state);
  const tlvs = rawTlvs(pdu);
  return {
    connection,
    smscId,
    // SMPP 3.4: the message_state TLV, when present, is the state; the text is informative.
    stat: stateStat ?? parsed?.stat ?? 'UNKNOWN',
    err: parsed?.err ?? networkErrorCode(pdu.network_error_code) ?? '',
    doneAt: parsed?.doneDate ?? null,
    submitDate: parsed?.submitDate ?? null,
    raw: Object.keys(tlvs).length > 0 ? `${text} tlv:${JSON.stringify(tlvs)}` : text,
  };
}
