import smpp from 'smpp';

export const DC_GSM7 = 0x00;
export const DC_LATIN1 = 0x03;
export const DC_UCS2 = 0x08;

/** Concatenation info of one part: from UDH IEI 0x00 (8-bit ref), 0x08 (16-bit ref) or sar_* TLVs. */
export interface ConcatInfo {
  ref: number;
  total: number;
  seq: number;
  scheme: 'udh8' | 'udh16' | 'sar';
}

const GSM_EXTENDED = new Set('\f^{}\\[~]|€');

/** True when the text fits the GSM 03.38 default alphabet (+ extension table). */
export function isGsm7(text: string): boolean {
  return smpp.encodings.ASCII.match(text);
}

function gsmCost(ch: string): number {
  return GSM_EXTENDED.has(ch) ? 2 : 1;
}

/** Split into chunks of at most `limit` units without splitting escapes or surrogate pairs. */
function chunk(chars: string[], limit: number, cost: (ch: string) => number): string[] {
  const out: string[] = [];
  let cur = '';
  let used = 0;
  for (const ch of chars) {
    const c = cost(ch);
    if (used + c > limit) {
      out.push(cur);
      cur = '';
      used = 0;
    }
    cur += ch;
    used += c;
  }
  if (cur || out.length === 0) out.push(cur);
  return out;
}

export interface MoPart {
  dataCoding: number;
  message: string;
  /** Full UDH incl. the UDHL byte, for concatenated parts. */
  udh?: Buffer;
}

/** Split an MO text into deliver_sm parts (GSM-7: 160/153 septets, UCS-2: 70/67 code units). */
export function splitMo(text: string, ref: number): MoPart[] {
  const gsm = isGsm7(text);
  const chars = [...text];
  const cost = gsm ? gsmCost : (ch: string) => ch.length;
  const total = chars.reduce((n, ch) => n + cost(ch), 0);
  const dataCoding = gsm ? DC_GSM7 : DC_UCS2;
  const single = gsm ? 160 : 70;
  if (total <= single) return [{ dataCoding, message: text }];
  const pieces = chunk(chars, gsm ? 153 : 67, cost);
  return pieces.map((message, i) => ({
    dataCoding,
    message,
    udh: Buffer.from([0x05, 0x00, 0x03, ref & 0xff, pieces.length, i + 1]),
  }));
}

function isDecoded(v: unknown): v is smpp.DecodedMessage {
  return typeof v === 'object' && v !== null && !Buffer.isBuffer(v) && 'message' in v;
}

// Printable ASCII whose GSM 03.38 code equals its ASCII code (no @ $ _ ` [ ] { } \\ ^ ~ |).
const GSM_SAME_AS_ASCII = /^[A-Za-z0-9 !"#%&'()*+,\-./:;<=>?\n\r]*$/;

/** GSM-7 (unpacked, one septet per byte) encoding, with a fast path for plain ASCII text. */
export function encodeGsm7(text: string): Buffer {
  return GSM_SAME_AS_ASCII.test(text) ? Buffer.from(text, 'latin1') : smpp.encodings.ASCII.encode(text);
}

function encodeText(text: string, dataCoding: number): Buffer {
  const dc = dataCoding & 0x0f;
  if (dc === DC_UCS2) return smpp.encodings.UCS2.encode(text);
  if (dc === 0 || dc === 1) return encodeGsm7(text);
  return Buffer.from(text, 'latin1');
}

function decodeText(body: Buffer, dataCoding: number): string {
  const dc = dataCoding & 0x0f;
  if (dc === DC_UCS2) return smpp.encodings.UCS2.decode(body);
  if (dc === 0 || dc === 1) return smpp.encodings.ASCII.decode(body);
  return body.toString('latin1');
}

export interface MessageContent {
  text: string;
  bytes: Buffer;
  udh?: Buffer;
  udhList: Buffer[];
}

/**
 * Text and bytes of a decoded submit_sm. The smpp library decodes short_message in place (GSM-7 for
 * data_coding 0/1, UCS-2 for 8, latin1 for 3; other codings stay Buffers), so the bytes are
 * re-encoded from the decoded text; they equal the wire bytes for valid input.
 */
export function messageContent(pdu: smpp.PDU): MessageContent {
  const dataCoding = pdu.data_coding ?? 0;
  const sm = pdu.short_message;
  const smEmpty = !sm || (isDecoded(sm) ? sm.message.length === 0 && !sm.udh : sm.length === 0);
  const value = smEmpty && pdu.message_payload !== undefined ? pdu.message_payload : sm;
  if (value === undefined) return { text: '', bytes: Buffer.alloc(0), udhList: [] };
  if (typeof value === 'string') return { text: value, bytes: encodeText(value, dataCoding), udhList: [] };
  if (Buffer.isBuffer(value)) return { text: decodeText(value, dataCoding), bytes: value, udhList: [] };
  const udhList = value.udh ?? [];
  const body = Buffer.isBuffer(value.message) ? value.message : encodeText(value.message, dataCoding);
  const text = typeof value.message === 'string' ? value.message : decodeText(value.message, dataCoding);
  if (udhList.length === 0) return { text, bytes: body, udhList };
  const ies = Buffer.concat(udhList);
  const udh = Buffer.concat([Buffer.from([ies.length]), ies]);
  return { text, bytes: Buffer.concat([udh, body]), udh, udhList };
}

/** Concatenation info from UDH IEs (0x00 / 0x08) or, failing that, the sar_* TLVs. */
export function concatInfo(pdu: smpp.PDU, udhList: Buffer[]): ConcatInfo | undefined {
  for (const ie of udhList) {
    if (ie[0] === 0x00 && ie[1] === 3 && ie.length >= 5) {
      return { ref: ie.readUInt8(2), total: ie.readUInt8(3), seq: ie.readUInt8(4), scheme: 'udh8' };
    }
    if (ie[0] === 0x08 && ie[1] === 4 && ie.length >= 6) {
      return { ref: ie.readUInt16BE(2), total: ie.readUInt8(4), seq: ie.readUInt8(5), scheme: 'udh16' };
    }
  }
  const { sar_msg_ref_num: ref, sar_total_segments: total, sar_segment_seqnum: seq } = pdu;
  if (ref !== undefined && total !== undefined && seq !== undefined) {
    return { ref, total, seq, scheme: 'sar' };
  }
  return undefined;
}
