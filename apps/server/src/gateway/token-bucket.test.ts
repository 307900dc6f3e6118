import { describe, expect, it } from 'vitest';
import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('starts full, refills at the rate and never exceeds the burst', () => {
    const b = new TokenBucket(10, 2, 0);
    expect(b.take(0)).toBe(true);
    expect(b.take(0)).toBe(true);
    expect(b.take(0)).toBe(false);
    expect(b.waitMs(0)).toBe(100);
    expect(b.take(50)).toBe(false);
    expect(b.take(100)).toBe(true);
    expect(b.take(10_000)).toBe(true);
    expect(b.take(10_000)).toBe(true);
    expect(b.take(10_000)).toBe(false);
  });

  it('defaults the burst to a tenth of a second, at least 1', () => {
    expect(new TokenBucket(500).burst).toBe(50);
    expect(new TokenBucket(3).burst).toBe(1);
  });

  it('is unlimited at rate 0', () => {
    const b = new TokenBucket(0, 1, 0);
    for (let i = 0; i < 1000; i++) expect(b.take(0)).toBe(true);
    expect(b.waitMs(0)).toBe(0);
  });
});
