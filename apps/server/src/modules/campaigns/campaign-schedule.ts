import type { Db } from '../../platform/db';
import { FieldError } from '../../platform/errors';
import { postgresTimeZone } from '../../shared/time-zones';

export { parseSchedule } from '../../shared/schedule';

/** Refuses a time zone PostgreSQL does not know (none given is fine). */
export async function checkTimezone(db: Db, tz: string | undefined) {
  if (!tz) return;
  if (!(await postgresTimeZone(db, tz))) throw new FieldError({ timezone: ['Unknown time zone'] });
}
