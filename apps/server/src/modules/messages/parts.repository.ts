import { sql } from 'kysely';
import { genericPlanOk, jsonParam, type Db } from '../../platform/db';

/**
 * The parts of sent messages, each under the canonical form of its SMSC id (gateway/message-id.ts).
 * The dispatcher stores them (outcomes.repository); receipt matching reads and completes them through
 * these functions.
 */

/**
 * Every stored part under one of `keys` on one of `connections` (at most a few per key): one lookup
 * of the primary key per key (a LATERAL subquery is a nested loop; its OFFSET 0 keeps PostgreSQL
 * from flattening it into a join, which it planned as a hash join over a scan of all parts). Written as two `= ANY`
 * conditions, PostgreSQL planned a scan of the whole table once its statistics guessed a dozen rows
 * a key (sequential SMSC ids, stored under more than one notation): 1,026 scans of up to 30,000 rows
 * in one bench:peer run, 4-10 ms each (auto_explain).
 */
export async function findParts(db: Db, connections: string[], keys: string[]) {
  if (keys.length === 0) return [];
  const { rows } = await sql<{
    connection: string;
    smsc_key: string;
    message_id: string;
    part: number;
    stat: string | null;
    created_at: Date;
    /** The final receipt's raw text (null while open): a byte-identical receipt is a duplicate. */
    raw: string | null;
  }>`
    SELECT p.connection, p.smsc_key, p.message_id, p.part, p.stat, p.created_at, p.raw
      FROM unnest(${[...new Set(keys)]}::text[]) AS k(key)
      CROSS JOIN LATERAL (SELECT * FROM message_parts m
                           WHERE m.connection = ANY(${connections}::text[]) AND m.smsc_key = k.key
                           OFFSET 0) p
    ${genericPlanOk}`.execute(db);
  return rows;
}

/**
 * The submit ids (keys) of a connection's open parts stored since `since`, oldest first: after an
 * SMSC changed its id notation, the evidence a new learning starts from (through
 * message_parts_open_idx, which holds only open parts).
 */
export async function openKeysSince(db: Db, connection: string, since: Date, limit: number) {
  const rows = await db
    .selectFrom('message_parts')
    .select('smsc_key')
    .where('stat', 'is', null)
    .where('created_at', '>=', since)
    .where('connection', '=', connection)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.smsc_key);
}

/** One part's final receipt: its stat, error and raw text. */
export interface PartStat {
  message_id: string;
  part: number;
  stat: string;
  err: string | null;
  raw: string | null;
}

/**
 * Sets each part's final stat, error and raw receipt once (only final stats are stored, so a part with a stat is
 * done; a later or duplicate receipt changes nothing), and returns, for every message that had a part
 * changed, all its parts in order with their stat and error as they are now, and which parts this
 * call changed. One statement: the parts are read once, in the update's snapshot with the changed
 * values laid over it, instead of a second statement after the update (bench:pipeline).
 */
export async function settleParts(trx: Db, rows: readonly PartStat[]) {
  if (rows.length === 0) return [];
  // Each part's stat and error by its key, in one jsonb parameter (see status.repository.ts
  // transition: no join with the given rows). The parts are found through their message's index, so
  // one plan fits every batch (genericPlanOk).
  const values = jsonParam(
    Object.fromEntries(
      rows.map((r) => [`${r.message_id.toLowerCase()}:${r.part}`, { stat: r.stat, err: r.err, raw: r.raw }]),
    ),
  );
  const ids = [...new Set(rows.map((r) => r.message_id))];
  const res = await sql<{
    message_id: string;
    connection: string;
    stats: (string | null)[];
    errs: (string | null)[];
    changed: number[];
  }>`
    ${genericPlanOk} WITH changed AS (
      UPDATE message_parts p
         SET (stat, err, raw) = (SELECT x.stat, x.err, x.raw
                                   FROM jsonb_to_record(${values}::jsonb -> (p.message_id::text || ':' || p.part))
                                        AS x(stat text, err text, raw text))
       -- Open parts only, tested on each part found, never as an index condition: on statistics that
       -- say few parts are open, the open parts' index (message_parts_open_idx) was read whole and
       -- filtered by message, which grows with every message waiting for its receipt.
       WHERE p.message_id = ANY(${ids}::uuid[]) AND (CASE WHEN p.stat IS NULL THEN true ELSE false END)
         AND ${values}::jsonb ? (p.message_id::text || ':' || p.part)
   RETURNING p.message_id, p.part, p.connection, p.stat, p.err),
    -- The statement's snapshot still shows the parts as they were: each changed part comes from the
    -- update, the touched messages' other parts from the table (a part stored twice, under two
    -- connections, was set alike in both rows: one is kept). A left join of the parts with the
    -- changed ones ran, on statistics that say few parts are open, as a nested loop that read all
    -- n changed parts again for each part: n² rows for a batch of n (batch-plans.test.ts).
    current_parts AS (
      SELECT DISTINCT ON (message_id, part) message_id, part, connection, stat, err, changed
        FROM (SELECT message_id, part, connection, stat, err, true AS changed FROM changed
              UNION ALL
              SELECT o.message_id, o.part, o.connection, o.stat, o.err, false
                FROM message_parts o
               WHERE o.message_id IN (SELECT message_id FROM changed)) u
       ORDER BY message_id, part, changed DESC, stat NULLS LAST)
    SELECT message_id, min(connection) AS connection,
           array_agg(stat ORDER BY part) AS stats, array_agg(err ORDER BY part) AS errs,
           array_remove(array_agg(CASE WHEN changed THEN part END ORDER BY part), NULL) AS changed
      FROM current_parts
     GROUP BY message_id`.execute(trx);
  return res.rows;
}
