import { sql } from 'kysely';
import type { Db } from '../../platform/db';

export async function findParts(db: Db, connections: string[], keys: string[]) {
  if (keys.length === 0) return [];
  return db
    .selectFrom('message_parts')
    .select(['connection', 'smsc_key', 'message_id', 'part', 'stat'])
    .where('connection', 'in', connections)
    .where('smsc_key', 'in', keys)
    .execute();
}

/** Sets a part's final stat once; a later or duplicate receipt for the same part changes nothing. */
export async function setPartStat(trx: Db, messageId: string, part: number, stat: string) {
  const r = await trx
    .updateTable('message_parts')
    .set({ stat })
    .where('message_id', '=', messageId)
    .where('part', '=', part)
    .where((eb) => eb.or([eb('stat', 'is', null), eb('stat', 'not in', ['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED', 'UNKNOWN'])]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Per message: how many distinct parts it has, and the final stats of those that are done. */
export async function partProgress(trx: Db, messageIds: string[]) {
  if (messageIds.length === 0) return [];
  const res = await sql<{ message_id: string; total: number; stats: (string | null)[] }>`
    SELECT message_id, count(DISTINCT part)::int AS total,
           array_agg(stat ORDER BY part) AS stats
      FROM (SELECT DISTINCT ON (message_id, part) message_id, part, stat
              FROM message_parts WHERE message_id IN (${sql.join(messageIds)})
             ORDER BY message_id, part, stat NULLS LAST) p
     GROUP BY message_id`.execute(trx);
  return res.rows;
}

/** Moves a sent message to its final status; never moves a final status again (forward only). */
export async function finishMessage(trx: Db, id: string, status: string, stat: string, err: string | null) {
  return trx
    .updateTable('messages')
    .set({ status, smsc_stat: stat, smsc_err: err, done_at: sql`now()` })
    .where('id', '=', id)
    .where('status', 'in', ['sent', 'sending'])
    .returning(['id', 'account_id', 'campaign_id', 'price_minor'])
    .executeTakeFirst();
}

export async function park(
  trx: Db,
  rows: { connection: string; smsc_keys: string[]; stat: string; err: string; done_at: Date | null; raw: string }[],
) {
  if (rows.length === 0) return;
  await trx.insertInto('parked_receipts').values(rows).execute();
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
    await trx.updateTable('parked_receipts').set({ matched_at: sql`now()` }).where('id', 'in', matched).execute();
  }
  if (missed.length) {
    await trx
      .updateTable('parked_receipts')
      .set({ attempts: sql`attempts + 1` })
      .where('id', 'in', missed)
      .execute();
  }
}
