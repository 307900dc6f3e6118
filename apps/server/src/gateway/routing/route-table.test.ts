import { describe, expect, it } from 'vitest';
import { compileRoutes, formatCost, type ConnectionHealth, type RouteDef } from './route-table';
import { PROBE_EVERY, RotationTracker, type RotationChange } from './rotation';

const up: ConnectionHealth = { usable: true };
const healthy = (): ConnectionHealth => up;
const downOf =
  (...down: string[]) =>
  (name: string): ConnectionHealth =>
    down.includes(name) ? { usable: false, why: 'no bind up' } : up;

function route(over: Partial<RouteDef> & Pick<RouteDef, 'prefix'>): RouteDef {
  return {
    id: over.name ?? over.prefix,
    name: over.name ?? `r${over.prefix}`,
    strategy: 'priority',
    entries: [
      { connection: 'a', costMicros: 5000, priority: 1, weight: 1 },
      { connection: 'b', costMicros: 4200, priority: 2, weight: 1 },
    ],
    ...over,
  };
}

const order = (d: ReturnType<ReturnType<typeof compileRoutes>['decide']>) =>
  d?.candidates.map((c) => c.connection);

describe('compileRoutes: matching', () => {
  it('takes the longest prefix first and falls back to shorter ones', () => {
    const table = compileRoutes([
      route({ prefix: '+44', name: 'uk' }),
      route({ prefix: '+4477', name: 'uk-mobile' }),
      route({ prefix: '+', name: 'world' }),
    ]);
    expect(table.decide({ to: '+447700900123' }, healthy)?.route.name).toBe('uk-mobile');
    expect(table.decide({ to: '+442071234567' }, healthy)?.route.name).toBe('uk');
    expect(table.decide({ to: '+33612345678' }, healthy)?.route.name).toBe('world');
  });

  it('answers null when nothing matches, so the connections’ own prefixes apply', () => {
    const table = compileRoutes([route({ prefix: '+44' })]);
    expect(table.decide({ to: '+33612345678' }, healthy)).toBeNull();
    expect(compileRoutes([]).decide({ to: '+44' }, healthy)).toBeNull();
  });

  it('prefers the most specific route of a prefix whose filters match: account, rate plan, sender, lane', () => {
    const table = compileRoutes([
      route({ prefix: '+44', name: 'any' }),
      route({ prefix: '+44', name: 'otp', lane: 'otp' }),
      route({ prefix: '+44', name: 'sender', sender: 'ACME' }),
      route({ prefix: '+44', name: 'plan', ratePlanId: 'gold' }),
      route({ prefix: '+44', name: 'acct', accountId: 'acc-1' }),
    ]);
    const to = '+447700900123';
    expect(table.decide({ to }, healthy)?.route.name).toBe('any');
    expect(table.decide({ to, lane: 'otp' }, healthy)?.route.name).toBe('otp');
    expect(table.decide({ to, lane: 'otp', sender: 'ACME' }, healthy)?.route.name).toBe('sender');
    expect(table.decide({ to, lane: 'otp', sender: 'ACME', ratePlanId: 'gold' }, healthy)?.route.name).toBe(
      'plan',
    );
    expect(table.decide({ to, ratePlanId: 'gold', accountId: 'acc-1' }, healthy)?.route.name).toBe('acct');
    // Another account's route is not this account's, whatever its prefix length.
    expect(table.decide({ to, accountId: 'acc-2' }, healthy)?.route.name).toBe('any');
  });

  it('a longer prefix wins over a more specific shorter one, and a route with no connection is skipped', () => {
    const table = compileRoutes([
      route({ prefix: '+44', name: 'acct', accountId: 'acc-1' }),
      route({ prefix: '+4477', name: 'mobile' }),
      route({ prefix: '+447700', name: 'empty', entries: [] }),
    ]);
    expect(table.decide({ to: '+447700900123', accountId: 'acc-1' }, healthy)?.route.name).toBe('mobile');
  });

  it('refuses a prefix that is not + and digits', () => {
    expect(() => compileRoutes([route({ prefix: '44' })])).toThrow(/not '\+' and digits/);
    expect(() => compileRoutes([route({ prefix: '+44a' })])).toThrow(/not '\+' and digits/);
  });
});

