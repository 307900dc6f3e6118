import type { Db } from '../../platform/db';
import type { LedgerService } from '../ledger/ledger.service';

/**
 * Refunds recipients of a campaign that never became messages, in one ledger entry of their summed
 * price (a cancel's recipients not yet queued; a batch's recipients that opted out before they were
 * queued). `reference` makes it once only. Returns what was credited (0: nothing was due, or the
 * reference was credited before), for the campaign's unsent_refund_minor.
 */
export async function refundUnqueued(
  ledger: LedgerService,
  trx: Db,
  r: { accountId: string; amountMinor: number; reference: string; note: string },
): Promise<number> {
  const credited = await ledger.creditEach(trx, [{ ...r, kind: 'sms_refund' }]);
  return credited.size ? r.amountMinor : 0;
}
