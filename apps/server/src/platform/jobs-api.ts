import type { Db } from './db';

/**
 * Background and scheduled work on pg-boss (in the database's `pgboss` schema): contact imports,
 * the maintenance pass, the parked-receipt sweep. Jobs are rows, so a job sent by one node is run by
 * any node that works jobs (`Config.runJobs`), and a job that was running on a node that stopped is
 * picked up by another. Not for per-SMS work: the messages table is the send queue.
 *
 * What the rest of the server sees of it; the runner is createJobs (jobs.ts).
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
