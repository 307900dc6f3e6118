import { sql } from 'kysely';
import { chunkRows, type Db } from '../../platform/db';
import type { IdNotation } from '../../gateway/message-id';

/** Receipts not matched yet (parked, with the reason) and the learned id notation of each connection. */

export async function park(
  trx: Db,
  rows: {
    connection: string;
    smsc_keys: string[];
    stat: string;
    err: string;
    done_at: Date | null;
    submit_at: Date | null;
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

/** Stores a connection's learned notation, replacing the one it had (learned again after a change). */
export async function saveNotation(db: Db, connection: string, n: IdNotation, evidence: string) {
  await db
    .insertInto('smsc_id_notations')
    .values({ connection, submit_radix: n.submit, receipt_radix: n.receipt, evidence })
    .onConflict((oc) =>
      oc.column('connection').doUpdateSet({
        submit_radix: n.submit,
        receipt_radix: n.receipt,
        evidence,
        decided_at: sql`now()`,
      }),
    )
    .execute();
}

/** Forgets a connection's learned notation (it changed): a restart learns it again, as this node does. */
export async function forgetNotation(db: Db, connection: string) {
  await db.deleteFrom('smsc_id_notations').where('connection', '=', connection).execute();
}
