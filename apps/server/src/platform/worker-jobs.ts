import type { Jobs } from './jobs';

/** The maintenance pass of the message queue: scheduled → queued, lease reclaim, expiry (pg-boss queue name). */
export const MAINTENANCE_JOB = 'messages.maintenance';
export const MAINTENANCE_SECONDS = 1;
/** Matches parked delivery receipts (receipts that arrived before their parts were stored). */
export const PARKED_SWEEP_JOB = 'dlr.parked-sweep';
export const PARKED_SWEEP_SECONDS = 5;

/**
 * The worker's periodic passes as pg-boss jobs: each runs on one worker node at a time, about every
 * few seconds, and a pass a dead worker was running is picked up by another.
 */
export function registerWorkerJobs(
  jobs: Jobs,
  tasks: { maintenance(): Promise<void>; matchParked(): Promise<unknown> },
): () => void {
  const off = [
    jobs.every(MAINTENANCE_JOB, MAINTENANCE_SECONDS, () => tasks.maintenance()),
    jobs.every(PARKED_SWEEP_JOB, PARKED_SWEEP_SECONDS, async () => {
      await tasks.matchParked();
    }),
  ];
  return () => off.forEach((f) => f());
}
