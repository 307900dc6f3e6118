import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import { afterCommit, type Database, type Db } from './db';
import type { Logger } from './logger';

/**
 * Background and scheduled work on pg-boss (in the database's `pgboss` schema): contact imports,
 * the maintenance pass, the parked-receipt sweep. Jobs are rows, so a job sent by one node is run by
 * any node that works jobs (`Config.runJobs`), and a job that was running on a node that stopped is
 * picked up by another. Not for per-SMS work: the messages table is the send queue.
 */

export interface JobContext {
  /** The pg-boss job id (unique per run). */
  id: string;
  /** Aborts when this node stops: stop between steps and leave the work to another node. */
  signal: AbortSignal;
}

export type JobHandler<T> = (data: T, job: JobContext) => Promise<void>;

export interface QueueOptions {
  /** A job running longer than this counts as failed (pg-boss's expireIn; default 15 minutes). */
  expireInSeconds?: number;
  /** Runs after a failure (default 0: handlers deal with their own failures). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** How often an idle node asks for work (default 1 s). */
  pollSeconds?: number;
  /** pg-boss queue policy: `stately` keeps at most one queued and one running job. */
  policy?: 'standard' | 'stately';
}

export interface PeriodicOptions {
  /**
   * Shares one chain with the other passes of this group (all of one period): a run of the chain
   * runs them side by side, each failure logged on its own. For short database passes: a chain of
   * its own costs PostgreSQL a send, a fetch and a completion per run, most of an idle worker's
   * statements (issue #17). Not for a pass that waits on the outside world (webhook deliveries).
   */
  group?: string;
}

/** The group of the short database passes that run every second (maintenance, campaigns, webhook sweep). */
export const EVERY_SECOND_PASSES = 'passes.every-second';

export interface Jobs {
  /** Whether this node runs handlers (else it only sends). */
  readonly working: boolean;
  /** Declares a queue and, on a node that works jobs, handles it. Returns a function that stops handling it. */
  register<T extends object>(name: string, handler: JobHandler<T>, options?: QueueOptions): () => void;
  /**
   * Runs `run` about every `seconds` on one node at a time (a chain of delayed jobs on a `stately`
   * queue, re-seeded every minute by a cron schedule should the chain break).
   */
  every(
    name: string,
    seconds: number,
    run: (job: JobContext) => Promise<void>,
    options?: PeriodicOptions,
  ): () => void;
  /** A cron schedule (minute resolution) for a registered queue; kept in the database, run once cluster-wide. */
  schedule(name: string, cron: string): void;
  /** Queues a job; with `trx`, inside that transaction (it exists only if the transaction commits). */
  send<T extends object>(
    name: string,
    data: T,
    options?: { trx?: Db; startAfterSeconds?: number },
  ): Promise<void>;
  start(): Promise<void>;
  /** Stops fetching, aborts running handlers' signals and waits for them (bounded). */
  stop(): Promise<void>;
}

interface Registration {
  name: string;
  handler: JobHandler<object>;
  options: QueueOptions;
  /** pg-boss worker id once working. */
  workerId?: string;
  /** Resolves once the queue exists (and is worked here). */
  ready?: Promise<void>;
}

/**
 * pg-boss's settling commands (complete, fail, …): it runs them from a promise nobody awaits, and they
 * end in `SELECT COUNT(*) FROM results`, whose rows[0].count it reads.
 */
const SETTLING = /select\s+count\(\*\)\s+from\s+results\s*$/i;

/**
 * pg-boss's SQL through a Kysely connection (the app's pool, or a transaction). `onSettleLost`: a
 * settling command failed (see runSql); it is told, and pg-boss is answered that nothing was settled.
 */
const executorOf = (
  db: Db,
  underway?: Set<Promise<unknown>>,
  onSettleLost?: (err: unknown) => void,
): PgBoss.Db => ({
  executeSql: async (text, values) => {
    if (!underway) return runSql(db, text, values, onSettleLost);
    const run = runSql(db, text, values, onSettleLost);
    underway.add(run);
    try {
      return await run;
    } finally {
      underway.delete(run);
    }
  },
});