describe('compileRoutes: strategies', () => {
  const to = '+447700900123';

  it('priority: in priority order, a connection that is down goes after the ones that are up', () => {
    const table = compileRoutes([route({ prefix: '+44' })]);
    expect(order(table.decide({ to }, healthy))).toEqual(['a', 'b']);
    const failover = table.decide({ to }, downOf('a'));
    expect(order(failover)).toEqual(['b', 'a']);
    expect(failover?.candidates[1]).toMatchObject({ usable: false, reason: 'no bind up (was: priority 1)' });
    expect(failover?.reason).toBe('route r+44 (+44, priority): b, priority 2, cost 0.0042');
  });

  it('least cost: the cheapest usable first', () => {
    const table = compileRoutes([
      route({
        prefix: '+44',
        strategy: 'least_cost',
        entries: [
          { connection: 'a', costMicros: 5000, priority: 0, weight: 1 },
          { connection: 'b', costMicros: 4200, priority: 0, weight: 1 },
          { connection: 'c', costMicros: 3900, priority: 0, weight: 1 },
        ],
      }),
    ]);
    expect(order(table.decide({ to }, healthy))).toEqual(['c', 'b', 'a']);
    expect(order(table.decide({ to }, downOf('c')))).toEqual(['b', 'a', 'c']);
  });

  it('weighted: splits by weight, never draws a connection that is down or has weight 0', () => {
    const table = compileRoutes([
      route({
        prefix: '+44',
        strategy: 'weighted',
        entries: [
          { connection: 'a', costMicros: 0, priority: 1, weight: 3 },
          { connection: 'b', costMicros: 0, priority: 2, weight: 1 },
          { connection: 'z', costMicros: 0, priority: 0, weight: 0 },
        ],
      }),
    ]);
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const counts: Record<string, number> = {};
    for (let i = 0; i < 8000; i++) {
      const first = table.decide({ to }, healthy, random)?.candidates[0]?.connection ?? '';
      counts[first] = (counts[first] ?? 0) + 1;
    }
    expect(counts.z).toBeUndefined();
    expect((counts.a ?? 0) / 8000).toBeGreaterThan(0.72);
    expect((counts.a ?? 0) / 8000).toBeLessThan(0.78);
    // a down: b is drawn every time; z (weight 0) is failover only, before a that is down.
    for (let i = 0; i < 50; i++)
      expect(order(table.decide({ to }, downOf('a'), random))).toEqual(['b', 'z', 'a']);
  });

  it('quality: the best delivered ratio under the cost ceiling, then the quickest receipts', () => {
    const table = compileRoutes([
      route({
        prefix: '+44',
        strategy: 'quality',
        qualityFloor: 0.8,
        costCeilingMicros: 6000,
        entries: [
          { connection: 'cheap-bad', costMicros: 1000, priority: 0, weight: 1 },
          { connection: 'good', costMicros: 5000, priority: 0, weight: 1 },
          { connection: 'good-fast', costMicros: 5500, priority: 0, weight: 1 },
          { connection: 'best-dear', costMicros: 9000, priority: 0, weight: 1 },
          { connection: 'new', costMicros: 4000, priority: 0, weight: 1 },
        ],
      }),
    ]);
    const figures: Record<string, ConnectionHealth> = {
      'cheap-bad': { usable: true, deliveredRatio: 0.6, receiptP50Ms: 800 },
      good: { usable: true, deliveredRatio: 0.95, receiptP50Ms: 4000 },
      'good-fast': { usable: true, deliveredRatio: 0.95, receiptP50Ms: 1200 },
      'best-dear': { usable: true, deliveredRatio: 0.99, receiptP50Ms: 500 },
      new: { usable: true },
    };
    const d = table.decide({ to }, (n) => figures[n] ?? up);
    // Below the floor is out of rotation: after every connection in it, over the ceiling included.
    expect(order(d)).toEqual(['good-fast', 'good', 'new', 'best-dear', 'cheap-bad']);
    expect(d?.candidates[4]?.reason).toBe(
      "out of rotation: delivered 60%, below the route's floor 80% (was: delivered 60%, receipts p50 800 ms)",
    );
    expect(d?.candidates[3]?.reason).toBe('delivered 99%, receipts p50 500 ms, over the cost ceiling 0.0060');
    expect(d?.candidates[2]?.reason).toBe('no delivery figures yet');
  });
});

