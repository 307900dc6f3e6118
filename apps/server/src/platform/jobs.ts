import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterCommit, type Database } from './db';
import type { JobHandler, Jobs, QueueOptions } from './jobs-api';
import type { Logger } from './logger';
import { createPeriodicChains } from './periodic-chains';
import { executorOf } from './pg-boss-sql';

/**
 * The jobs runner on pg-boss: queues declared and worked on this node, jobs sent (inside a
 * transaction or not), start and stop. The interface and its options are in jobs-api.ts (re-exported
 * here), the periodic chains in periodic-chains.ts, pg-boss's SQL through Kysely in pg-boss-sql.ts.
 */

export {
  EVERY_SECOND_PASSES,
  type JobContext,
  type JobHandler,
  type Jobs,
  type PeriodicOptions,
  type QueueOptions,
} from './jobs-api';

interface Registration {
  name: string;
  handler: JobHandler<object>;
  options: QueueOptions;
  /** pg-boss worker id once working. */
  workerId?: string;
  /** Resolves once the queue exists (and is worked here). */
  ready?: Promise<void>;
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

  /** Asks this node's worker for a job of the queue now (a fetch, instead of its next poll). */
  const ask = (name: string) => {
    const workerId = registrations.get(name)?.workerId;
    if (workerId && state === 'started') boss.notifyWorker(workerId);
  };

  const whenReady = async (name: string) => {
    await registrations.get(name)?.ready;
  };

  const unregister = (r: Registration) => () => {
    if (registrations.get(r.name) !== r) return;
    registrations.delete(r.name);
    if (r.workerId && state === 'started') void boss.offWork({ id: r.workerId }).catch(() => undefined);
  };

  const chains = createPeriodicChains({
    boss,
    logger,
    work: opts.work,
    started: () => state === 'started',
    register: (name, handler, options) => jobs.register(name, handler, options),
    schedule: (name, cron) => jobs.schedule(name, cron),
    ask,
    whenReady,
  });

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
    every: chains.every,
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
        await startSerialized(opts.database, () => boss.start());
        state = 'started';
        for (const r of registrations.values()) await (r.ready = activate(r));
        if (opts.work) {
          // A chain of their own that an older version left for grouped passes.
          await chains.unscheduleGroupedPasses();
          for (const [name, cron] of schedules) await boss.schedule(name, cron);
          await chains.seedAll();
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

/**
 * pg-boss creates its schema under an advisory lock inside its own transaction, but a node that
 * waited on that lock still checks `CREATE SCHEMA IF NOT EXISTS` against the catalog it saw before
 * the wait, and fails with 23505 on pg_namespace (two workers started at once on a fresh database:
 * the fault run's cluster). Nodes therefore start pg-boss one at a time, under a session lock of our
 * own taken before pg-boss's transaction begins; a failed start cannot simply be retried (pg-boss
 * stays "starting").
 */
async function startSerialized(database: Database, start: () => Promise<unknown>) {
  await database.db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(hashtext('wren.pg-boss.start'))`.execute(conn);
    try {
      await start();
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext('wren.pg-boss.start'))`
        .execute(conn)
        .catch(() => undefined);
    }
  });
}
