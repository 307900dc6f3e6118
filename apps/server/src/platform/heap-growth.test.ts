import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withTightHeapGrowth } from './heap-growth';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('withTightHeapGrowth', () => {
  it('tightens heap growth while any section runs, and restores V8’s default once the last ends, also after a throw', async () => {
    const flags = vi.spyOn(v8, 'setFlagsFromString');
    let endFirst: () => void = () => undefined;
    const first = withTightHeapGrowth(() => new Promise<void>((r) => (endFirst = r)));
    const second = withTightHeapGrowth(async () => {
      throw new Error('bad file');
    });
    await expect(second).rejects.toThrow('bad file');
    // The first section still runs: growth stays tight.
    expect(flags.mock.calls.map((c) => c[0])).toEqual(['--heap-growing-percent=25']);
    endFirst();
    await first;
    expect(flags.mock.calls.map((c) => c[0])).toEqual([
      '--heap-growing-percent=25',
      '--heap-growing-percent=0',
    ]);
    await withTightHeapGrowth(async () => undefined);
    expect(flags).toHaveBeenCalledTimes(4);
    expect(flags.mock.calls.at(-1)?.[0]).toBe('--heap-growing-percent=0');
  });
});
