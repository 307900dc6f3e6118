import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { decodeSubmitText, parseSmppId, renderSmppId } from './smpp-text';
import { FrameReader, MalformedBody, readSubmit, STATUS } from './smpp-wire';

const submitPdu = (fields: smpp.PduOptions) =>
  new smpp.PDU('submit_sm', { sequence_number: 1, destination_addr: '14155550123', ...fields }).toBuffer();

describe('FrameReader', () => {
  it('reads PDUs split across chunks and several in one chunk', () => {
    const a = new smpp.PDU('enquire_link', { sequence_number: 5 }).toBuffer();
    const b = submitPdu({ short_message: Buffer.from('hi') });
    const r = new FrameReader();
    const all = Buffer.concat([a, b]);
    expect(r.push(all.subarray(0, 10))).toEqual([]);
    const frames = r.push(all.subarray(10));
    expect(frames.map((f) => (f.kind === 'pdu' ? f.pdu.command : f.kind))).toEqual([
      'enquire_link',
      'submit_sm',
    ]);
  });

  it('marks an unknown command as bad (generic_nack) and an impossible length as fatal', () => {
    const unknown = Buffer.alloc(16);
    unknown.writeUInt32BE(16, 0);
    unknown.writeUInt32BE(0x1234, 4);
    unknown.writeUInt32BE(9, 12);
    expect(new FrameReader().push(unknown)).toEqual([
      { kind: 'bad', status: STATUS.ESME_RINVCMDID, sequence: 9, commandId: 0x1234 },
    ]);
    const short = Buffer.alloc(16);
    short.writeUInt32BE(4, 0);
    expect(new FrameReader().push(short)[0]).toMatchObject({ kind: 'fatal', status: STATUS.ESME_RINVCMDLEN });
    const huge = Buffer.alloc(16);
    huge.writeUInt32BE(10_000_000, 0);
    expect(new FrameReader().push(huge)[0]).toMatchObject({ kind: 'fatal' });
  });
});

describe('readSubmit and decodeSubmitText', () => {
  it('reads the fields and the sar_* TLVs, and refuses a body that ends early', () => {
    const f = readSubmit(
      submitPdu({
        source_addr: 'Acme',
        source_addr_ton: 5,
        data_coding: 8,
        registered_delivery: 1,
        short_message: Buffer.from('Hé 👋', 'utf16le').swap16(),
        sar_msg_ref_num: 300,
        sar_total_segments: 2,
        sar_segment_seqnum: 1,
      }),
    );
    expect(f).toMatchObject({
      source: 'Acme',
      sourceTon: 5,
      destination: '14155550123',
      registeredDelivery: 1,
    });
    expect(f.sar).toEqual({ ref: 300, total: 2, seq: 1 });
    expect(decodeSubmitText(f)).toEqual({ ok: true, text: 'Hé 👋', concat: { ref: 300, total: 2, seq: 1 } });
    const full = submitPdu({ short_message: Buffer.from('hello') });
    const cut = Buffer.from(full.subarray(0, full.length - 3));
    cut.writeUInt32BE(cut.length, 0);
    expect(() => readSubmit(cut)).toThrow(MalformedBody);
  });

  it('splits a UDH off (16-bit reference too) and refuses one that does not fit', () => {
    const udh16 = Buffer.from([0x06, 0x08, 0x04, 0x01, 0x02, 0x03, 0x02]);
    const f = readSubmit(
      submitPdu({
        esm_class: 0x40,
        data_coding: 0,
        short_message: Buffer.concat([udh16, Buffer.from('part')]),
      }),
    );
    expect(decodeSubmitText(f)).toEqual({
      ok: true,
      text: 'part',
      concat: { ref: 0x0102, total: 3, seq: 2 },
    });
    const bad = readSubmit(
      submitPdu({ esm_class: 0x40, data_coding: 0, short_message: Buffer.from([0x09, 0x00]) }),
    );
    expect(decodeSubmitText(bad)).toEqual({ ok: false, reason: 'udh' });
  });

  it('writes and reads ids in decimal and hex, refusing other text', () => {
    expect(renderSmppId(123456, 'hex')).toBe('1E240');
    expect(parseSmppId('1e240', 'hex')).toBe(123456);
    expect(parseSmppId('123456', 'decimal')).toBe(123456);
    expect(parseSmppId('12x', 'decimal')).toBeUndefined();
    expect(parseSmppId('', 'hex')).toBeUndefined();
  });
});
