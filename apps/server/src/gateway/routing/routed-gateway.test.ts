import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, connection, gateway, simulator, sleep, sms, until } from '../smpp-test-kit';
import type { DeliveryReceipt, RoutedOutcome } from '../sms-gateway';
import { ConnectionHealthWindow, HEALTH_MIN_RECEIPTS } from './health-window';
import { routedGateway, type RoutingState } from './routed-gateway';
import { compileRoutes, type RouteDef } from './route-table';

afterEach(cleanup);

const UK: RouteDef = {
  id: 'r1',
  name: 'uk',
  prefix: '+44',
  strategy: 'priority',
  entries: [
    { connection: 'first', costMicros: 5000, priority: 1, weight: 1 },
    { connection: 'second', costMicros: 4200, priority: 2, weight: 1 },
  ],
};

async function twoCarriers(opts: { first?: Parameters<typeof simulator>[0] } = {}) {
  const a = await simulator(opts.first);
  const b = await simulator();
  const inner = await gateway([
    connection(a, { name: 'first', prefixes: ['+1'] }),
    connection(b, { name: 'second', prefixes: [] }),
  ]);
  const paused = new Set<string>();
  const state: RoutingState = { table: compileRoutes([UK]), ratePlanOf: () => undefined };
  const routed = routedGateway(inner, state, { isPaused: (n) => paused.has(n) });
  return { a, b, inner, routed, gw: routed.gateway, paused, state };
}

const connectionOf = (o: RoutedOutcome) => (o.kind === 'accepted' ? o.connection : `${o.kind}: ${o.reason}`);

