import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Coalescer } from './coalescer';

describe('Coalescer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires the first call at once, collapses the rest of the window into one trailing call', () => {
    const c = new Coalescer(500);
    const fired: number[] = [];
    for (let i = 0; i < 1000; i += 1) c.run('a', () => fired.push(i));
    expect(fired).toEqual([0]);
    vi.advanceTimersByTime(499);
    expect(fired).toEqual([0]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([0, 999]); // the latest call, not a stale one
    vi.advanceTimersByTime(500);
    expect(fired).toEqual([0, 999]);
    expect(c.size).toBe(0);
  });

  it('keeps a steady stream to one call per window', () => {
    const c = new Coalescer(500);
    let n = 0;
    for (let t = 0; t < 5000; t += 10) {
      c.run('a', () => (n += 1));
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(1000);
    expect(n).toBeGreaterThanOrEqual(10);
    expect(n).toBeLessThanOrEqual(11);
  });

  it('keeps keys apart, and stops firing once closed', () => {
    const c = new Coalescer(500);
    const fired: string[] = [];
    c.run('a', () => fired.push('a1'));
    c.run('b', () => fired.push('b1'));
    c.run('a', () => fired.push('a2'));
    expect(fired).toEqual(['a1', 'b1']);
    c.close();
    vi.advanceTimersByTime(1000);
    c.run('a', () => fired.push('a3'));
    expect(fired).toEqual(['a1', 'b1']);
  });

  it('reports a failing call and carries on', () => {
    const errors: unknown[] = [];
    const c = new Coalescer(500, (err) => errors.push(err));
    c.run('a', () => {
      throw new Error('boom');
    });
    c.run('a', () => undefined);
    vi.advanceTimersByTime(500);
    expect(errors).toHaveLength(1);
  });

  it("keeps a key's own window, trailing windows included", () => {
    const c = new Coalescer(500);
    const fired: string[] = [];
    c.run('slow', () => fired.push('s1'), 3000);
    c.run('fast', () => fired.push('f1'));
    c.run('slow', () => fired.push('s2'), 3000);
    c.run('fast', () => fired.push('f2'));
    vi.advanceTimersByTime(500);
    expect(fired).toEqual(['s1', 'f1', 'f2']);
    c.run('slow', () => fired.push('s3'), 3000);
    vi.advanceTimersByTime(2499);
    expect(fired).toEqual(['s1', 'f1', 'f2']);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['s1', 'f1', 'f2', 's3']); // the latest call, at the end of its 3 s window
    c.run('slow', () => fired.push('s4'), 3000); // inside the trailing 3 s window the trailing call opened
    vi.advanceTimersByTime(2999);
    expect(fired).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(fired.at(-1)).toBe('s4');
  });
});
