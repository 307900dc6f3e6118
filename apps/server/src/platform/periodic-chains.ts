import type PgBoss from 'pg-boss';
import type { JobContext, Jobs } from './jobs-api';
import type { Logger } from './logger';

/** What the periodic chains need of the jobs runner that holds them (jobs.ts). */
export interface ChainHost {
  boss: PgBoss;
  logger: Logger;
  /** This node runs handlers (else it only sends). */
  work: boolean;
  /** The runner has started and is not stopping. */
  started(): boolean;
  register: Jobs['register'];
  schedule: Jobs['schedule'];
  /** Asks this node's worker for a job of the queue now (a fetch, instead of its next poll). */
  ask(name: string): void;
  /** Resolves once the queue exists (and is worked here). */
  whenReady(name: string): Promise<void>;
}

export interface PeriodicChains {
  every: Jobs['every'];
  /** At start on a working node: the crons of grouped passes' own chains (from an older version) go. */
  unscheduleGroupedPasses(): Promise<void>;
  /** At start on a working node: the first job of every chain. */
  seedAll(): Promise<void>;
}

/**
 * Periodic work as chains of delayed jobs on `stately` queues: each run queues the next before it
 * works, a cron re-seeds a broken chain every minute, and the node that queued a run asks for it when
 * it is due. Passes of one period may share a chain (PeriodicOptions.group).
 */
export function createPeriodicChains(host: ChainHost): PeriodicChains {
  const { boss, logger } = host;
  /** Periodic chains by name: their period in seconds. */
  const periods = new Map<string, number>();
  /** Chains whose first job is queued at start. */
  const seeds = new Set<string>();
  /** Runs of each periodic chain started on this node, and the chains running here now. */
  const runs = new Map<string, number>();
  const active = new Set<string>();

  /**
   * A periodic chain's next run is asked for when it is due, by the node that queued it, so the
   * queue's poll only has to catch a chain whose node died: a poll every 30 s instead of a fetch
   * every second per chain, most of them finding nothing (issue #17: idle statements).
   */
  const askWhenDue = (name: string, seconds: number) => {
    const seen = runs.get(name) ?? 0;
    let misses = 0;
    // pg-boss settles a job without awaiting it, and a worker asked for work during a run fetches
    // again as soon as the run returns: on a chain's stately queue that fetch can meet the run that
    // just ended still active (its completion in flight), find nothing, and leave the worker waiting
    // a whole poll (bench:campaign's materialiser stopped for 31 s after a pass longer than its
    // second). So the node asks until the run starts: again 0.1, 0.2, 0.4 … s after each miss while
    // the previous run is over (a few times: a run on another node needs no more).
    const check = () => {
      if (!host.started() || !periods.has(name) || (runs.get(name) ?? 0) !== seen) return;
      host.ask(name);
      if (!active.has(name)) misses += 1;
      if (misses > 5) return;
      const again = setTimeout(check, 50 * 2 ** Math.max(1, misses));
      again.unref();
    };
    const due = setTimeout(check, seconds * 1000 + 20);
    due.unref();
  };

  /**
   * The first job of a periodic chain (dropped by the stately queue when one is already queued, e.g.
   * by a node that stopped: asked for again once that one is due too).
   */
  const seed = async (name: string) => {
    await boss.send(name, {});
    host.ask(name);
    askWhenDue(name, periods.get(name) ?? 1);
  };

  /** Chains shared by several passes (PeriodicOptions.group): their period and passes. */
  const groups = new Map<
    string,
    { seconds: number; passes: Map<string, (job: JobContext) => Promise<void>>; off: () => void }
  >();

  const joinGroup = (
    group: string,
    name: string,
    seconds: number,
    run: (job: JobContext) => Promise<void>,
  ) => {
    let g = groups.get(group);
    if (!g) {
      const passes = new Map<string, (job: JobContext) => Promise<void>>();
      const off = every(group, seconds, async (job) => {
        await Promise.all(
          [...passes].map(async ([pass, f]) => {
            try {
              await f(job);
            } catch (err) {
              logger.error({ err, pass }, 'periodic pass failed');
            }
          }),
        );
      });
      g = { seconds, passes, off };
      groups.set(group, g);
    } else if (g.seconds !== seconds) {
      throw new Error(`periodic group ${group} runs every ${g.seconds} s, not every ${seconds} s`);
    }
    g.passes.set(name, run);
    if (host.started() && host.work) void unscheduleOwnChain(name);
    const joined = g;
    return () => {
      if (joined.passes.get(name) !== run) return;
      joined.passes.delete(name);
      if (joined.passes.size === 0 && groups.get(group) === joined) {
        groups.delete(group);
        joined.off();
      }
    };
  };

  /** The cron re-seeding a pass's own chain (from before it joined a group) would queue jobs nobody works. */
  const unscheduleOwnChain = (name: string) =>
    boss.unschedule(name).catch((err: unknown) => logger.warn({ err, name }, 'unschedule failed'));

  const every: Jobs['every'] = (name, seconds, run, options = {}) => {
    if (options.group) return joinGroup(options.group, name, seconds, run);
    const off = host.register(
      name,
      async (_data, job) => {
        runs.set(name, (runs.get(name) ?? 0) + 1);
        active.add(name);
        try {
          // The next run is queued before this one works: a node dying mid-run does not break the chain.
          await boss.send(name, {}, { startAfter: seconds });
          askWhenDue(name, seconds);
          await run(job);
        } finally {
          active.delete(name);
        }
      },
      {
        policy: 'stately',
        expireInSeconds: Math.max(60, seconds * 10),
        // Runs are asked for when due (above), by the node that queued them.
        pollSeconds: 30,
      },
    );
    seeds.add(name);
    periods.set(name, seconds);
    host.schedule(name, '* * * * *');
    if (host.started() && host.work) {
      void host
        .whenReady(name)
        .then(() => seed(name))
        .catch((err: unknown) => logger.warn({ err, name }, 'could not queue a periodic job'));
    }
    return () => {
      seeds.delete(name);
      periods.delete(name);
      off();
    };
  };

  return {
    every,
    async unscheduleGroupedPasses() {
      for (const g of groups.values()) for (const name of g.passes.keys()) await unscheduleOwnChain(name);
    },
    async seedAll() {
      for (const name of seeds) await seed(name);
    },
  };
}
