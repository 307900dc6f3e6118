import { CompiledQuery } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Db } from './db';

/**
 * pg-boss's settling commands (complete, fail, …): it runs them from a promise nobody awaits, and they
 * end in `SELECT COUNT(*) FROM results`, whose rows[0].count it reads.
 */
const SETTLING = /select\s+count\(\*\)\s+from\s+results\s*$/i;

/**
 * pg-boss's SQL through a Kysely connection (the app's pool, or a transaction). `onSettleLost`: a
 * settling command failed (see runSql); it is told, and pg-boss is answered that nothing was settled.
 */
export const executorOf = (
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
