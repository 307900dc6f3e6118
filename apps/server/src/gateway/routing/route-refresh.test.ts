import { describe, expect, it } from 'vitest';
import { silentLogger } from '../smpp-test-kit';
import { startRouteRefresh, type RouteSource } from './route-refresh';
import type { RouteDef } from './route-table';

const route = (over: Partial<RouteDef> = {}): RouteDef => ({
  id: 'r',
  name: 'uk',
  prefix: '+44',
  strategy: 'priority',
  entries: [{ connection: 'a', costMicros: 1, priority: 0, weight: 1 }],
  ...over,
});

function source(initial: RouteDef[]) {
  const s = {
    defs: initial,
    version: 1,
    loads: 0,
    plans: new Map<string, string>(),
    planQueries: [] as string[][],
  };
  const src: RouteSource = {
    version: () => Promise.resolve(String(s.version)),
    load: () => {
      s.loads += 1;
      return Promise.resolve(s.defs);
    },
    accountsOnPlans: (ids) => {
      s.planQueries.push(ids);
      return Promise.resolve(new Map([...s.plans].filter(([, p]) => ids.includes(p))));
    },
  };
  return { s, src };
}

describe('startRouteRefresh', () => {
  it('loads and compiles on a new version only, and keeps the last good table when one does not compile', async () => {
    const { s, src } = source([route()]);
    const r = startRouteRefresh(src, silentLogger);
    await r.refresh();
    expect(r.state.table?.size).toBe(1);
    await r.refresh();
    expect(s.loads).toBe(1);
    // A bad prefix cannot come from the API (it validates), but a table that does not compile
    // must not leave the node with no routes.
    s.defs = [route({ prefix: 'bad' })];
    s.version = 2;
    await r.refresh();
    expect(s.loads).toBe(2);
    expect(r.state.table?.decide({ to: '+447700900123' }, () => ({ usable: true }))?.route.name).toBe('uk');
    // Every route removed: no table, the connections' own prefixes apply.
    s.defs = [];
    s.version = 3;
    await r.refresh();
    expect(r.state.table).toBeNull();
  });

  it('reads the accounts of the plans routes name on every pass, and none when no route names one', async () => {
    const { s, src } = source([route()]);
    const r = startRouteRefresh(src, silentLogger);
    await r.refresh();
    expect(s.planQueries).toEqual([]);
    s.defs = [route({ ratePlanId: 'gold' })];
    s.version = 2;
    s.plans.set('acc-1', 'gold');
    await r.refresh();
    expect(r.state.ratePlanOf('acc-1')).toBe('gold');
    expect(r.state.ratePlanOf('acc-2')).toBeNull();
    // The account moves to another plan, no route changed: the next pass sees it.
    s.plans.set('acc-1', 'silver');
    await r.refresh();
    expect(r.state.ratePlanOf('acc-1')).toBeNull();
    expect(s.planQueries).toEqual([['gold'], ['gold']]);
  });
});
