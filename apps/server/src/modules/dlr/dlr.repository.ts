import { sql } from 'kysely';
import { chunkRows, type Db } from '../../platform/db';
import type { IdNotation } from '../../gateway/message-id';

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

/** Moves sent messages to their final status; never moves a final status again (forward only). */
export async function finishMessages(
  trx: Db,
  rows: { id: string; status: string; stat: string; err: string | null }[],
) {
  if (rows.length === 0) return [];
  const res = await sql<{
    id: string;
    account_id: string;
    campaign_id: string | null;
    price_minor: number;
    status: string;
    smsc_stat: string;
  }>`
    UPDATE messages m SET status = v.status, smsc_stat = v.stat, smsc_err = v.err, done_at = now()
      FROM (SELECT unnest(${rows.map((r) => r.id)}::uuid[]) AS id,
                   unnest(${rows.map((r) => r.status)}::text[]) AS status,
                   unnest(${rows.map((r) => r.stat)}::text[]) AS stat,
                   unnest(${rows.map((r) => r.err)}::text[]) AS err) v
     WHERE m.id = v.id AND m.status IN ('sent', 'sending')
 RETURNING m.id, m.account_id, m.campaign_id, m.price_minor, m.status, m.smsc_stat`.execute(trx);
  return res.rows;
}

export async function park(
  trx: Db,
  rows: {
    connection: string;
    smsc_keys: string[];
    stat: string;
    err: string;
    done_at: Date | null;
    raw: string;
    reason: string;
  }[],
) {
  // smsc_keys is an array column, which unnest would flatten: a multi-row insert, in chunks.
  for (const chunk of chunkRows(rows)) await trx.insertInto('parked_receipts').values(chunk).execute();
}

export async function openParked(db: Db, limit: number) {
  return db
    .selectFrom('parked_receipts')
    .selectAll()
    .where('matched_at', 'is', null)
    .where('attempts', '<', 100)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function markParked(trx: Db, matched: number[], missed: number[]) {
  if (matched.length) {
    await trx
      .updateTable('parked_receipts')
      .set({ matched_at: sql`now()` })
      .where(sql<boolean>`id = ANY(${matched}::bigint[])`)
      .execute();
  }
  if (missed.length) {
    await trx
      .updateTable('parked_receipts')
      .set({ attempts: sql`attempts + 1` })
      .where(sql<boolean>`id = ANY(${missed}::bigint[])`)
      .execute();
  }
}

export async function loadNotations(db: Db) {
  return db.selectFrom('smsc_id_notations').selectAll().execute();
}

export async function saveNotation(db: Db, connection: string, n: IdNotation, evidence: string) {
  await db
    .insertInto('smsc_id_notations')
    .values({ connection, submit_radix: n.submit, receipt_radix: n.receipt, evidence })
    .onConflict((oc) => oc.column('connection').doNothing())
    .execute();
}
