import {
  formatMessageId,
  messageIdsMatch,
  renderIdInNotation,
  type IdNotation,
  type MessageIdFormat,
} from '@wren/smsc-simulator';
import { describe, expect, it } from 'vitest';
import { sameSmscId, smscIdKeys } from './message-id';

const FORMATS: MessageIdFormat[] = ['hex', 'hexUpper', 'decimal', 'decimalPadded'];
const NOTATIONS: IdNotation[] = ['same', 'decimal', 'hex'];

describe('smscIdKeys', () => {
  it('gives the canonical id first, then the cross-notation values', () => {
    expect(smscIdKeys('0A1F')).toEqual(['a1f', '2591']);
    expect(smscIdKeys('000123')).toEqual(['123', '291', '7b']);
    expect(smscIdKeys(' 7b ')).toEqual(['7b', '123']);
    expect(smscIdKeys('0')).toEqual(['0']);
    expect(smscIdKeys('msg-ABC.42')).toEqual(['msg-abc.42']);
    expect(smscIdKeys('')).toEqual([]);
  });

  it('matches case differences, leading zeros and hex vs decimal', () => {
    expect(sameSmscId('6A3F0B', '6a3f0b')).toBe(true);
    expect(sameSmscId('00000000001234567890', '1234567890')).toBe(true);
    expect(sameSmscId('499602d2', '1234567890')).toBe(true);
    expect(sameSmscId('1234567890', '499602D2')).toBe(true);
    expect(sameSmscId('1234567890', '1234567891')).toBe(false);
    expect(sameSmscId('abc', 'abd')).toBe(false);
  });

  it('handles ids beyond Number.MAX_SAFE_INTEGER', () => {
    const big = 2n ** 80n + 12345n;
    expect(sameSmscId(big.toString(16).toUpperCase(), big.toString(10).padStart(30, '0'))).toBe(true);
  });

  it('matches every submit_sm_resp format against every receipt notation of the simulator', () => {
    const start = Date.now() * 1000;
    for (const format of FORMATS) {
      for (const notation of NOTATIONS) {
        for (const n of [start, start + 1, start + 99_999, 1, 10, 255]) {
          const resp = formatMessageId(n, format);
          const receipt = renderIdInNotation(n, format, notation);
          expect(sameSmscId(resp, receipt), `${format}/${notation}: ${resp} vs ${receipt}`).toBe(true);
          expect(messageIdsMatch(resp, receipt)).toBe(true); // agrees with the simulator's own helper
        }
      }
    }
  });

  it('keeps neighbouring simulator ids apart within one format', () => {
    const start = Date.now() * 1000;
    for (const format of FORMATS) {
      const seen = new Map<string, number>();
      for (let n = start; n < start + 2000; n++) {
        for (const key of smscIdKeys(formatMessageId(n, format))) {
          expect(seen.get(key) ?? n, `${format} key ${key}`).toBe(n);
          seen.set(key, n);
        }
      }
    }
  });
});
