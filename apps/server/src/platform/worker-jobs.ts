import { EVERY_SECOND_PASSES, type Jobs } from './jobs';

/** The maintenance pass of the message queue: scheduled → queued, lease reclaim, expiry (pg-boss queue name). */
export const MAINTENANCE_JOB = 'messages.maintenance';
export const MAINTENANCE_SECONDS = 1;
/**
 * How often the maintenance job also finalises messages past their validity or receipt deadline
 * (deadlines of minutes to hours: ten seconds late is nothing; a second pass a second was most of an
 * idle worker's statements).
 */
export const MAINTENANCE_DEADLINES_MS = 10_000;
/** Matches parked delivery receipts (receipts that arrived before their parts were stored). */
export const PARKED_SWEEP_JOB = 'dlr.parked-sweep';
export const PARKED_SWEEP_SECONDS = 5;
/** Charges assigned numbers whose paid month has ended (modules/numbers, issue 40 item 0). */
export const NUMBER_RENEWAL_JOB = 'numbers.renewal';
export const NUMBER_RENEWAL_SECONDS = 60;

/**
 * The worker's periodic passes as pg-boss jobs: each runs on one worker node at a time, about every
 * few seconds, and a pass a dead worker was running is picked up by another.
 */
export function registerWorkerJobs(
  jobs: Jobs,
  tasks: {
    maintenance(pass: { reclaim: boolean; deadlines: boolean }): Promise<void>;
    matchParked(): Promise<unknown>;
    renewNumbers?(): Promise<unknown>;
  },
): () => void {
  let deadlinesAt = 0;
  const off = [
    jobs.every(
      MAINTENANCE_JOB,
      MAINTENANCE_SECONDS,
      async () => {
        const deadlines = Date.now() - deadlinesAt >= MAINTENANCE_DEADLINES_MS;
        // Leases are reclaimed by every worker's own timer (dispatcher.ts), not by whoever holds this job.
        await tasks.maintenance({ reclaim: false, deadlines });
        if (deadlines) deadlinesAt = Date.now();
      },
      { group: EVERY_SECOND_PASSES },
    ),
    jobs.every(PARKED_SWEEP_JOB, PARKED_SWEEP_SECONDS, async () => {
      await tasks.matchParked();
    }),
    ...(tasks.renewNumbers
      ? [
          jobs.every(
            NUMBER_RENEWAL_JOB,
            NUMBER_RENEWAL_SECONDS,
            async () => void (await tasks.renewNumbers?.()),
          ),
        ]
      : []),
  ];
  return () => off.forEach((f) => f());
}
