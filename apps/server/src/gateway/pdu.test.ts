import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { buildSubmitSm, concatUdh, encodeText, invalidReason, relativeValidity, sourceAddress } from './pdu';
import type { OutboundSms } from './sms-gateway';

const sms = (over: Partial<OutboundSms> = {}): OutboundSms => ({
  id: 'm1',
  from: 'Wren',
  to: '+447911123456',
  encoding: 'GSM-7',
  parts: ['hello'],
  ...over,
});

/** Encode with the smpp library and decode again, as an SMSC would see it. */
const roundTrip = (fields: smpp.PduOptions): smpp.PDU =>
  new smpp.PDU(new smpp.PDU('submit_sm', { ...fields, sequence_number: 1 }).toBuffer() as never);

describe('submit_sm fields', () => {
  it('maps sender and destination TON/NPI', () => {
    expect(sourceAddress('Wren')).toEqual({ addr: 'Wren', ton: 5, npi: 0 });
    expect(sourceAddress('+447911000111')).toEqual({ addr: '447911000111', ton: 1, npi: 1 });
    const [f] = buildSubmitSm(sms(), 1);
    expect(f).toMatchObject({
      source_addr: 'Wren',
      source_addr_ton: 5,
      source_addr_npi: 0,
      destination_addr: '447911123456',
      dest_addr_ton: 1,
      dest_addr_npi: 1,
      registered_delivery: 1,
      data_coding: 0,
      esm_class: 0,
    });
    expect(f).not.toHaveProperty('validity_period');
  });

  it('sets data_coding 8 and UCS-2 big-endian for UCS-2', () => {
    const [f] = buildSubmitSm(sms({ encoding: 'UCS-2', parts: ['Привет 👋'] }), 1);
    expect(f?.data_coding).toBe(8);
    expect(f?.short_message).toEqual(smpp.encodings.UCS2.encode('Привет 👋'));
    const pdu = roundTrip(f!);
    expect(pdu.data_coding).toBe(8);
    expect((pdu.short_message as smpp.DecodedMessage).message).toBe('Привет 👋');
  });

  it('encodes GSM-7 with escapes for the extension table', () => {
    expect(encodeText('abc', 'GSM-7')).toEqual(Buffer.from('abc'));
    expect(encodeText('€[@', 'GSM-7')).toEqual(Buffer.from([0x1b, 0x65, 0x1b, 0x3c, 0x00]));
  });

  it('adds a concatenation UDH and esm_class 0x40 to each part', () => {
    const parts = ['a'.repeat(153), 'b'.repeat(153), 'c'];
    const fields = buildSubmitSm(sms({ parts }), 0x1a7);
    expect(fields).toHaveLength(3);
    fields.forEach((f, i) => {
      expect(f.esm_class).toBe(0x40);
      const sm = f.short_message as Buffer;
      expect(sm.subarray(0, 6)).toEqual(concatUdh(0xa7, 3, i + 1));
      const decoded = roundTrip(f).short_message as smpp.DecodedMessage;
      expect(decoded.udh?.[0]).toEqual(Buffer.from([0x00, 0x03, 0xa7, 3, i + 1]));
      expect(decoded.message).toBe(parts[i]);
    });
  });

  it('writes a relative validity period', () => {
    expect(relativeValidity(90)).toBe('000000013000000R');
    expect(relativeValidity(2 * 1440 + 5)).toBe('000002000500000R');
    expect(relativeValidity(1_000_000)).toBe('000099000000000R');
    const [f] = buildSubmitSm(sms({ validityMinutes: 30 }), 1);
    expect(f?.validity_period).toBe('000000003000000R');
    const wire = new smpp.PDU('submit_sm', { ...f }).toBuffer();
    expect(wire.includes(Buffer.from('000000003000000R\0'))).toBe(true);
  });

  it('moves bodies over 254 octets into message_payload', () => {
    const [f] = buildSubmitSm(sms({ encoding: 'UCS-2', parts: ['x'.repeat(200)] }), 1);
    expect(f?.short_message).toEqual(Buffer.alloc(0));
    expect((f?.message_payload as Buffer).length).toBe(400);
  });
});

describe('invalidReason', () => {
  it('accepts a normal message and refuses malformed ones', () => {
    expect(invalidReason(sms())).toBeUndefined();
    expect(invalidReason(sms({ to: '447911123456' }))).toMatch(/E\.164/);
    expect(invalidReason(sms({ from: '' }))).toMatch(/sender/);
    expect(invalidReason(sms({ from: 'TwelveChars1' }))).toMatch(/longer than 11/);
    expect(invalidReason(sms({ parts: [] }))).toMatch(/no message parts/);
  });
});
