import { sql } from 'kysely';
import type { Db } from '../../platform/db';

/**
 * The parts of sent messages, each under the canonical form of its SMSC id (gateway/message-id.ts).
 * The dispatcher stores them (outcomes.repository); receipt matching reads and completes them through
 * these functions.
 */

/** Every stored part under one of `keys` on one of `connections` (at most a few per key). */
export async function findParts(db: Db, connections: string[], keys: string[]) {
  if (keys.length === 0) return [];
  return db
    .selectFrom('message_parts')
    .select(['connection', 'smsc_key', 'message_id', 'part', 'stat', 'created_at'])
    .where(sql<boolean>`connection = ANY(${connections}::text[])`)
    .where(sql<boolean>`smsc_key = ANY(${keys}::text[])`)
    .execute();
}

/** One part's final receipt: its stat and error. */
export interface PartStat {
  message_id: string;
  part: number;
  stat: string;
  err: string | null;
}

/**
 * Sets each part's final stat and error once (only final stats are stored, so a part with a stat is
 * done; a later or duplicate receipt changes nothing), and returns, for every message that had a part
 * changed, all its parts in order with their stat and error as they are now, and which parts this
 * call changed. One statement: the parts are read once, in the update's snapshot with the changed
 * values laid over it, instead of a second statement after the update (bench:pipeline).
 */
export async function settleParts(trx: Db, rows: readonly PartStat[]) {
  if (rows.length === 0) return [];
  const res = await sql<{
    message_id: string;
    connection: string;
    stats: (string | null)[];
    errs: (string | null)[];
    changed: number[];
  }>`
    WITH changed AS (
      UPDATE message_parts p SET stat = v.stat, err = v.err
        FROM (SELECT unnest(${rows.map((r) => r.message_id)}::uuid[]) AS message_id,
                     unnest(${rows.map((r) => r.part)}::int[]) AS part,
                     unnest(${rows.map((r) => r.stat)}::text[]) AS stat,
                     unnest(${rows.map((r) => r.err)}::text[]) AS err) v
       WHERE p.message_id = v.message_id AND p.part = v.part
         AND p.stat IS NULL
   RETURNING p.message_id, p.part, p.stat, p.err),
    -- A part can be stored twice (under two connections); the update set both rows alike.
    done AS (SELECT DISTINCT ON (message_id, part) message_id, part, stat, err FROM changed),
    -- The statement's snapshot still shows the parts as they were: the changed values go over them.
    current_parts AS (
      SELECT DISTINCT ON (o.message_id, o.part) o.message_id, o.part, o.connection,
             COALESCE(d.stat, o.stat) AS stat, CASE WHEN d.stat IS NULL THEN o.err ELSE d.err END AS err,
             d.part IS NOT NULL AS changed
        FROM message_parts o
        LEFT JOIN done d ON d.message_id = o.message_id AND d.part = o.part
       WHERE o.message_id IN (SELECT message_id FROM done)
       ORDER BY o.message_id, o.part, COALESCE(d.stat, o.stat) NULLS LAST)
    SELECT message_id, min(connection) AS connection,
           array_agg(stat ORDER BY part) AS stats, array_agg(err ORDER BY part) AS errs,
           array_remove(array_agg(CASE WHEN changed THEN part END ORDER BY part), NULL) AS changed
      FROM current_parts
     GROUP BY message_id`.execute(trx);
  return res.rows;
}
