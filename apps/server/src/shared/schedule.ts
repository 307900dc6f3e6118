import { FieldError } from '../platform/errors';

const MAX_SCHEDULE_MS = 366 * 86_400_000;

/** A send's or campaign's start time: none (now), or a time at least 5 s and at most a year ahead. */
export function parseSchedule(scheduleAt: string | undefined): Date | null {
  if (!scheduleAt) return null;
  const at = new Date(scheduleAt);
  if (at.getTime() <= Date.now() + 5_000)
    throw new FieldError({ scheduleAt: ['Choose a time in the future'] });
  if (at.getTime() > Date.now() + MAX_SCHEDULE_MS) {
    throw new FieldError({ scheduleAt: ['Schedule at most one year ahead'] });
  }
  return at;
}
