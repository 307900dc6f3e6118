import type smpp from 'smpp';

export interface InboundText {
  text: string;
  /** UDH information elements (IEI, length, data), when the UDHI bit was set. */
  udh: Buffer[];
}

function isDecoded(v: unknown): v is smpp.DecodedMessage {
  return typeof v === 'object' && v !== null && !Buffer.isBuffer(v) && 'message' in v;
}

function asText(value: smpp.DecodedMessage | Buffer | string | undefined): InboundText {
  if (value === undefined) return { text: '', udh: [] };
  if (typeof value === 'string') return { text: value, udh: [] };
  // Codings the library cannot decode (binary, vendor-specific) stay Buffers: keep them readable.
  if (Buffer.isBuffer(value)) return { text: value.toString('latin1'), udh: [] };
  if (!isDecoded(value)) return { text: '', udh: [] };
  const text = typeof value.message === 'string' ? value.message : value.message.toString('latin1');
  return { text, udh: value.udh ?? [] };
}

/**
 * Text of a deliver_sm as decoded by the smpp library (GSM-7 for data_coding 0, UCS-2 for 8, Latin-1
 * for 3), from short_message or, when that is empty, the message_payload TLV.
 */
export function inboundText(pdu: smpp.PDU): InboundText {
  const sm = asText(pdu.short_message);
  if (sm.text === '' && sm.udh.length === 0 && pdu.message_payload !== undefined) {
    return asText(pdu.message_payload);
  }
  return sm;
}

export interface ConcatPart {
  ref: number;
  total: number;
  seq: number;
}

/** Concatenation info from UDH IEI 0x00 (8-bit ref) or 0x08 (16-bit ref), else the sar_* TLVs. */
export function concatPart(pdu: smpp.PDU, udh: Buffer[]): ConcatPart | undefined {
  for (const ie of udh) {
    if (ie[0] === 0x00 && ie[1] === 3 && ie.length >= 5) {
      return { ref: ie.readUInt8(2), total: ie.readUInt8(3), seq: ie.readUInt8(4) };
    }
    if (ie[0] === 0x08 && ie[1] === 4 && ie.length >= 6) {
      return { ref: ie.readUInt16BE(2), total: ie.readUInt8(4), seq: ie.readUInt8(5) };
    }
  }
  const { sar_msg_ref_num: ref, sar_total_segments: total, sar_segment_seqnum: seq } = pdu;
  if (ref !== undefined && total !== undefined && seq !== undefined) return { ref, total, seq };
  return undefined;
}
