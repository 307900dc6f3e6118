import type { Logger } from '../../platform/logger';
import type { RoutingState } from './routed-gateway';
import { compileRoutes, type RouteDef } from './route-table';

/** How often a node asks whether the routes changed: an operator's change applies within this. */
export const ROUTES_REFRESH_MS = 2000;

export interface RouteSource {
  /** A value that changes whenever a route is created, changed or removed. */
  version(): Promise<string>;
  load(): Promise<RouteDef[]>;
  /** The rate plan of each account on one of `planIds` (routes limited to a rate plan). */
  accountsOnPlans(planIds: string[]): Promise<Map<string, string>>;
}

/**
 * Keeps a node's routing state in step with the stored routes: every ROUTES_REFRESH_MS it reads
 * the version, and on a change loads and compiles the routes (a table that does not compile is
 * logged and the last good one kept). Accounts' rate plans, which routes limited to a plan need,
 * are read again on every pass: a plan can change without a route changing.
 */
export function startRouteRefresh(source: RouteSource, logger: Logger) {
  const log = logger.child({ component: 'routing' });
  let seen: string | null = null;
  let plans = new Map<string, string>();
  let planIds: string[] = [];
  const state: RoutingState = {
    table: null,
    // Accounts on a plan no route names answer null: routes limited to a plan do not match them.
    ratePlanOf: (accountId) => plans.get(accountId) ?? null,
  };

  async function refresh(): Promise<void> {
    const version = await source.version();
    if (version !== seen) {
      const defs = await source.load();
      try {
        state.table = defs.length > 0 ? compileRoutes(defs) : null;
        planIds = [...new Set(defs.flatMap((d) => (d.ratePlanId ? [d.ratePlanId] : [])))];
        if (seen !== null) log.info({ routes: defs.length }, 'routes changed: applied');
        seen = version;
      } catch (err) {
        log.error({ err }, 'routes do not compile: the last good routes stay in use');
        seen = version;
      }
    }
    plans = planIds.length > 0 ? await source.accountsOnPlans(planIds) : new Map();
  }

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const loop = () => {
    timer = setTimeout(() => {
      refresh()
        .catch((err: unknown) => log.warn({ err }, 'routes could not be read; the last ones stay in use'))
        .finally(() => {
          if (!stopped) loop();
        });
    }, ROUTES_REFRESH_MS);
    timer.unref();
  };

  return {
    state,
    /** The first read, before the gateway sends anything; then every ROUTES_REFRESH_MS. */
    async start(): Promise<void> {
      await refresh();
      loop();
    },
    /** Reads now (tests, and an operator's change on this node). */
    refresh,
    stop(): void {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
