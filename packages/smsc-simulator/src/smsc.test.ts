import smpp from 'smpp';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmsc, type SmscHandle } from './index.js';
import type { SmscOptions } from './options.js';
import { receiptFields, TestClient, text } from './test-client.js';

let smsc: SmscHandle | undefined;
const clients: TestClient[] = [];

async function setup(opts: SmscOptions = {}): Promise<SmscHandle> {
  smsc = await startSmsc({ port: 0, receiptDelayMs: 5, onError: (e) => console.error(e), ...opts });
  return smsc;
}

async function client(
  mode?: 'transmitter' | 'receiver' | 'transceiver',
  systemId?: string,
): Promise<TestClient> {
  if (!smsc) throw new Error('no smsc');
  const c = mode ? await TestClient.bound(smsc.port, mode, systemId) : await TestClient.connect(smsc.port);
  clients.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await smsc?.close();
  smsc = undefined;
});

describe('binding', () => {
  it('accepts all three bind types with valid credentials', async () => {
    const h = await setup({ credentials: [{ systemId: 'acme', password: 'pw' }] });
    const c = await client();
    const tx = await c.bind('transmitter', 'acme', 'pw');
    expect(tx.command).toBe('bind_transmitter_resp');
    expect(tx.command_status).toBe(smpp.ESME_ROK);
    expect(tx.system_id).toBe('WrenSMSC');
    expect((await c.bind('receiver', 'acme', 'pw')).command_status).toBe(smpp.ESME_RALYBND);
    const rx = await client();
    expect((await rx.bind('receiver', 'acme', 'pw')).command_status).toBe(0);
    const trx = await client();
    expect((await trx.bind('transceiver', 'acme', 'pw')).command_status).toBe(0);
    expect(h.stats()).toMatchObject({ binds: 3, boundSessions: 3 });
  });

  it('rejects unknown system_id and wrong password', async () => {
    const h = await setup();
    const c = await client();
    expect((await c.bind('transceiver', 'nobody', 'wrenpass')).command_status).toBe(smpp.ESME_RBINDFAIL);
    expect((await c.bind('transceiver', 'wren', 'nope')).command_status).toBe(smpp.ESME_RINVPASWD);
    expect(h.stats().bindFailures).toBe(2);
  });

  it('rejects submit before bind and on a receiver bind', async () => {
    await setup();
    const c = await client();
    expect((await c.submit({ short_message: 'x' })).command_status).toBe(smpp.ESME_RINVBNDSTS);
    await c.bind('receiver');
    expect((await c.submit({ short_message: 'x' })).command_status).toBe(smpp.ESME_RINVBNDSTS);
  });

  it('answers enquire_link, unbind and unknown commands', async () => {
    const h = await setup();
    const c = await client('transceiver');
    expect((await c.request('enquire_link')).command).toBe('enquire_link_resp');
    const nack = await c.request('cancel_sm', { message_id: '1' });
    expect(nack.command).toBe('generic_nack');
    expect(nack.command_status).toBe(smpp.ESME_RINVCMDID);
    expect((await c.request('unbind')).command).toBe('unbind_resp');
    await c.until(() => c.closed);
    expect(h.stats()).toMatchObject({ unbinds: 1, enquireLinks: 1 });
  });
});

