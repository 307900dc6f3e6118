import { afterEach, describe, expect, it, vi } from 'vitest';
import { MoAssembler } from './mo-assembler';

afterEach(() => {
  vi.useRealTimers();
});

const part = (seq: number, total = 3) => ({ ref: 9, total, seq });

describe('MoAssembler', () => {
  it('acknowledges early parts, completes on the last one in any order', () => {
    const expired: string[] = [];
    const a = new MoAssembler<string>(1000, (_m, t) => expired.push(t));
    const replies: number[] = [];
    expect(a.add('k', 'meta', part(3), 'C', (s) => replies.push(s))).toBeUndefined();
    expect(a.add('k', 'meta', part(1), 'A', (s) => replies.push(s))).toBeUndefined();
    expect(replies).toEqual([0, 0]);
    const done = a.add('k', 'meta', part(2), 'B', (s) => replies.push(s));
    expect(done).toMatchObject({ meta: 'meta', text: 'ABC' });
    expect(replies).toEqual([0, 0]); // the completing part waits for the handler
    done?.done(true);
    expect(replies).toEqual([0, 0, 0]);
    expect(a.pending).toBe(0);
    a.clear();
  });

  it('keeps the other parts when the handler fails, so a resend completes it again', () => {
    const a = new MoAssembler<string>(1000, () => undefined);
    const replies: number[] = [];
    const reply = (s: number) => replies.push(s);
    a.add('k', 'm', part(1, 2), 'A', reply);
    a.add('k', 'm', part(2, 2), 'B', reply)?.done(false);
    expect(replies).toEqual([0, 0x64]);
    const again = a.add('k', 'm', part(2, 2), 'B', reply);
    expect(again?.text).toBe('AB');
    again?.done(true);
    expect(replies).toEqual([0, 0x64, 0]);
    a.clear();
  });

  it('hands over an incomplete message after the timeout', () => {
    vi.useFakeTimers();
    const expired: [string, string][] = [];
    const a = new MoAssembler<string>(60_000, (m, t) => expired.push([m, t]));
    a.add('k', 'm', part(1), 'A', () => undefined);
    a.add('k', 'm', part(3), 'C', () => undefined);
    vi.advanceTimersByTime(59_999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual([['m', 'AC']]);
    expect(a.pending).toBe(0);
  });
});
