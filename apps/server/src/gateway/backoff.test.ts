import { describe, expect, it } from 'vitest';
import { backoffMs, ThrottlePause } from './backoff';

describe('backoffMs', () => {
  it('doubles from the base up to the cap, with jitter in the upper half', () => {
    expect([0, 1, 2, 3, 10].map((a) => backoffMs(a, 1000, 5000, () => 1))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
    expect(backoffMs(2, 1000, 5000, () => 0)).toBe(2000);
    for (let i = 0; i < 100; i++) {
      const d = backoffMs(1, 1000, 30_000);
      expect(d).toBeGreaterThanOrEqual(1000);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });
});

describe('ThrottlePause', () => {
  it('grows only when a throttle follows a finished pause, and resets on success', () => {
    const p = new ThrottlePause(100, 350);
    expect(p.throttled(0)).toEqual({ ms: 100, started: true });
    expect(p.throttled(40)).toEqual({ ms: 60, started: false });
    expect(p.throttled(100)).toEqual({ ms: 200, started: true });
    expect(p.throttled(300)).toEqual({ ms: 350, started: true });
    expect(p.until).toBe(650);
    p.succeeded();
    expect(p.throttled(700)).toEqual({ ms: 100, started: true });
  });
});