describe('submit and receipts', () => {
  it('returns a message id and sends a well-formed receipt after the response', async () => {
    const h = await setup({
      messageIdFormat: 'decimalPadded',
      messageIdPadLength: 10,
      messageIdStart: 12345,
    });
    const submitted: string[] = [];
    h.on('submit', (m) => submitted.push(m.id));
    const c = await client('transceiver');
    const resp = await c.submit({
      registered_delivery: 1,
      data_coding: 0,
      short_message: 'Your code is 424242 ok?',
    });
    expect(resp.command_status).toBe(0);
    expect(resp.message_id).toBe('0000012345');
    await c.waitReceipts(1);
    const [dlr] = c.receipts();
    expect(c.log).toEqual(['resp:0000012345', 'dlr:0000012345']);
    expect(dlr?.esm_class).toBe(0x04);
    expect(dlr?.source_addr).toBe('4915550001');
    expect(dlr?.destination_addr).toBe('Wren');
    expect(dlr?.receipted_message_id).toBe('0000012345');
    expect(dlr?.message_state).toBe(2);
    expect(text(dlr)).toMatch(
      /^id:0000012345 sub:001 dlvrd:001 submit date:\d{10} done date:\d{10} stat:DELIVRD err:000 text:Your code is 424242 $/,
    );
    const msg = h.messages.get('0000012345');
    expect(msg).toMatchObject({
      source: 'Wren',
      dest: '4915550001',
      text: 'Your code is 424242 ok?',
      dataCoding: 0,
    });
    expect(msg?.finalStat).toBe('DELIVRD');
    expect(submitted).toEqual(['0000012345']);
    await c.until(() => h.stats().receiptsAcked === 1);
  });

  it('sends no receipt without registered_delivery and honours failure-only receipts', async () => {
    const h = await setup({ statByDestination: (d) => (d.endsWith('9') ? 'UNDELIV' : undefined) });
    const c = await client('transceiver');
    await c.submit({ registered_delivery: 0, short_message: 'a' });
    await c.submit({ registered_delivery: 2, short_message: 'b', destination_addr: '100' });
    const failed = await c.submit({ registered_delivery: 2, short_message: 'c', destination_addr: '109' });
    await c.waitReceipts(1);
    await new Promise((r) => setTimeout(r, 30));
    expect(c.receipts().map((p) => p.receipted_message_id)).toEqual([failed.message_id]);
    expect(h.stats().submitted).toBe(3);
  });

  it('forces final states per destination with nonzero error codes and TLVs', async () => {
    const stats = { '1': 'UNDELIV', '2': 'EXPIRED', '3': 'REJECTD' } as const;
    await setup({ statByDestination: (d) => stats[d as keyof typeof stats] });
    const c = await client('transceiver');
    for (const dest of ['1', '2', '3', '4']) {
      await c.submit({ registered_delivery: 1, destination_addr: dest, short_message: `to ${dest}` });
    }
    await c.waitReceipts(4);
    const byDest = new Map(c.receipts().map((p) => [p.source_addr, p]));
    const check = (dest: string, stat: string, state: number, err: string): void => {
      const p = byDest.get(dest);
      const parsed = receiptFields(text(p!));
      expect(parsed).toMatchObject({ stat, err, dlvrd: stat === 'DELIVRD' ? '001' : '000' });
      expect(p?.message_state).toBe(state);
    };
    check('1', 'UNDELIV', 5, '001');
    check('2', 'EXPIRED', 3, '003');
    check('3', 'REJECTD', 8, '008');
    check('4', 'DELIVRD', 2, '000');
    expect(byDest.get('1')?.network_error_code).toEqual(Buffer.from([3, 0, 1]));
  });

  it('routes receipts to a receiver of the same system_id and holds them until one binds', async () => {
    const h = await setup({
      credentials: [
        { systemId: 'wren', password: 'wrenpass' },
        { systemId: 'other', password: 'wrenpass' },
      ],
    });
    const tx = await client('transmitter');
    const foreign = await client('receiver', 'other');
    const resp = await tx.submit({ registered_delivery: 1, short_message: 'hold me' });
    await tx.until(() => h.stats().receiptsPending === 1);
    const rx = await client('receiver');
    await rx.waitReceipts(1);
    expect(rx.receipts()[0]?.receipted_message_id).toBe(resp.message_id);
    expect(foreign.delivered).toHaveLength(0);
    expect(h.stats().receiptsPending).toBe(0);
  });

  it('uses hex ids in responses and decimal ids in receipt text when configured', async () => {
    await setup({ messageIdFormat: 'hexUpper', messageIdStart: 0xabc, receiptIdNotation: 'decimal' });
    const c = await client('transceiver');
    const resp = await c.submit({ registered_delivery: 1, short_message: 'quirk' });
    expect(resp.message_id).toBe('ABC');
    await c.waitReceipts(1);
    const dlr = c.receipts()[0];
    expect(receiptFields(text(dlr)).id).toBe(String(0xabc));
    expect(dlr.receipted_message_id).toBe('ABC');
  });

  it('can render or omit the receipted_message_id TLV independently', async () => {
    const h = await setup({ messageIdFormat: 'decimal', messageIdStart: 255, receiptTlvIdNotation: 'hex' });
    const c = await client('transceiver');
    await c.submit({ registered_delivery: 1, short_message: 'a' });
    await c.waitReceipts(1);
    expect(c.receipts()[0]?.receipted_message_id).toBe('ff');
    h.setOptions({ receiptTlvIdNotation: 'none' });
    await c.submit({ registered_delivery: 1, short_message: 'b' });
    await c.waitReceipts(2);
    expect(c.receipts()[1]?.receipted_message_id).toBeUndefined();
    expect(receiptFields(text(c.receipts()[1])).id).toBe('256');
  });

  it('records UCS-2 messages and answers query_sm', async () => {
    const h = await setup();
    const c = await client('transceiver');
    const resp = await c.submit({ registered_delivery: 1, data_coding: 8, short_message: 'Привет, мир 👋' });
    const msg = h.messages.get(resp.message_id!);
    expect(msg).toMatchObject({ dataCoding: 8, text: 'Привет, мир 👋' });
    expect(msg?.shortMessage).toEqual(Buffer.from('Привет, мир 👋', 'utf16le').swap16());
    await c.waitReceipts(1);
    expect(receiptFields(text(c.receipts()[0])).text).toBe('??????, ??? ?');
    const q = await c.request('query_sm', { message_id: resp.message_id });
    expect(q.message_state).toBe(2);
    expect((await c.request('query_sm', { message_id: 'nope' })).command_status).toBe(smpp.ESME_RQUERYFAIL);
  });

  it('records concatenated parts (UDH 8/16-bit and SAR), each with its own id and receipt', async () => {
    const h = await setup();
    const c = await client('transceiver');
    const udh8 = (seq: number): Buffer => Buffer.from([5, 0x00, 3, 0x42, 2, seq]);
    const udh16 = Buffer.from([6, 0x08, 4, 0x12, 0x34, 2, 1]);
    const r1 = await c.submit({
      registered_delivery: 1,
      short_message: { udh: udh8(1), message: 'part one ' },
    });
    const r2 = await c.submit({
      registered_delivery: 1,
      short_message: { udh: udh8(2), message: 'part two' },
    });
    const r3 = await c.submit({
      registered_delivery: 1,
      data_coding: 8,
      short_message: { udh: udh16, message: 'ж' },
    });
    const r4 = await c.submit({
      registered_delivery: 1,
      short_message: 'sar',
      sar_msg_ref_num: 7,
      sar_total_segments: 3,
      sar_segment_seqnum: 3,
    });
    const ids = [r1, r2, r3, r4].map((r) => r.message_id!);
    expect(new Set(ids).size).toBe(4);
    const [m1, m2, m3, m4] = ids.map((id) => h.messages.get(id)!);
    expect(m1?.concat).toEqual({ ref: 0x42, total: 2, seq: 1, scheme: 'udh8' });
    expect(m1?.esmClass & 0x40).toBe(0x40);
    expect(m1?.udh).toEqual(udh8(1));
    expect(m1?.shortMessage.subarray(0, 6)).toEqual(udh8(1));
    expect(m1.text + m2.text).toBe('part one part two');
    expect(m2?.concat?.seq).toBe(2);
    expect(m3).toMatchObject({
      text: 'ж',
      dataCoding: 8,
      concat: { ref: 0x1234, total: 2, seq: 1, scheme: 'udh16' },
    });
    expect(m4?.concat).toEqual({ ref: 7, total: 3, seq: 3, scheme: 'sar' });
    await c.waitReceipts(4);
    expect(c.receipts().map((p) => p.receipted_message_id)).toEqual(ids);
  });
});

