import { describe, expect, it } from 'vitest';
import { sharedLoad } from './shared-load';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('sharedLoad', () => {
  it('shares one load among callers while it runs, and for as long as its result says', async () => {
    let loads = 0;
    const load = sharedLoad(
      async (key: string) => {
        loads += 1;
        await tick();
        return { key, n: loads };
      },
      (v) => (v.key === 'held' ? 60_000 : 0),
    );
    const [a, b] = await Promise.all([load('now'), load('now')]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
    // Hold 0: the next ask loads again.
    expect((await load('now')).n).toBe(2);
    const held = await load('held');
    expect(await load('held')).toBe(held);
    expect(loads).toBe(3);
  });

  it('does not keep a failed load', async () => {
    let fail = true;
    const load = sharedLoad(
      async () => {
        if (fail) throw new Error('down');
        return 1;
      },
      () => 60_000,
    );
    await expect(load('k')).rejects.toThrow('down');
    fail = false;
    expect(await load('k')).toBe(1);
  });

  it('keeps at most maxKeys results, dropping the oldest', async () => {
    let loads = 0;
    const load = sharedLoad(
      async (key: string) => {
        loads += 1;
        return key;
      },
      () => 60_000,
      2,
    );
    await load('a');
    await load('b');
    await load('c');
    expect(loads).toBe(3);
    await load('c');
    await load('b');
    expect(loads).toBe(3);
    await load('a');
    expect(loads).toBe(4);
  });
});