describe('routedGateway', () => {
  it('sends by the route, and records the decision with its cost', async () => {
    const { gw, a } = await twoCarriers();
    const out = await gw.submit(sms({ to: '+447700900123' }));
    expect(connectionOf(out)).toBe('first');
    expect(out.route).toEqual({
      reason: 'route uk (+44, priority): first, priority 1, cost 0.0050',
      costMicros: 5000,
      routeName: 'uk',
      strategy: 'priority',
    });
    expect(a.stats().submitReceived).toBe(1);
  });

  it('a destination no route matches goes by the connections’ own prefixes, with no route note', async () => {
    const { gw } = await twoCarriers();
    const us = await gw.submit(sms({ to: '+14155550100' }));
    expect(connectionOf(us)).toBe('first');
    expect(us.route).toBeUndefined();
    expect(connectionOf(await gw.submit(sms({ to: '+33612345678' })))).toBe('second');
  });

  it('fails over at once when every bind of the first connection drops, and comes back after it recovers', async () => {
    const { gw, a, b, inner } = await twoCarriers();
    expect(connectionOf(await gw.submit(sms()))).toBe('first');
    // The first carrier goes away (down 1.5 s): the next message goes through the second at once.
    const restart = a.restart({ downMs: 1500 });
    await until(() => (inner.boundOf?.('first') ?? 0) === 0, 2000, 'first unbound');
    const started = Date.now();
    const out = await gw.submit(sms());
    expect(Date.now() - started).toBeLessThan(2000);
    expect(connectionOf(out)).toBe('second');
    expect(out.route?.reason).toBe('route uk (+44, priority): second, priority 2, cost 0.0042');
    expect(b.stats().submitReceived).toBe(1);
    await restart;
    await until(() => (inner.boundOf?.('first') ?? 0) > 0, 5000, 'first bound again');
    expect(connectionOf(await gw.submit(sms()))).toBe('first');
  });

  it('tries a throttled submit once on the next connection, never twice on one', async () => {
    const { gw, a, b } = await twoCarriers({ first: { throttle: { rate: 1 } } });
    const out = await gw.submit(sms());
    expect(connectionOf(out)).toBe('second');
    expect(out.route?.reason).toMatch(/failed over to second/);
    expect(a.stats().throttled).toBe(1);
    expect(a.stats().submitReceived + b.stats().submitReceived).toBe(2);
    // While the first's bind is in its throttle pause, routing passes it over: no submit there.
    const next = await gw.submit(sms());
    expect(connectionOf(next)).toBe('second');
    expect(next.route?.reason).toBe('route uk (+44, priority): second, priority 2, cost 0.0042');
    expect(a.stats().throttled).toBe(1);
    // It stops throttling: once the pause ends, traffic comes back to it.
    a.setOptions({ throttle: undefined });
    await sleep(300);
    expect(connectionOf(await gw.submit(sms()))).toBe('first');
    a.setOptions({ throttle: { rate: 1 } });
    await sleep(300);
    expect(connectionOf(await gw.submit(sms()))).toBe('second');
    // Both throttle: one try on each, then the message waits (retry), never a third submit.
    b.setOptions({ throttle: { rate: 1 } });
    await sleep(300);
    const both = await gw.submit(sms());
    expect(both.kind).toBe('retry');
    expect(both.kind === 'retry' && both.reason).toMatch(/on second, after .* on first/);
    expect(a.stats().throttled).toBe(3);
    expect(b.stats().throttled).toBe(1);
  });

  it('passes over a paused connection, and waits (no submit) when every connection of the route is out', async () => {
    const { gw, paused, a, b } = await twoCarriers();
    paused.add('first');
    expect(connectionOf(await gw.submit(sms()))).toBe('second');
    paused.add('second');
    const out = await gw.submit(sms());
    expect(out).toMatchObject({ kind: 'retry', waiting: true });
    expect(out.kind === 'retry' && out.reason).toMatch(
      /first: paused by an operator .*second: paused by an operator/,
    );
    expect(a.stats().submitReceived).toBe(0);
    expect(b.stats().submitReceived).toBe(1);
  });

  it('applies a new table at once (an operator changed the routes)', async () => {
    const { gw, state } = await twoCarriers();
    expect(connectionOf(await gw.submit(sms()))).toBe('first');
    state.table = compileRoutes([{ ...UK, strategy: 'least_cost' }]);
    const out = await gw.submit(sms());
    expect(connectionOf(out)).toBe('second');
    expect(out.route?.reason).toBe('route uk (+44, least cost): second, cost 0.0042');
    state.table = null;
    expect(connectionOf(await gw.submit(sms({ to: '+447700900123' })))).toBe('second');
  });

  it('quality: moves traffic off a connection that delivers below the floor, from the receipts it stores', async () => {
    // Receipts 50 ms after each submit: one that came before its submit was noted would give no
    // latency (by design), and a loaded machine can take longer than the default 5 ms to note it.
    const a = await simulator({ statMix: { UNDELIV: 1 }, receiptDelayMs: 50 });
    const b = await simulator({ statMix: { DELIVRD: 1 }, receiptDelayMs: 50 });
    const inner = await gateway([
      connection(a, { name: 'first' }),
      connection(b, { name: 'second', prefixes: ['+9'] }),
    ]);
    const window = new ConnectionHealthWindow();
    const state: RoutingState = {
      table: compileRoutes([
        {
          ...UK,
          strategy: 'quality',
          qualityFloor: 0.8,
          entries: [
            { connection: 'first', costMicros: 1000, priority: 0, weight: 1 },
            { connection: 'second', costMicros: 1000, priority: 0, weight: 1 },
          ],
        },
      ]),
      ratePlanOf: () => undefined,
    };
    const { gateway: gw } = routedGateway(inner, state, { isPaused: () => false, window });
    const receipts: DeliveryReceipt[] = [];
    gw.onReceipt(async (r) => {
      receipts.push(r);
    });
    // Both unmeasured: the tie goes to the first listed. Its receipts say it does not deliver.
    for (let i = 0; i < HEALTH_MIN_RECEIPTS; i++) expect(connectionOf(await gw.submit(sms()))).toBe('first');
    await until(() => receipts.length >= HEALTH_MIN_RECEIPTS, 5000, 'receipts');
    const figures = window.figures('first');
    expect(figures).toMatchObject({ deliveredRatio: 0, finalReceipts: HEALTH_MIN_RECEIPTS });
    // Each receipt's time since its submit: the simulator answers at once, so well under a second.
    expect(figures.receiptP50Ms).toBeGreaterThanOrEqual(0);
    expect(figures.receiptP50Ms).toBeLessThan(1000);
    const out = await gw.submit(sms());
    expect(connectionOf(out)).toBe('second');
    expect(out.route?.reason).toBe('route uk (+44, quality): second, no delivery figures yet, cost 0.0010');
  });

  it('never sends a busy connection’s overflow to one out of rotation; it is the last resort only', async () => {
    const poor = await simulator({ statMix: { UNDELIV: 1 } });
    const good = await simulator();
    const inner = await gateway([
      connection(poor, { name: 'poor' }),
      connection(good, { name: 'good', prefixes: ['+9'] }),
    ]);
    const state: RoutingState = {
      table: compileRoutes([
        {
          ...UK,
          qualityFloor: 0.8,
          entries: [
            { connection: 'poor', costMicros: 1000, priority: 1, weight: 1 },
            { connection: 'good', costMicros: 2000, priority: 2, weight: 1 },
          ],
        },
      ]),
      ratePlanOf: () => undefined,
    };
    const changes: string[] = [];
    const { gateway: gw, window } = routedGateway(inner, state, {
      isPaused: () => false,
      onRotation: (c) => changes.push(`${c.connection} ${c.out ? 'out' : 'in'}`),
    });
    gw.onReceipt(async () => undefined);
    for (let i = 0; i < HEALTH_MIN_RECEIPTS; i++) expect(connectionOf(await gw.submit(sms()))).toBe('poor');
    await until(() => window.figures('poor').finalReceipts >= HEALTH_MIN_RECEIPTS, 5000, 'receipts');
    expect(connectionOf(await gw.submit(sms()))).toBe('good');
    expect(changes).toEqual(['poor out']);
    // The good one refuses (throttled): the message waits, it does not spill over to the poor one.
    good.setOptions({ throttle: { rate: 1 } });
    const refused = await gw.submit(sms());
    expect(refused.kind).toBe('retry');
    expect(poor.stats().submitReceived).toBe(HEALTH_MIN_RECEIPTS);
    // Now every bind of the good one is in its throttle pause: the poor one is the last resort.
    const last = await gw.submit(sms());
    expect(connectionOf(last)).toBe('poor');
    expect(last.route?.reason).toMatch(/out of rotation: delivered 0%, below the route's floor 80%/);
  });
});
