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

/**
 * Sets each part's final stat and error once (only final stats are stored, so a part with a stat is
 * done); a later or duplicate receipt changes nothing.
 */
export async function setPartStats(
  trx: Db,
  rows: { message_id: string; part: number; stat: string; err: string | null }[],
) {
  if (rows.length === 0) return [];
  const res = await sql<{ message_id: string; part: number }>`
    UPDATE message_parts p SET stat = v.stat, err = v.err
      FROM (SELECT unnest(${rows.map((r) => r.message_id)}::uuid[]) AS message_id,
                   unnest(${rows.map((r) => r.part)}::int[]) AS part,
                   unnest(${rows.map((r) => r.stat)}::text[]) AS stat,
                   unnest(${rows.map((r) => r.err)}::text[]) AS err) v
     WHERE p.message_id = v.message_id AND p.part = v.part
       AND p.stat IS NULL
 RETURNING p.message_id, p.part`.execute(trx);
  return res.rows;
}

/** Per message: its parts in order, with the stat and error of those that are done. */
export async function partProgress(trx: Db, messageIds: string[]) {
  if (messageIds.length === 0) return [];
  const res = await sql<{
    message_id: string;
    connection: string;
    stats: (string | null)[];
    errs: (string | null)[];
  }>`
    SELECT message_id, min(connection) AS connection,
           array_agg(stat ORDER BY part) AS stats, array_agg(err ORDER BY part) AS errs
      FROM (SELECT DISTINCT ON (message_id, part) message_id, part, connection, stat, err
              FROM message_parts WHERE message_id = ANY(${messageIds}::uuid[])
             ORDER BY message_id, part, stat NULLS LAST) p
     GROUP BY message_id`.execute(trx);
  return res.rows;
}