describe('mobile originated', () => {
  it('sends GSM-7 and UCS-2 deliver_sm with esm_class 0, splitting long texts', async () => {
    const h = await setup();
    const c = await client('receiver');
    const mos: string[] = [];
    h.on('mo', (mo) => mos.push(mo.text));
    expect(await h.sendMo({ from: '4915550002', to: 'Wren', text: 'STOP' })).toEqual({
      parts: 1,
      statuses: [0],
    });
    await h.sendMo({ from: '4915550002', to: 'Wren', text: 'Привет' });
    const long = 'Ж'.repeat(100);
    expect((await h.sendMo({ from: '4915550002', to: 'Wren', text: long })).parts).toBe(2);
    const [gsm, ucs, p1, p2] = c.delivered;
    expect(gsm).toMatchObject({
      esm_class: 0,
      data_coding: 0,
      source_addr: '4915550002',
      destination_addr: 'Wren',
    });
    expect(text(gsm)).toBe('STOP');
    expect(ucs?.data_coding).toBe(8);
    expect(text(ucs)).toBe('Привет');
    expect(p1?.esm_class).toBe(0x40);
    const udh = (p: typeof p1): number[] => {
      const sm = p?.short_message as smpp.DecodedMessage;
      return [...(sm.udh?.[0] ?? [])];
    };
    expect(udh(p1)).toEqual([0, 3, udh(p1)[2], 2, 1]);
    expect(udh(p2)[4]).toBe(2);
    expect(text(p1) + text(p2)).toBe(long);
    expect(h.stats()).toMatchObject({ moSent: 3, moPartsSent: 4 });
    expect(mos).toEqual(['STOP', 'Привет', long]);
  });

  it('rejects MO when no receiver is bound', async () => {
    const h = await setup();
    await client('transmitter');
    await expect(h.sendMo({ from: '1', to: '2', text: 'x' })).rejects.toThrow(/no bound receiver/);
  });
});
