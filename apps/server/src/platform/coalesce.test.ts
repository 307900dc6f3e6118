import { describe, expect, it } from 'vitest';
import { coalesced } from './coalesce';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('coalesced lookups', () => {
  it('answers every lookup of one turn of the event loop with one call, in order', async () => {
    const calls: number[][] = [];
    const load = coalesced(async (keys: readonly number[]) => {
      calls.push([...keys]);
      return keys.map((k) => k * 10);
    });
    // Lookups from separate callbacks of the same turn (as requests read from several sockets),
    // each after its own awaited step, still share one call.
    const answers = await Promise.all(
      [1, 2, 3, 2].map(async (k) => {
        await Promise.resolve();
        return load(k);
      }),
    );
    expect(answers).toEqual([10, 20, 30, 20]);
    expect(calls).toEqual([[1, 2, 3, 2]]);
  });

  it('caches nothing: a lookup of a later turn reads again', async () => {
    let value = 'before';
    const calls: string[][] = [];
    const load = coalesced(async (keys: readonly string[]) => {
      calls.push([...keys]);
      return keys.map(() => value);
    });
    expect(await load('a')).toBe('before');
    value = 'after';
    await turn();
    expect(await load('a')).toBe('after');
    expect(calls).toEqual([['a'], ['a']]);
  });

  it('fails only the lookups of the batch whose call failed', async () => {
    let fail = true;
    const load = coalesced(async (keys: readonly number[]) => {
      if (fail) throw new Error('database unavailable');
      return keys.map((k) => k);
    });
    const first = await Promise.allSettled([load(1), load(2)]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await Promise.all([load(3), load(4)])).toEqual([3, 4]);
  });

  it('splits a turn larger than the batch size', async () => {
    const sizes: number[] = [];
    const load = coalesced(async (keys: readonly number[]) => {
      sizes.push(keys.length);
      return [...keys];
    }, 3);
    expect(await Promise.all([1, 2, 3, 4, 5, 6, 7].map((k) => load(k)))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(sizes).toEqual([3, 3, 1]);
  });
});
