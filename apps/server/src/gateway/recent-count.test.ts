import { describe, expect, it } from 'vitest';
import { RecentCount } from './recent-count';

describe('RecentCount', () => {
  it('counts the events of the last minute and forgets older ones', () => {
    let now = 1_000_000_000;
    const c = new RecentCount(() => now);
    c.add();
    c.add();
    now += 25_000;
    c.add();
    expect(c.lastMinute()).toBe(3);
    now += 40_000; // the first two are 65 s old now
    expect(c.lastMinute()).toBe(1);
    now += 60_000;
    expect(c.lastMinute()).toBe(0);
    c.add();
    expect(c.lastMinute()).toBe(1);
  });
});
