import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { annotate } from './status.repository';

/** The error of a `sent` message whose connection's receipt deadline passed with no final receipt. */
export const NO_RECEIPT_ERROR =
  'No delivery receipt arrived by the deadline of its connection; the outcome is unknown';

/** The same, when a receipt did arrive but did not end the message (interim, unclear, or one part's). */
export const lastReceiptError = (detail: string, at: Date): string =>
  `No final delivery receipt arrived by the deadline of its connection; the last receipt (${at.toISOString()}) was ${detail}; the outcome is unknown`;

/**
 * Messages the receipt deadline just ended as `unknown`: the ones that had a receipt (an interim
 * note such as ENROUTE or ACCEPTD on a connection that reads it as interim, an unclear stat, or one
 * part's final receipt of a multipart message) get an error that names the last one, instead of
 * saying that none arrived. One lookup of the events' (message_id, id) index.
 */
export async function nameLastReceipts(trx: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const { rows } = await sql<{ message_id: string; detail: string | null; created_at: Date }>`
    SELECT DISTINCT ON (message_id) message_id, detail, created_at
      FROM message_events
     WHERE message_id = ANY(${[...ids]}::uuid[]) AND status = 'receipt'
     ORDER BY message_id, id DESC`.execute(trx);
  await annotate(
    trx,
    rows.map((r) => ({ id: r.message_id, error: lastReceiptError(r.detail ?? 'a receipt', r.created_at) })),
  );
}
