import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import type { LedgerService } from '../ledger/ledger.service';

/**
 * Refunds each message's price exactly once, set-based: one ledger insert per account that skips
 * messages already refunded (the entry's reference is the message id), then one update marks them.
 */
export async function refundMessages(
  trx: Db,
  ledger: LedgerService,
  rows: readonly { id: string; account_id: string; price_minor: number }[],
) {
  if (rows.length === 0) return;
  const credited = await ledger.creditEach(
    trx,
    rows.map((m) => ({
      accountId: m.account_id,
      amountMinor: m.price_minor,
      kind: 'sms_refund',
      reference: m.id,
      note: 'Refund for a message that was not sent or not delivered',
    })),
  );
  if (credited.size === 0) return;
  await trx
    .updateTable('messages')
    .set({ refunded: true })
    .where(sql<boolean>`id = ANY(${[...credited]}::uuid[])`)
    .execute();
}
