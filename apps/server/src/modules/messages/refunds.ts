import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import type { LedgerService } from '../ledger/ledger.service';

/**
 * Refunds each message's price exactly once: the ledger entry's reference is the message id, and
 * the ledger ignores a second posting with the same (account, kind, reference).
 */
export async function refundMessages(
  trx: Db,
  ledger: LedgerService,
  rows: { id: string; account_id: string; price_minor: number }[],
) {
  const ids: string[] = [];
  for (const m of rows) {
    if (m.price_minor <= 0) continue;
    const r = await ledger.post(trx, {
      accountId: m.account_id,
      amountMinor: m.price_minor,
      kind: 'sms_refund',
      reference: m.id,
      note: 'Refund for a message that was not sent or not delivered',
    });
    if (r.posted) ids.push(m.id);
  }
  if (ids.length) {
    await trx
      .updateTable('messages')
      .set({ refunded: true })
      .where(sql<boolean>`id = ANY(${ids}::uuid[])`)
      .execute();
  }
}
