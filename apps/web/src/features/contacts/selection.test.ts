import { describe, expect, it } from 'vitest';
import { keepListed, toggleAll, toggleOne } from './selection';

describe('selection', () => {
  it('toggles one id without changing the original set', () => {
    const start = new Set(['a']);
    expect([...toggleOne(start, 'b')]).toEqual(['a', 'b']);
    expect([...toggleOne(start, 'a')]).toEqual([]);
    expect([...start]).toEqual(['a']);
  });

  it('selects all listed ids, or clears them when all are selected', () => {
    expect([...toggleAll(new Set(['a']), ['a', 'b', 'c'])].sort()).toEqual(['a', 'b', 'c']);
    expect([...toggleAll(new Set(['a', 'b', 'x']), ['a', 'b'])]).toEqual(['x']);
    expect([...toggleAll(new Set(), [])]).toEqual([]);
  });

  it('drops ids that are no longer listed', () => {
    expect([...keepListed(new Set(['a', 'b']), ['b', 'c'])]).toEqual(['b']);
  });
});
