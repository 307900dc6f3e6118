import { describe, expect, it } from 'vitest';
import { parseCliArgs, parseDelay, parseMix } from './cli-args.js';
import smpp from 'smpp';
import { encodeGsm7, splitMo } from './encoding.js';
import { createRandom, pickStat, TokenBucket } from './faults.js';
import { formatMessageId, messageIdCandidates, messageIdsMatch, renderIdInNotation } from './message-id.js';
import { formatReceiptText } from './receipt.js';
import { receiptFields } from './test-client.js';

const submitDate = new Date(Date.UTC(2024, 0, 31, 23, 59, 10));
const doneDate = new Date(Date.UTC(2024, 1, 1, 0, 1, 0));

describe('receipt text', () => {
  it('formats the standard layout', () => {
    const t = formatReceiptText({
      id: 'abc123',
      stat: 'DELIVRD',
      submitDate,
      doneDate,
      text: 'Your code is 123456, valid 5 min',
    });
    expect(t).toBe(
      'id:abc123 sub:001 dlvrd:001 submit date:2401312359 done date:2402010001 stat:DELIVRD err:000 text:Your code is 123456,',
    );
  });

  it('uses dlvrd:000 and the given err for failures', () => {
    const t = formatReceiptText({ id: '7', stat: 'UNDELIV', err: 1, submitDate, doneDate });
    expect(t).toContain('dlvrd:000');
    expect(t).toContain('stat:UNDELIV err:001 text:');
  });

  it('writes the fields the simulator tests read back', () => {
    const t = formatReceiptText({
      id: '00ff',
      stat: 'EXPIRED',
      err: '003',
      submitDate,
      doneDate,
      text: 'a stat:X id:1',
    });
    expect(receiptFields(t)).toEqual({
      id: '00ff',
      sub: '001',
      dlvrd: '000',
      'submit date': '2401312359',
      'done date': '2402010001',
      stat: 'EXPIRED',
      err: '003',
      text: 'a stat:X id:1',
    });
  });
});

describe('message ids', () => {
  it('formats the same number in every notation', () => {
    expect(formatMessageId(12345, 'hex')).toBe('3039');
    expect(formatMessageId(0xabcdef, 'hexUpper')).toBe('ABCDEF');
    expect(formatMessageId(12345, 'decimal')).toBe('12345');
    expect(formatMessageId(12345, 'decimalPadded', 10)).toBe('0000012345');
    expect(renderIdInNotation(255, 'hex', 'decimal')).toBe('255');
    expect(renderIdInNotation(255, 'hexUpper', 'hex')).toBe('FF');
    expect(renderIdInNotation(255, 'decimalPadded', 'same', 5)).toBe('00255');
  });

  it('matches ids across notations', () => {
    expect(messageIdsMatch('ff', '255')).toBe(true);
    expect(messageIdsMatch('0000012345', '12345')).toBe(true);
    expect(messageIdsMatch('ABCDEF', 'abcdef')).toBe(true);
    expect(messageIdsMatch('ff', '254')).toBe(false);
    expect(messageIdCandidates('0255')).toEqual(expect.arrayContaining(['0255', '255', 'ff', '597']));
  });
});

describe('helpers', () => {
  it('parses CLI flags', () => {
    const o = parseCliArgs([
      '--port',
      '0',
      '--delay-ms',
      '10-20',
      '--mix',
      'DELIVRD=90,UNDELIV=10',
      '--system-id',
      'x',
    ]);
    expect(o).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      receiptDelayMs: [10, 20],
      statMix: { DELIVRD: 90, UNDELIV: 10 },
      credentials: [{ systemId: 'x', password: 'wrenpass' }],
    });
    expect(parseDelay('50')).toBe(50);
    expect(() => parseMix('FOO=1')).toThrow(/invalid mix/);
    expect(() => parseCliArgs(['--bogus'])).toThrow();
  });

  it('draws final states by weight, deterministically with a seed', () => {
    const draw = (seed: number): string[] => {
      const rand = createRandom(seed);
      return Array.from({ length: 1000 }, () => pickStat({ DELIVRD: 90, REJECTD: 10 }, rand));
    };
    const a = draw(7);
    expect(a).toEqual(draw(7));
    const rejected = a.filter((s) => s === 'REJECTD').length;
    expect(rejected).toBeGreaterThan(50);
    expect(rejected).toBeLessThan(150);
    expect(pickStat({}, Math.random)).toBe('DELIVRD');
  });

  it('limits with a token bucket', () => {
    const b = new TokenBucket();
    const results = Array.from({ length: 5 }, () => b.take(3, 1000));
    expect(results).toEqual([true, true, true, false, false]);
    expect(b.take(3, 1400)).toBe(true);
  });

  it('GSM-7 fast path matches the library encoder', () => {
    for (const t of [
      'id:1 stat:DELIVRD err:000 text:Hi, (ok)?',
      'a@b $5 _x_ [1] €',
      'line\nbreak #%&*+-/;<=>"\'',
    ]) {
      expect(encodeGsm7(t)).toEqual(smpp.encodings.ASCII.encode(t));
    }
  });

  it('splits long MO texts into UDH parts', () => {
    expect(splitMo('hi', 1)).toEqual([{ dataCoding: 0, message: 'hi' }]);
    const gsm = splitMo('x'.repeat(200), 9);
    expect(gsm.map((p) => p.message.length)).toEqual([153, 47]);
    expect([...(gsm[1]?.udh ?? [])]).toEqual([5, 0, 3, 9, 2, 2]);
    const ucs = splitMo('ж'.repeat(71), 1);
    expect(ucs.map((p) => [p.dataCoding, p.message.length])).toEqual([
      [8, 67],
      [8, 4],
    ]);
    const ext = splitMo('€'.repeat(81), 1);
    expect(ext[0]?.message.length).toBe(76);
  });
});
