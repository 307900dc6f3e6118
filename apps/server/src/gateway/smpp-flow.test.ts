import { afterEach, describe, expect, it, vi } from 'vitest';
import { advanceUntil, cleanup, connection, fakeTime, gateway, simulator, sms, until } from './smpp-test-kit';

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

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
    const clock = fakeTime();
    const smsc = await simulator({ slowResponseMs: 150 });
    const gw = await gateway([connection(smsc, { window: 4, clock })]);
    const arrivals: number[] = []; // faked time at which the SMSC read each submit
    let maxInFlight = 0;
    smsc.on('submit', () => {
      arrivals.push(Date.now());
      maxInFlight = Math.max(maxInFlight, gw.status()[0]!.inFlight);
    });
    const t = Date.now();
    const all = Promise.all(Array.from({ length: 16 }, () => gw.submit(sms())));
    // Each response takes 150 ms: the next 4 go out only as the previous 4 are answered.
    for (let round = 1; round <= 4; round++) {
      await until(() => arrivals.length >= round * 4, 2000, `round ${round}`);
      expect(arrivals).toHaveLength(round * 4);
      await vi.advanceTimersByTimeAsync(150);
    }
    const outs = await all;
    expect(outs.every((o) => o.kind === 'accepted')).toBe(true);
    // The SMSC never sees more than 4 submits within 150 ms...
    expect(maxInWindow(arrivals, 150)).toBe(4);
    expect(maxInFlight).toBe(4);
    // ...and 16 submits need 4 rounds.
    expect(Date.now() - t).toBe(4 * 150);
  });

  it('spreads submits over the binds of a connection', async () => {
    const clock = fakeTime();
    const smsc = await simulator({ slowResponseMs: 100 });
    const gw = await gateway([connection(smsc, { binds: 3, window: 2, clock })]);
    let arrived = 0;
    let maxInFlight = 0;
    smsc.on('submit', () => {
      arrived++;
      maxInFlight = Math.max(maxInFlight, gw.status()[0]!.inFlight);
    });
    const t = Date.now();
    const all = Promise.all(Array.from({ length: 12 }, () => gw.submit(sms())));
    // 2 rounds of 6 (3 binds × window 2), not 6 rounds of 2.
    await until(() => arrived === 6, 2000, 'first round');
    await vi.advanceTimersByTimeAsync(100);
    await until(() => arrived === 12, 2000, 'second round');
    await vi.advanceTimersByTimeAsync(100);
    const outs = await all;
    expect(outs.every((o) => o.kind === 'accepted')).toBe(true);
    expect(maxInFlight).toBe(6);
    expect(Date.now() - t).toBe(2 * 100);
    expect(gw.status()[0]).toMatchObject({ binds: 3, bound: 3, inFlight: 0 });
  });

  it('keeps to the TPS limit of each bind', async () => {
    const clock = fakeTime({ date: false }); // the token bucket runs on the connection's clock
    const smsc = await simulator();
    const tps = 40;
    const gw = await gateway([connection(smsc, { tps, tpsBurst: 4, clock })]);
    const arrivals: number[] = []; // faked time at which the SMSC read each submit
    smsc.on('submit', () => arrivals.push(clock.now().getTime()));
    const t = clock.now().getTime();
    const all = Promise.all(Array.from({ length: 50 }, () => gw.submit(sms())));
    // A burst of 4, then one every 25 ms: (50 - 4) / 40 s.
    await until(() => arrivals.length === 4, 2000, 'burst');
    for (let sent = 5; sent <= 50; sent++) {
      await vi.advanceTimersByTimeAsync(24);
      // Not before its token: nothing reserved yet (a reserve happens when the submit is written).
      expect(arrivals.length + gw.status()[0]!.inFlight).toBe(sent - 1);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => arrivals.length === sent, 2000, `submit ${sent}`);
    }
    const outs = await all;
    expect(outs.every((o) => o.kind === 'accepted')).toBe(true);
    expect(clock.now().getTime() - t).toBe(((50 - 4) * 1000) / tps);
    expect(maxInWindow(arrivals, 1000)).toBeLessThanOrEqual(tps + 4);
    expect(maxInWindow(arrivals, 250)).toBeLessThanOrEqual(tps / 4 + 4);
    expect(smsc.stats().throttled).toBe(0);
  });

  it('stays under the SMSC rate limit when configured to match it', async () => {
    const clock = fakeTime(); // one faked timeline for the gateway's bucket and the simulator's
    const smsc = await simulator({ maxTps: 50 });
    const gw = await gateway([connection(smsc, { tps: 45, clock })]);
    let settled = 0;
    const all = Promise.all(Array.from({ length: 40 }, () => gw.submit(sms()).finally(() => settled++)));
    await advanceUntil(() => settled === 40, { stepMs: 5, maxMs: 2000, what: '40 submits' });
    const outs = await all;
    expect(outs.filter((o) => o.kind !== 'accepted')).toEqual([]);
    expect(smsc.stats().tpsLimited).toBe(0);
  });
});
