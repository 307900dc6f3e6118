import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli-args.js';
import { startSmsc, type IdFormat, type SmscHandle, type SmscOptions } from './index.js';
import { MessageIdGenerator } from './message-id.js';
import { receiptFields, TestClient, text } from './test-client.js';

let smsc: SmscHandle | undefined;
const clients: TestClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await smsc?.close();
  smsc = undefined;
});

interface Seen {
  /** submit_sm_resp message_id */
  resp: string;
  /** id: of the receipt text */
  text: string;
  /** receipted_message_id TLV */
  tlv: string | undefined;
}

/** Submit `count` messages (text `m<i>`), wait for every receipt and pair it with its submit. */
async function run(opts: SmscOptions, count: number): Promise<Seen[]> {
  smsc = await startSmsc({ port: 0, receiptDelayMs: 1, onError: (e) => console.error(e), ...opts });
  const c = await TestClient.bound(smsc.port, 'transceiver');
  clients.push(c);
  const resps: string[] = [];
  for (let i = 0; i < count; i++) {
    const r = await c.submit({ registered_delivery: 1, short_message: `m${i}` });
    expect(r.command_status).toBe(0);
    resps.push(r.message_id!);
  }
  await c.waitReceipts(count);
  const byText = new Map(c.receipts().map((p) => [receiptFields(text(p)).text, p]));
  return resps.map((resp, i) => {
    const p = byText.get(`m${i}`);
    if (!p) throw new Error(`no receipt for m${i}`);
    return { resp, text: receiptFields(text(p)).id!, tlv: p.receipted_message_id };
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const RANDOM_HEX = /^[1-9a-f][0-9a-f]{7,15}$/;

describe('idFormat presets', () => {
  it('seq-dec: 1, 2, 3 in the response, the receipt text and the TLV', async () => {
    const seen = await run({ idFormat: 'seq-dec' }, 3);
    expect(seen).toEqual([
      { resp: '1', text: '1', tlv: '1' },
      { resp: '2', text: '2', tlv: '2' },
      { resp: '3', text: '3', tlv: '3' },
    ]);
    expect(smsc!.messages.get('2')?.n).toBe(2n);
  });

  it('seq-hex: sequential from 1 in lowercase hex everywhere', async () => {
    const seen = await run({ idFormat: 'seq-hex' }, 12);
    const expected = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c'];
    expect(seen.map((s) => s.resp)).toEqual(expected);
    expect(seen.map((s) => s.text)).toEqual(expected);
    expect(seen.map((s) => s.tlv)).toEqual(expected);
  });

  it('seq-hex honours an explicit counter start', async () => {
    const seen = await run({ idFormat: 'seq-hex', messageIdStart: 254 }, 3);
    expect(seen).toEqual([
      { resp: 'fe', text: 'fe', tlv: 'fe' },
      { resp: 'ff', text: 'ff', tlv: 'ff' },
      { resp: '100', text: '100', tlv: '100' },
    ]);
  });

  it('random-hex: unique 8-16 digit hex ids, the same in the receipt', async () => {
    const seen = await run({ idFormat: 'random-hex' }, 20);
    for (const s of seen) {
      expect(s.resp).toMatch(RANDOM_HEX);
      expect(s.text).toBe(s.resp);
      expect(s.tlv).toBe(s.resp);
    }
    expect(new Set(seen.map((s) => s.resp)).size).toBe(20);
    // Not a counter in disguise: consecutive ids are not consecutive numbers.
    const nums = seen.map((s) => BigInt(`0x${s.resp}`));
    expect(nums.slice(1).every((n, i) => n !== nums[i]! + 1n)).toBe(true);
  });

  it('uuid: random UUIDs, the same in the receipt', async () => {
    const seen = await run({ idFormat: 'uuid' }, 5);
    for (const s of seen) {
      expect(s.resp).toMatch(UUID);
      expect(s.text).toBe(s.resp);
      expect(s.tlv).toBe(s.resp);
    }
    expect(new Set(seen.map((s) => s.resp)).size).toBe(5);
    expect(smsc!.messages.get(seen[0]!.resp)?.n).toBeUndefined();
  });

  it('zero-padded: 10-digit padded response, unpadded receipt id', async () => {
    const seen = await run({ idFormat: 'zero-padded' }, 3);
    expect(seen).toEqual([
      { resp: '0000000001', text: '1', tlv: '1' },
      { resp: '0000000002', text: '2', tlv: '2' },
      { resp: '0000000003', text: '3', tlv: '3' },
    ]);
  });

  it('hex-resp-dec-receipt: hex response, the same number in decimal in text and TLV', async () => {
    const seen = await run({ idFormat: 'hex-resp-dec-receipt', messageIdStart: 9 }, 3);
    expect(seen).toEqual([
      { resp: '9', text: '9', tlv: '9' },
      { resp: 'a', text: '10', tlv: '10' },
      { resp: 'b', text: '11', tlv: '11' },
    ]);
  });

  it('hex-resp-dec-receipt starts at 1 by default', async () => {
    const seen = await run({ idFormat: 'hex-resp-dec-receipt' }, 1);
    expect(seen).toEqual([{ resp: '1', text: '1', tlv: '1' }]);
  });

  it('explicit id options win over the preset', async () => {
    const seen = await run(
      { idFormat: 'zero-padded', messageIdPadLength: 6, receiptTlvIdNotation: 'none', messageIdStart: 42 },
      2,
    );
    expect(seen).toEqual([
      { resp: '000042', text: '42', tlv: undefined },
      { resp: '000043', text: '43', tlv: undefined },
    ]);
  });

  it('accepts the plain formats as idFormat and keeps the time-based default start', async () => {
    const before = Date.now() * 1000;
    const seen = await run({ idFormat: 'hexUpper', receiptIdNotation: 'decimal' }, 2);
    const first = BigInt(`0x${seen[0]!.resp}`);
    expect(seen[0]!.resp).toMatch(/^[0-9A-F]+$/);
    expect(first).toBeGreaterThanOrEqual(BigInt(before));
    expect(seen[0]!.text).toBe(first.toString(10));
    expect(seen[0]!.tlv).toBe(seen[0]!.resp);
    expect(BigInt(`0x${seen[1]!.resp}`)).toBe(first + 1n);
  });

  it('rejects an unknown idFormat', async () => {
    await expect(startSmsc({ port: 0, idFormat: 'octal' as IdFormat })).rejects.toThrow(/unknown idFormat/);
  });
});

describe('random ids stay unique', () => {
  const submitMany = async (idFormat: IdFormat, total: number): Promise<string[]> => {
    smsc = await startSmsc({ port: 0, idFormat, onError: (e) => console.error(e) });
    const c = await TestClient.bound(smsc.port, 'transmitter');
    clients.push(c);
    const ids: string[] = [];
    for (let sent = 0; sent < total; sent += 500) {
      const batch = await Promise.all(Array.from({ length: 500 }, () => c.submit({ short_message: 'x' })));
      for (const r of batch) ids.push(r.message_id!);
    }
    return ids;
  };

  it.each(['random-hex', 'uuid'] as const)('%s: 10,000 submits, 10,000 distinct ids', async (format) => {
    const ids = await submitMany(format, 10_000);
    expect(ids).toHaveLength(10_000);
    expect(new Set(ids).size).toBe(10_000);
    for (const id of ids) expect(id).toMatch(format === 'uuid' ? UUID : RANDOM_HEX);
    expect(smsc!.stats().submitted).toBe(10_000);
  });

  it('randomHex ids spread over every length from 8 to 16 digits, without duplicates', () => {
    const gen = new MessageIdGenerator(1, 7);
    const ids = Array.from({ length: 100_000 }, () => gen.next('randomHex').id);
    expect(new Set(ids).size).toBe(ids.length);
    const lengths = new Set(ids.map((id) => id.length));
    expect([...lengths].sort((a, b) => a - b)).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16]);
    for (const id of ids.slice(0, 1000)) expect(id).toMatch(RANDOM_HEX);
    // A seed makes the sequence reproducible; another seed gives another sequence.
    const again = new MessageIdGenerator(1, 7);
    expect(ids.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => again.next('randomHex').id));
    const other = new MessageIdGenerator(1, 8);
    expect(other.next('randomHex').id).not.toBe(ids[0]);
  });

  it('the sequential counter is shared across formats switched at runtime', () => {
    const gen = new MessageIdGenerator(255);
    expect(gen.next('hex')).toEqual({ id: 'ff', n: 255n });
    expect(gen.next('decimal')).toEqual({ id: '256', n: 256n });
    expect(gen.next('decimalPadded', 6)).toEqual({ id: '000257', n: 257n });
    expect(gen.next('uuid').n).toBeUndefined();
    expect(gen.next('hexUpper')).toEqual({ id: '102', n: 258n });
  });
});

describe('--id-format flag', () => {
  it('takes presets and plain formats, with --id-start and --id-pad', () => {
    expect(parseCliArgs(['--id-format', 'seq-dec'])).toMatchObject({ idFormat: 'seq-dec' });
    expect(parseCliArgs(['--id-format', 'zero-padded', '--id-pad', '12', '--id-start', '100'])).toMatchObject(
      { idFormat: 'zero-padded', messageIdPadLength: 12, messageIdStart: 100 },
    );
    expect(parseCliArgs(['--id-format', 'decimalPadded'])).toMatchObject({ idFormat: 'decimalPadded' });
    expect(parseCliArgs(['--receipt-tlv-id-notation', 'none'])).toMatchObject({
      receiptTlvIdNotation: 'none',
    });
    expect(() => parseCliArgs(['--id-format', 'octal'])).toThrow(/invalid --id-format/);
    expect(() => parseCliArgs(['--id-start=-1'])).toThrow(/invalid --id-start/);
    expect(() => parseCliArgs(['--id-pad', '1.5'])).toThrow(/invalid --id-pad/);
  });
});
