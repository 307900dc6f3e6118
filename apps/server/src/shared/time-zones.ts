import { sql } from 'kysely';
import type { Db } from '../platform/db';

const zones = new WeakMap<Db, Promise<Map<string, string>>>();

/**
 * PostgreSQL's spelling of the time zone `tz` (names match in any case), or null when PostgreSQL does
 * not know it. The runtime's time zones (what the contracts' `timeZoneField` checks) include aliases
 * PostgreSQL's lack (`US/Pacific-New`), and a zone stored from one of them broke every query of the
 * dashboard and the OTP statistics with `AT TIME ZONE`. The list is read once per database handle.
 * Call it with the pool's handle, outside a transaction.
 */
export async function postgresTimeZone(db: Db, tz: string): Promise<string | null> {
  let list = zones.get(db);
  if (!list) {
    list = sql<{ name: string }>`SELECT name FROM pg_timezone_names`
      .execute(db)
      .then(({ rows }) => new Map(rows.map((r) => [r.name.toLowerCase(), r.name])));
    zones.set(db, list);
    list.catch(() => zones.delete(db)); // read again next time
  }
  return (await list).get(tz.trim().toLowerCase()) ?? null;
}
