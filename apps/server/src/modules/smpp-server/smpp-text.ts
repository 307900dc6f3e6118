import smpp from 'smpp';
import { concatPart, type ConcatPart } from '../../gateway/inbound-text';
import type { SubmitFields } from './smpp-wire';

const ESM_UDHI = 0x40;

export type DecodedSubmit =
  { ok: true; text: string; concat?: ConcatPart } | { ok: false; reason: 'dcs' | 'length' | 'udh' };

/** UDH information elements (IEI, length, data...), or null when the header does not fit. */
function splitUdh(udh: Buffer): Buffer[] | null {
  const out: Buffer[] = [];
  let o = 0;
  while (o < udh.length) {
    if (o + 2 > udh.length) return null;
    const len = udh[o + 1];
    if (o + 2 + len > udh.length) return null;
    out.push(udh.subarray(o, o + 2 + len));
    o += 2 + len;
  }
  return out;
}

/**
 * The text of a submit_sm: data_coding 0 (GSM 03.38 default alphabet, one septet per octet), 1
 * (IA5/ASCII), 3 (Latin-1) or 8 (UCS-2, big-endian; UTF-16 surrogate pairs for emoji). A UDH
 * (esm_class UDHI) is split off and its concatenation element read; so are the sar_* TLVs
 * (gateway/inbound-text.ts's concatPart, as for inbound parts).
 */
export function decodeSubmitText(f: SubmitFields): DecodedSubmit {
  let body = f.message;
  let ies: Buffer[] = [];
  if (f.esmClass & ESM_UDHI && !f.viaPayload) {
    if (body.length === 0) return { ok: false, reason: 'udh' };
    const udhl = body[0];
    if (udhl + 1 > body.length) return { ok: false, reason: 'udh' };
    const parsed = splitUdh(body.subarray(1, udhl + 1));
    if (!parsed) return { ok: false, reason: 'udh' };
    ies = parsed;
    body = body.subarray(udhl + 1);
  }
  let text: string;
  switch (f.dataCoding) {
    case 0x00:
      text = smpp.encodings.ASCII.decode(body);
      break;
    case 0x01:
      text = body.toString('ascii');
      break;
    case 0x03:
      text = body.toString('latin1');
      break;
    case 0x08:
      if (body.length % 2) return { ok: false, reason: 'length' };
      text = Buffer.from(body).swap16().toString('utf16le');
      break;
    default:
      return { ok: false, reason: 'dcs' };
  }
  const sar = f.sar
    ? { sar_msg_ref_num: f.sar.ref, sar_total_segments: f.sar.total, sar_segment_seqnum: f.sar.seq }
    : {};
  const concat = concatPart(sar as unknown as smpp.PDU, ies);
  return { ok: true, text, concat: concat && concat.total > 1 ? concat : undefined };
}

/** An SMPP message id in the account's notation, and back (undefined: not an id of that notation). */
export function renderSmppId(id: number, notation: 'decimal' | 'hex'): string {
  return notation === 'hex' ? id.toString(16).toUpperCase() : String(id);
}

export function parseSmppId(text: string, notation: 'decimal' | 'hex'): number | undefined {
  const t = text.trim();
  const ok = notation === 'hex' ? /^[0-9A-Fa-f]{1,13}$/.test(t) : /^\d{1,15}$/.test(t);
  if (!ok) return undefined;
  const n = Number.parseInt(t, notation === 'hex' ? 16 : 10);
  return Number.isSafeInteger(n) ? n : undefined;
}