describe("rotation: a route's floor, whatever its strategy", () => {
  const to = '+447700900123';
  const floored = (strategy: RouteDef['strategy']) =>
    compileRoutes([
      route({
        prefix: '+44',
        strategy,
        qualityFloor: 0.8,
        entries: [
          { connection: 'a', costMicros: 1000, priority: 1, weight: 1 },
          { connection: 'b', costMicros: 2000, priority: 2, weight: 1 },
        ],
      }),
    ]);

  it('takes a connection below the floor out, and back only at the floor plus the hysteresis', () => {
    const changes: RotationChange[] = [];
    const rotation = new RotationTracker((c) => changes.push(c));
    const ratio: Record<string, number | undefined> = { a: 0.95, b: 0.95 };
    const health = (n: string): ConnectionHealth => ({ usable: true, deliveredRatio: ratio[n] });
    const first = () => floored('priority').decide({ to }, health, Math.random, rotation)?.candidates[0];
    // Probes aside (every PROBE_EVERY-th decision with a connection out), so count decisions.
    expect(first()?.connection).toBe('a');
    ratio.a = 0.79;
    expect(first()?.connection).toBe('b');
    expect(changes).toEqual([
      { routeId: '+44', routeName: 'r+44', connection: 'a', out: true, deliveredRatio: 0.79, floor: 0.8 },
    ]);
    // At the floor, and under the floor plus 5 points: still out (no flapping).
    ratio.a = 0.8;
    expect(first()?.connection).toBe('b');
    ratio.a = 0.84;
    expect(first()?.connection).toBe('b');
    expect(changes).toHaveLength(1);
    ratio.a = 0.85;
    expect(first()?.connection).toBe('a');
    expect(changes.at(-1)).toMatchObject({ connection: 'a', out: false, deliveredRatio: 0.85 });
    expect(changes).toHaveLength(2);
  });

  it('probes a connection out of rotation with one decision in PROBE_EVERY, and keeps it as the last resort', () => {
    const rotation = new RotationTracker();
    const health = (n: string): ConnectionHealth => ({ usable: true, deliveredRatio: n === 'a' ? 0.5 : 0.9 });
    const table = floored('least_cost');
    const firsts = Array.from({ length: PROBE_EVERY * 3 }, () => {
      const d = table.decide({ to }, health, Math.random, rotation);
      return d?.candidates[0]?.connection;
    });
    expect(firsts.filter((c) => c === 'a')).toHaveLength(3);
    const probe = table.decide({ to }, health, Math.random, new StatelessTracker());
    expect(probe?.candidates.map((c) => c.connection)).toEqual(['b', 'a']);
    // b down: a is still there to try.
    const down = (n: string): ConnectionHealth =>
      n === 'b' ? { usable: false, why: 'no bind up' } : { usable: true, deliveredRatio: 0.5 };
    const d = table.decide({ to }, down, Math.random, rotation);
    expect(d?.candidates.map((c) => [c.connection, c.usable])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });

  it('draws weighted traffic among the connections in rotation only', () => {
    const rotation = new RotationTracker();
    const health = (n: string): ConnectionHealth => ({ usable: true, deliveredRatio: n === 'a' ? 0.5 : 0.9 });
    const table = floored('weighted');
    let toA = 0;
    for (let i = 0; i < 200; i++) {
      const d = table.decide({ to }, health, () => 0, rotation);
      if (d?.candidates[0]?.connection === 'a') toA++;
    }
    // a would be drawn every time by random() = 0; out of rotation, it gets only the probes.
    expect(toA).toBe(200 / PROBE_EVERY);
  });
});

/** A tracker that never probes: the order without probes. */
class StatelessTracker extends RotationTracker {
  override probe(): boolean {
    return false;
  }
}

describe('formatCost', () => {
  it('writes micros as an operator writes carrier prices', () => {
    expect(formatCost(4200)).toBe('0.0042');
    expect(formatCost(1)).toBe('0.000001');
    expect(formatCost(12345)).toBe('0.012345');
    expect(formatCost(1_500_000)).toBe('1.5000');
    expect(formatCost(0)).toBe('0.0000');
  });
});
