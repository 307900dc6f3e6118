import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, connection, gateway, simulator, sms } from './smpp-test-kit';

afterEach(cleanup);

/** Largest number of timestamps inside any window of `ms` (sorted input). */
function maxInWindow(times: number[], ms: number): number {
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while ((times[i] ?? 0) - (times[j] ?? 0) >= ms) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

describe('flow control', () => {
  it('never has more than `window` submits outstanding per bind', async () => {
    const smsc = await simulator({ slowResponseMs: 150 });
    const gw = await gateway([connection(smsc, { window: 4 })]);
    const arrivals: number[] = [];
    smsc.on('submit', () => arrivals.push(performance.now()));
    let maxInFlight = 0;
    const probe = setInterval(() => (maxInFlight = Math.max(maxInFlight, gw.status()[0]!.inFlight)), 2);
    const t = Date.now();
    const outs = await Promise.all(Array.from({ length: 16 }, () => gw.submit(sms())));
    clearInterval(probe);
    expect(outs.every((o) => o.kind === 'accepted')).toBe(true);
    // Each response takes 150 ms, so the SMSC never sees more than 4 submits within 145 ms...
    expect(maxInWindow(arrivals, 145)).toBe(4);
    expect(maxInFlight).toBe(4);
    // ...and 16 submits need 4 rounds.
    expect(Date.now() - t).toBeGreaterThanOrEqual(4 * 145);
  });

  it('spreads submits over the binds of a connection', async () => {
    const smsc = await simulator({ slowResponseMs: 100 });
    const gw = await gateway([connection(smsc, { binds: 3, window: 2 })]);
    let maxInFlight = 0;
    const probe = setInterval(() => (maxInFlight = Math.max(maxInFlight, gw.status()[0]!.inFlight)), 2);
    const t = Date.now();
    const outs = await Promise.all(Array.from({ length: 12 }, () => gw.submit(sms())));
    clearInterval(probe);
    expect(outs.every((o) => o.kind === 'accepted')).toBe(true);
    expect(maxInFlight).toBe(6);
    expect(Date.now() - t).toBeLessThan(100 * 4); // 2 rounds of 6, not 6 rounds of 2
    expect(gw.status()[0]).toMatchObject({ binds: 3, bound: 3, inFlight: 0 });
  });

  it('keeps to the TPS limit of each bind', async () => {
    const smsc = await simulator();
    const tps = 40;
    const gw = await gateway([connection(smsc, { tps, tpsBurst: 4 })]);
    const arrivals: number[] = [];
    smsc.on('submit', () => arrivals.push(performance.now()));
    const t = Date.now();
    const outs = await Promise.all(Array.from({ length: 50 }, () => gw.submit(sms())));
    const elapsed = Date.now() - t;
    expect(outs.every((o) => o.kind === 'accepted')).toBe(true);
    // Burst of 4, then one every 25 ms: (50 - 4) / 40 s.
    expect(elapsed).toBeGreaterThanOrEqual(1100);
    expect(elapsed).toBeLessThan(2000);
    expect(maxInWindow(arrivals, 1000)).toBeLessThanOrEqual(tps + 4);
    expect(maxInWindow(arrivals, 250)).toBeLessThanOrEqual(tps / 4 + 4);
    expect(smsc.stats().throttled).toBe(0);
  });

  it('stays under the SMSC rate limit when configured to match it', async () => {
    const smsc = await simulator({ maxTps: 50 });
    const gw = await gateway([connection(smsc, { tps: 45 })]);
    const outs = await Promise.all(Array.from({ length: 40 }, () => gw.submit(sms())));
    expect(outs.filter((o) => o.kind !== 'accepted')).toEqual([]);
    expect(smsc.stats().tpsLimited).toBe(0);
  });
});