async function runSql(
  db: Db,
  text: string,
  values: unknown[] | undefined,
  onSettleLost?: (err: unknown) => void,
) {
  try {
    const { rows } = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
    return { rows };
  } catch (err) {
    // pg-boss settles a job it ran from a promise nobody awaits: if that fails (the database closed
    // as the node stopped, or restarted and cut the connection: 57P01), the rejection would be
    // unhandled and end the process. Nothing is lost: the job stays active until it expires, then
    // runs again, here or elsewhere. Answer with a count of 0 (nothing settled), not an empty result
    // that pg-boss's rows[0].count would throw on.
    if (SETTLING.test(text)) {
      onSettleLost?.(err);
      return { rows: [{ count: '0' }] };
    }
    if (err instanceof Error && err.message === 'driver has already been destroyed') return { rows: [] };
    throw err;
  }
}

/** The jobs runner of a node; `work`: this node runs handlers (Config.runJobs), else it only sends. */
export function createJobs(opts: { database: Database; logger: Logger; work: boolean }): Jobs {
  const logger = opts.logger.child({ module: 'jobs' });
  /** pg-boss's statements and the handler runs in progress on this node (`stop` waits for them). */
  const underway = new Set<Promise<unknown>>();
  const boss = new PgBoss({
    db: executorOf(opts.database.db, underway, (err) =>
      logger.warn({ err }, 'pg-boss could not settle a job; it runs again once its lease expires'),
    ),
    // The periodic passes complete thousands of jobs an hour: completed jobs move to the archive
    // after 10 minutes (below 60 s pg-boss disables cron) and leave it after 12 hours.
    archiveCompletedAfterSeconds: 600,
    deleteAfterHours: 12,
  });
  boss.on('error', (err: Error & { code?: string }) => {
    // A periodic job whose previous run is still active elsewhere cannot start (the stately
    // queue's unique index): expected, not a fault.
    if (err.code === '23505') logger.debug({ err }, 'pg-boss: job already active');
    else logger.warn({ err }, 'pg-boss error');
  });
  const registrations = new Map<string, Registration>();
  const schedules = new Map<string, string>();
  const seeds = new Set<string>();
  let controller = new AbortController();
  let state: 'idle' | 'starting' | 'started' | 'stopping' = 'idle';
  let starting: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;

  async function activate(r: Registration) {
    const o = r.options;
    // Creating a queue is DDL (a partition with its indexes): nodes starting together on a fresh
    // database can deadlock on it. The loser retries; an existing queue is left as it is.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await boss.createQueue(r.name, {
          name: r.name,
          policy: o.policy ?? 'standard',
          retryLimit: o.retryLimit ?? 0,
          retryDelay: o.retryDelaySeconds ?? 1,
          expireInSeconds: o.expireInSeconds ?? 900,
        });
        break;
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (attempt >= 5 || (code !== '40P01' && code !== '23505')) throw err;
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 100 * attempt));
      }
    }
    if (!opts.work || state === 'stopping') return;
    r.workerId = await boss.work<object>(
      r.name,
      { pollingIntervalSeconds: o.pollSeconds ?? 1, batchSize: 1 },
      async (jobs) => {
        const run = (async () => {
          for (const job of jobs) await r.handler(job.data, { id: job.id, signal: controller.signal });
        })();
        underway.add(run);
        try {
          await run;
        } finally {
          underway.delete(run);
        }
      },
    );
  }

  /** Periodic chains by name: their period in seconds. */
  const periods = new Map<string, number>();
  /** Runs of each periodic chain started on this node, and the chains running here now. */
  const runs = new Map<string, number>();
  const active = new Set<string>();

  /** Asks this node's worker for a job of the queue now (a fetch, instead of its next poll). */
  const ask = (name: string) => {
    const workerId = registrations.get(name)?.workerId;
    if (workerId && state === 'started') boss.notifyWorker(workerId);
  };

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
      if (state !== 'started' || !periods.has(name) || (runs.get(name) ?? 0) !== seen) return;
      ask(name);
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
    ask(name);
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
      const off = jobs.every(group, seconds, async (job) => {
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
    if (state === 'started' && opts.work) void unscheduleOwnChain(name);
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

  const whenReady = async (name: string) => {
    await registrations.get(name)?.ready;
  };

  const unregister = (r: Registration) => () => {
    if (registrations.get(r.name) !== r) return;
    registrations.delete(r.name);
    if (r.workerId && state === 'started') void boss.offWork({ id: r.workerId }).catch(() => undefined);
  };

  const jobs: Jobs = {
    working: opts.work,
    register(name, handler, options = {}) {
      const r: Registration = { name, handler: handler as JobHandler<object>, options };
      registrations.set(name, r);
      if (state === 'started') {
        r.ready = activate(r).catch((err: unknown) =>
          logger.error({ err, queue: name }, 'could not start a job queue'),
        );
      }
      return unregister(r);
    },
    every(name, seconds, run, options = {}) {
      if (options.group) return joinGroup(options.group, name, seconds, run);
      const off = jobs.register(
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
      jobs.schedule(name, '* * * * *');
      if (state === 'started' && opts.work) {
        void whenReady(name)
          .then(() => seed(name))
          .catch((err: unknown) => logger.warn({ err, name }, 'could not queue a periodic job'));
      }
      return () => {
        seeds.delete(name);
        periods.delete(name);
        off();
      };
    },
    schedule(name, cron) {
      schedules.set(name, cron);
      if (state === 'started' && opts.work) {
        void whenReady(name)
          .then(() => boss.schedule(name, cron))
          .catch((err: unknown) => logger.warn({ err, name }, 'schedule failed'));
      }
    },
    async send(name, data, options = {}) {
      await boss.send(name, data, {
        ...(options.trx ? { db: executorOf(options.trx) } : {}),
        ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      });
      // A worker of this node fetches it now instead of at its next poll.
      const workerId = registrations.get(name)?.workerId;
      if (workerId && !options.startAfterSeconds) {
        const notify = () => boss.notifyWorker(workerId);
        if (options.trx) afterCommit(options.trx, notify);
        else notify();
      }
    },
    start: () =>
      (starting ??= (async () => {
        state = 'starting';
        controller = new AbortController();
        await boss.start();
        state = 'started';
        for (const r of registrations.values()) await (r.ready = activate(r));
        if (opts.work) {
          // A chain of their own that an older version left for grouped passes.
          for (const g of groups.values()) for (const name of g.passes.keys()) await unscheduleOwnChain(name);
          for (const [name, cron] of schedules) await boss.schedule(name, cron);
          for (const name of seeds) await seed(name);
        }
      })()),
    stop: () =>
      (stopping ??= (async () => {
        if (starting) await starting.catch(() => undefined);
        if (state !== 'started') return;
        state = 'stopping';
        // Stop fetching first, so work a handler hands back on abort goes to another node.
        for (const r of registrations.values()) {
          if (r.workerId) await boss.offWork({ id: r.workerId }).catch(() => undefined);
        }
        controller.abort();
        await boss.stop({ graceful: true, wait: true, close: false, timeout: 15_000 });
        // pg-boss waits for the jobs its workers hold, not for a fetch still in flight: that fetch
        // returns its job after pg-boss has stopped, and the run would meet a closed database
        // (bench:campaign logged "driver has already been destroyed" from the campaign tick at
        // shutdown). So the node also waits for its own statements and runs to settle.
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 15_000)));
        while (underway.size > 0) {
          const settled = Promise.allSettled([...underway]).then(() => 'settled' as const);
          if ((await Promise.race([settled, late])) === 'late') break;
          // A run's completion is a statement pg-boss starts after the run returns.
          await new Promise((resolve) => setImmediate(resolve));
        }
        clearTimeout(timer);
        state = 'idle';
      })()),
  };
  return jobs;
}
