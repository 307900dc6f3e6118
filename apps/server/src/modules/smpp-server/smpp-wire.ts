// The smpp library ships no types; reuse the simulator's declaration of `module 'smpp'`.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../../../../../packages/smsc-simulator/src/smpp.d.ts" />
import smpp from 'smpp';

/** SMPP 3.4 command_status values the server answers with (names as in the spec). */
export const STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RINVMSGID: 0x0c,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RCANCELFAIL: 0x11,
  ESME_RREPLACEFAIL: 0x13,
  ESME_RMSGQFUL: 0x14,
  ESME_RINVESMCLASS: 0x43,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RTHROTTLED: 0x58,
  ESME_RQUERYFAIL: 0x67,
  ESME_RX_P_APPN: 0x65,
  ESME_RX_R_APPN: 0x66,
  ESME_RINVDCS: 0x104,
} as const;

/** Largest PDU accepted: a submit_sm with a 64 KB message_payload fits. */
export const MAX_PDU_LENGTH = 70_000;

const GENERIC_NACK = 0x80000000;

/** A generic_nack (header only). */
export function genericNack(status: number, sequence: number): Buffer {
  const b = Buffer.alloc(16);
  b.writeUInt32BE(16, 0);
  b.writeUInt32BE(GENERIC_NACK, 4);
  b.writeUInt32BE(status, 8);
  b.writeUInt32BE(sequence >>> 0, 12);
  return b;
}

export type Frame =
  | { kind: 'pdu'; pdu: smpp.PDU; raw: Buffer }
  /** A PDU that could not be read: answer generic_nack, keep the session. */
  | { kind: 'bad'; status: number; sequence: number; commandId: number }
  /** The length header is impossible: the stream cannot be followed any further. */
  | { kind: 'fatal'; status: number; sequence: number };

const PduFromBuffer = smpp.PDU as unknown as new (raw: Buffer) => smpp.PDU;

/**
 * Splits a byte stream into SMPP frames and decodes each one on its own: an unknown command or a
 * body the library cannot read becomes a `bad` frame (generic_nack, the session goes on), so one
 * malformed PDU never stops the session reading, let alone another session.
 */
export class FrameReader {
  private buf: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    const out: Frame[] = [];
    while (this.buf.length >= 4) {
      const len = this.buf.readUInt32BE(0);
      if (len < 16 || len > MAX_PDU_LENGTH) {
        const sequence = this.buf.length >= 16 ? this.buf.readUInt32BE(12) : 0;
        out.push({ kind: 'fatal', status: STATUS.ESME_RINVCMDLEN, sequence });
        this.buf = Buffer.alloc(0);
        return out;
      }
      if (this.buf.length < len) break;
      const raw = this.buf.subarray(0, len);
      this.buf = this.buf.subarray(len);
      out.push(decodeFrame(Buffer.from(raw)));
    }
    return out;
  }
}

function decodeFrame(raw: Buffer): Frame {
  const commandId = raw.readUInt32BE(4);
  const sequence = raw.readUInt32BE(12);
  try {
    const pdu = new PduFromBuffer(raw);
    if (pdu.command === 'unknown') return { kind: 'bad', status: STATUS.ESME_RINVCMDID, sequence, commandId };
    return { kind: 'pdu', pdu, raw };
  } catch {
    return { kind: 'bad', status: STATUS.ESME_RINVCMDLEN, sequence, commandId };
  }
}

/** The fields of a submit_sm read from its bytes (the library's decoding of the text is not used). */
export interface SubmitFields {
  sourceTon: number;
  sourceNpi: number;
  source: string;
  destTon: number;
  destNpi: number;
  destination: string;
  esmClass: number;
  registeredDelivery: number;
  dataCoding: number;
  /** short_message, or message_payload when short_message is empty. */
  message: Buffer;
  /** From short_message only: message_payload carries no UDH here. */
  viaPayload: boolean;
  scheduleDeliveryTime: string;
  sar?: { ref: number; total: number; seq: number };
}

/** A body field ran past the PDU's end or had no terminating NUL. */
export class MalformedBody extends Error {}

/** Reads submit_sm (SMPP 3.4 §4.4.1) from the raw PDU; throws MalformedBody when it does not fit. */
export function readSubmit(raw: Buffer): SubmitFields {
  let o = 16;
  const end = raw.length;
  const byte = () => {
    if (o >= end) throw new MalformedBody('submit_sm ends early');
    return raw[o++];
  };
  const cstr = (max: number) => {
    const nul = raw.indexOf(0, o);
    if (nul < 0 || nul >= end || nul - o > max) throw new MalformedBody('submit_sm field without NUL');
    const s = raw.toString('latin1', o, nul);
    o = nul + 1;
    return s;
  };
  cstr(5); // service_type
  const sourceTon = byte();
  const sourceNpi = byte();
  const source = cstr(20);
  const destTon = byte();
  const destNpi = byte();
  const destination = cstr(20);
  const esmClass = byte();
  byte(); // protocol_id
  byte(); // priority_flag
  const scheduleDeliveryTime = cstr(16);
  cstr(16); // validity_period
  const registeredDelivery = byte();
  byte(); // replace_if_present_flag
  const dataCoding = byte();
  byte(); // sm_default_msg_id
  const smLength = byte();
  if (o + smLength > end) throw new MalformedBody('short_message runs past the PDU');
  let message = raw.subarray(o, o + smLength);
  o += smLength;
  let payload: Buffer | undefined;
  const sarParts: Partial<Record<'ref' | 'total' | 'seq', number>> = {};
  while (o + 4 <= end) {
    const tag = raw.readUInt16BE(o);
    const len = raw.readUInt16BE(o + 2);
    o += 4;
    if (o + len > end) throw new MalformedBody('a TLV runs past the PDU');
    const v = raw.subarray(o, o + len);
    o += len;
    if (tag === 0x0424) payload = v;
    else if (tag === 0x020c && len === 2) sarParts.ref = v.readUInt16BE(0);
    else if (tag === 0x020e && len === 1) sarParts.total = v[0]!;
    else if (tag === 0x020f && len === 1) sarParts.seq = v[0]!;
  }
  if (o !== end) throw new MalformedBody('trailing bytes after the TLVs');
  let viaPayload = false;
  if (message.length === 0 && payload) {
    message = payload;
    viaPayload = true;
  }
  const { ref, total, seq } = sarParts;
  return {
    sourceTon,
    sourceNpi,
    source,
    destTon,
    destNpi,
    destination,
    esmClass,
    registeredDelivery,
    dataCoding,
    message: Buffer.from(message),
    viaPayload,
    scheduleDeliveryTime,
    sar: ref !== undefined && total !== undefined && seq !== undefined ? { ref, total, seq } : undefined,
  };
}

/** Encodes a response or request for the wire. */
export function encode(command: string, sequence: number, fields: smpp.PduOptions = {}): Buffer {
  return new smpp.PDU(command, { ...fields, sequence_number: sequence }).toBuffer();
}
