import type { Db } from '../../platform/db';
import { localOf, touchConversation } from './conversations.repository';

/**
 * What the inbound module tells conversations (issue 40 item 1): an inbound message for an account,
 * recorded on its thread in the inbound message's own transaction.
 */
export async function noteInbound(
  trx: Db,
  m: { accountId: string; handset: string; to: string; text: string; at: Date },
): Promise<void> {
  await touchConversation(trx, {
    accountId: m.accountId,
    remote: m.handset,
    local: localOf(m.to),
    text: m.text,
    direction: 'in',
    at: m.at,
  });
}
