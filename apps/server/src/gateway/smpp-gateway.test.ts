import { afterEach, describe, expect, it } from 'vitest';
import { canonicalId, receiptKey, type IdRadix } from './message-id';
import { createSmppGateway } from './smpp-gateway';
import { cleanup, connection, deferred, gateway, silentLogger, simulator, sms, until } from './smpp-test-kit';
import type { DeliveryReceipt, MobileOriginated, SubmitOutcome } from './sms-gateway';

afterEach(cleanup);

function accepted(o: SubmitOutcome): string[] {
  if (o.kind !== 'accepted') throw new Error(`expected accepted, got ${JSON.stringify(o)}`);
  return o.smscIds;
}

describe('submit', () => {
  it('sends a single GSM-7 message with the right addressing', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    expect(gw.status()).toMatchObject([{ name: 'main', bindMode: 'trx', binds: 1, bound: 1, inFlight: 0 }]);
    const out = await gw.submit(sms({ from: 'Wren', to: '+447911123456', parts: ['Hello €uro [x]'] }));
    const [id] = accepted(out);
    expect(out).toMatchObject({ kind: 'accepted', connection: 'main' });
    const m = smsc.messages.get(id!);
    expect(m).toMatchObject({
      source: 'Wren',
      dest: '447911123456',
      text: 'Hello €uro [x]',
      dataCoding: 0,
      esmClass: 0,
      registeredDelivery: 1,
    });
    expect(m?.concat).toBeUndefined();
  });

  it('sends a numeric sender as an international number', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    const [id] = accepted(await gw.submit(sms({ from: '+447700000001' })));
    expect(smsc.messages.get(id!)?.source).toBe('447700000001');
  });

  it('sends UCS-2 with data_coding 8', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    const [id] = accepted(await gw.submit(sms({ encoding: 'UCS-2', parts: ['Привет, мир 👋'] })));
    expect(smsc.messages.get(id!)).toMatchObject({ dataCoding: 8, text: 'Привет, мир 👋' });
  });

  it('sends a 3-part message in order with one concatenation reference', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    const parts = ['A'.repeat(153), 'B'.repeat(153), 'C'.repeat(10)];
    const ids = accepted(await gw.submit(sms({ parts })));
    expect(ids).toHaveLength(3);
    const stored = ids.map((id) => smsc.messages.get(id)!);
    expect(stored.map((m) => m.text)).toEqual(parts);
    expect(stored.map((m) => m.esmClass & 0x40)).toEqual([0x40, 0x40, 0x40]);
    const ref = stored[0]!.concat!.ref;
    expect(stored.map((m) => m.concat)).toEqual(
      [1, 2, 3].map((seq) => ({ ref, total: 3, seq, scheme: 'udh8' })),
    );
    expect(stored.map((m) => m.udh?.[0])).toEqual([5, 5, 5]);
  });

  it('refuses malformed messages locally', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    expect(await gw.submit(sms({ to: '0044 7911' }))).toMatchObject({ kind: 'rejected', commandStatus: 0 });
    expect(smsc.stats().submitReceived).toBe(0);
  });
});

describe('lanes', () => {
  it('gives a free window slot to the most urgent waiting message: an OTP overtakes queued bulk', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { window: 1 })]);
    // All called at once: bulk 1 takes the only slot; bulk 2-5, a single and an OTP wait for it.
    const sends = [
      ...[1, 2, 3, 4, 5].map((n) => gw.submit(sms({ parts: [`bulk ${n}`], priority: 2 }))),
      gw.submit(sms({ parts: ['single'], priority: 1 })),
      gw.submit(sms({ parts: ['otp'], priority: 0 })),
    ];
    for (const out of await Promise.all(sends)) accepted(out);
    expect([...smsc.messages.values()].map((m) => m.text)).toEqual([
      'bulk 1',
      'otp',
      'single',
      'bulk 2',
      'bulk 3',
      'bulk 4',
      'bulk 5',
    ]);
  });
});

describe('routing', () => {
  it('picks the longest matching prefix, else the default connection', async () => {
    const [a, b] = await Promise.all([
      simulator({ messageIdStart: 1e6 }),
      simulator({ messageIdStart: 9e6 }),
    ]);
    const gw = await gateway([
      connection(a, { name: 'uk', prefixes: ['+44'] }),
      connection(b, { name: 'intl', prefixes: [] }),
      connection(b, { name: 'london', prefixes: ['+4420', '+4421'] }),
    ]);
    const where = async (to: string): Promise<[string, boolean, boolean]> => {
      const out = await gw.submit(sms({ to }));
      const [id] = accepted(out);
      return [(out as { connection: string }).connection, a.messages.has(id!), b.messages.has(id!)];
    };
    expect(await where('+447911123456')).toEqual(['uk', true, false]);
    expect(await where('+442071234567')).toEqual(['london', false, true]);
    expect(await where('+12025550123')).toEqual(['intl', false, true]);
    expect(gw.status().map((s) => [s.name, s.bound])).toEqual([
      ['uk', 1],
      ['intl', 1],
      ['london', 1],
    ]);
  });

  it('rejects a destination without a route', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc, { prefixes: ['+44'] })]);
    const out = await gw.submit(sms({ to: '+12025550123' }));
    expect(out).toMatchObject({ kind: 'rejected', commandStatus: 0 });
    expect((out as { reason: string }).reason).toMatch(/no SMPP route/);
  });

  it('refuses ambiguous configurations', () => {
    const base = { host: '127.0.0.1', port: 2775, systemId: 'w', password: 'p' };
    const make = (prefixes: string[][], names = ['a', 'b']) =>
      createSmppGateway({
        logger: silentLogger,
        connections: prefixes.map((p, i) => ({ ...base, name: names[i]!, prefixes: p })),
      });
    expect(() => make([[], []])).toThrow(/both default/);
    expect(() => make([['+44'], ['+44']])).toThrow(/prefix \+44/);
    expect(() => make([['+44'], []], ['a', 'a'])).toThrow(/duplicate/);
    expect(() => make([['44']])).toThrow(/not '\+' and digits/);
  });
});

