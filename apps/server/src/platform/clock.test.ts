import { describe, expect, it } from 'vitest';
import { createTestClock, nowMs, systemClock } from './clock';

describe('clock', () => {
  it('the system clock reads the wall time', () => {
    const before = Date.now();
    const now = nowMs(systemClock);
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('a test clock stands still until it is advanced or set', () => {
    const clock = createTestClock(new Date('2026-01-01T00:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z');
    clock.advance(90_000);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:01:30.000Z');
    clock.set(Date.UTC(2027, 5, 1));
    expect(nowMs(clock)).toBe(Date.UTC(2027, 5, 1));
    // Each reading is a fresh Date: a caller changing it does not move the clock.
    clock.now().setTime(0);
    expect(nowMs(clock)).toBe(Date.UTC(2027, 5, 1));
  });
});
