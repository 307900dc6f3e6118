import smpp from 'smpp';
import { describe, expect, it } from 'vitest';
import { deliverKind, parseReceipt } from './receipt';

/** A deliver_sm as it arrives: encoded by the library and decoded again. */
function deliverSm(fields: smpp.PduOptions): smpp.PDU {
  const pdu = new smpp.PDU('deliver_sm', { sequence_number: 7, data_coding: 0, esm_class: 4, ...fields });
  return new smpp.PDU(pdu.toBuffer() as never);
}

const TEXT =
  'id:0A1B2C sub:001 dlvrd:000 submit date:2401021530 done date:2401021531 stat:UNDELIV err:005 text:Hello';

describe('deliverKind', () => {
  it('tells receipts, MO and acknowledgements apart', () => {
    expect(deliverKind(0x04)).toBe('receipt');
    expect(deliverKind(0x20)).toBe('receipt');
    expect(deliverKind(0x00)).toBe('mo');
    expect(deliverKind(0x40)).toBe('mo');
    expect(deliverKind(undefined)).toBe('mo');
    expect(deliverKind(0x08)).toBe('ack');
  });
});

describe('parseReceipt', () => {
  it('prefers the receipted_message_id TLV and keeps text and TLVs in raw', () => {
    const r = parseReceipt(
      'c1',
      deliverSm({ short_message: TEXT, receipted_message_id: '658476', message_state: 5 }),
    );
    expect(r).toEqual({
      connection: 'c1',
      smscId: '658476',
      stat: 'UNDELIV',
      err: '005',
      doneAt: new Date(Date.UTC(2024, 0, 2, 15, 31)),
      submitDate: new Date(Date.UTC(2024, 0, 2, 15, 30)),
      raw: `${TEXT} tlv:{"receipted_message_id":"658476","message_state":5}`,
    });
  });

  it("falls back to the text's id", () => {
    const r = parseReceipt('c1', deliverSm({ short_message: TEXT }));
    expect(r).toMatchObject({ smscId: '0A1B2C', stat: 'UNDELIV', raw: TEXT });
  });

  it('falls back to the TLVs when the text has no stat/err', () => {
    const r = parseReceipt(
      'c1',
      deliverSm({
        short_message: 'delivered',
        receipted_message_id: 'abc',
        message_state: 2,
        network_error_code: Buffer.from([3, 0, 7]),
      }),
    );
    expect(r).toMatchObject({ smscId: 'abc', stat: 'DELIVRD', err: '007', doneAt: null });
    expect(r?.raw).toContain('"network_error_code":"030007"');
  });

  it('reads the text from message_payload and decodes UCS-2 receipts', () => {
    const payload = parseReceipt('c1', deliverSm({ short_message: '', message_payload: TEXT }));
    expect(payload?.smscId).toBe('0A1B2C');
    const ucs2 = parseReceipt('c1', deliverSm({ data_coding: 8, short_message: TEXT }));
    expect(ucs2?.stat).toBe('UNDELIV');
  });

  it('returns undefined when there is no id at all', () => {
    expect(parseReceipt('c1', deliverSm({ short_message: 'stat:DELIVRD' }))).toBeUndefined();
  });
});