describe('receipts', () => {
  it('delivers receipts with the submit_sm_resp id', async () => {
    const smsc = await simulator({ statMix: { UNDELIV: 1 } });
    const gw = await gateway([connection(smsc)]);
    const got: DeliveryReceipt[] = [];
    gw.onReceipt(async (r) => {
      got.push(r);
    });
    const ids = accepted(await gw.submit(sms({ parts: ['one', 'two'] })));
    await until(() => got.length === 2, 3000, 'receipts');
    expect(got.map((r) => r.smscId).sort()).toEqual([...ids].sort());
    expect(got[0]).toMatchObject({ connection: 'main', stat: 'UNDELIV', err: '001' });
    expect(got[0]?.doneAt).toBeInstanceOf(Date);
    expect(got[0]?.raw).toMatch(/^id:\S+ sub:001 .* stat:UNDELIV err:001 text:.* tlv:\{.*"message_state":5/);
    await until(() => smsc.stats().receiptsAcked === 2, 1000, 'acks');
  });

  it('answers deliver_sm only after the handler resolves, and with an error if it rejects', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    const first = deferred();
    const second = deferred();
    const calls: string[] = [];
    gw.onReceipt((r) => {
      calls.push(r.smscId);
      return calls.length === 1 ? first.promise : second.promise;
    });
    accepted(await gw.submit(sms()));
    await until(() => calls.length === 1, 2000, 'handler call');
    await new Promise((r) => setTimeout(r, 100));
    expect(smsc.stats()).toMatchObject({ receiptsSent: 1, receiptsAcked: 0, receiptsNacked: 0 });
    first.resolve();
    await until(() => smsc.stats().receiptsAcked === 1, 1000, 'ack');

    accepted(await gw.submit(sms()));
    await until(() => calls.length === 2, 2000, 'second handler call');
    second.reject(new Error('database down'));
    await until(() => smsc.stats().receiptsNacked === 1, 1000, 'nack');
    expect(smsc.stats().receiptsAcked).toBe(1);
  });

  it.each([
    ['hex', 'decimal', 'none'],
    ['hexUpper', 'decimal', 'decimal'],
    ['decimalPadded', 'hex', 'none'],
    ['decimal', 'same', 'hex'],
  ] as const)('matches %s resp ids to receipts with text id %s / TLV %s', async (format, text, tlv) => {
    const smsc = await simulator({
      messageIdFormat: format,
      receiptIdNotation: text,
      receiptTlvIdNotation: tlv,
    });
    const gw = await gateway([connection(smsc)]);
    const got: DeliveryReceipt[] = [];
    gw.onReceipt(async (r) => {
      got.push(r);
    });
    const [id] = accepted(await gw.submit(sms()));
    await until(() => got.length === 1, 2000, 'receipt');
    const receiptId = got[0]!.smscId;
    if (format !== 'decimal') expect(receiptId).not.toBe(id);
    // The receipt's id, read in the notation the SMSC uses, gives the part's stored key exactly.
    const radix = (f: string): IdRadix => (f.startsWith('hex') ? 'hex' : 'dec');
    const shown: string = tlv !== 'none' ? tlv : text; // the receipted_message_id TLV wins over the text
    const notation = { submit: radix(format), receipt: shown === 'same' ? radix(format) : radix(shown) };
    expect(receiptKey(receiptId, notation)).toBe(canonicalId(id!));
  });
});

describe('MO', () => {
  it('delivers a single MO and answers after the handler', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    const got: MobileOriginated[] = [];
    gw.onMo(async (mo) => {
      got.push(mo);
    });
    const res = await smsc.sendMo({ from: '447911123456', to: 'WREN', text: 'STOP' });
    expect(res.statuses).toEqual([0]);
    expect(got).toMatchObject([{ connection: 'main', from: '+447911123456', to: 'WREN', text: 'STOP' }]);
  });

  it('reassembles a concatenated UCS-2 MO', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    const got: MobileOriginated[] = [];
    gw.onMo(async (mo) => {
      got.push(mo);
    });
    const text = 'Ж'.repeat(100) + ' привет ' + 'ё'.repeat(50);
    const res = await smsc.sendMo({ from: '447911123456', to: '447700000001', text });
    expect(res).toEqual({ parts: 3, statuses: [0, 0, 0] });
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ from: '+447911123456', to: '+447700000001', text });
  });

  it('answers a temporary error when the MO handler fails', async () => {
    const smsc = await simulator();
    const gw = await gateway([connection(smsc)]);
    gw.onMo(async () => {
      throw new Error('nope');
    });
    expect((await smsc.sendMo({ from: '447911123456', to: 'WREN', text: 'hi' })).statuses).toEqual([0x64]);
    const long = await smsc.sendMo({ from: '447911123456', to: 'WREN', text: 'x'.repeat(200) });
    expect([...long.statuses].sort()).toEqual([0, 0x64]);
  });
});
