import { sql } from 'kysely';
import { afterCommit, type Db } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import { lockAccount, type LedgerService } from '../ledger/ledger.service';
import { insertEvents } from './messages.repository';
import { refundMessages } from './refunds';
import { transition } from './status.repository';

/**
 * The account's opt-out lock, shared: a campaign batch (the materialiser) takes it before it screens
 * its recipients against the suppression list, and holds it until it commits its messages. An
 * opt-out (`cancelWaiting` with a recipient) takes it exclusive after it stored the suppression and
 * before it reads what to cancel, so a batch is either wholly before the opt-out (the opt-out's
 * read sees and cancels its messages) or wholly after it (its screen sees the committed opt-out).
 * Batches do not wait for one another. Held until the transaction ends.
 */
export async function holdOptOuts(trx: Db, accountId: string) {
  await sql`SELECT pg_advisory_xact_lock_shared(hashtextextended(${`opt_outs:${accountId}`}, 0))`.execute(
    trx,
  );
}

/**
 * Cancels, in the caller's transaction, the account's messages still waiting to be sent (queued or
 * scheduled, not leased by a worker), or only those to `recipient`: each refunded once, with `reason`
 * as its error and in its history. An operator locking the account, a number opting out (STOP).
 * Messages already with a worker or the SMSC go on. Returns how many were canceled.
 */
export async function cancelWaiting(
  trx: Db,
  deps: { ledger: LedgerService; events: EventBus },
  f: { accountId: string; recipient?: string; messageId?: string },
  reason: string,
) {
  if (f.recipient !== undefined) {
    // A number's opt-out (its suppression row is already written in this transaction): first wait
    // for the account's campaign batches in flight (holdOptOuts). One may have screened its
    // recipients before the suppression was committed, and not yet committed its messages: this
    // read (READ COMMITTED, a snapshot of its own taken after the wait) then sees them, and cancels
    // the one to this number. A batch that starts after this lock waits for this transaction to
    // end, and its screen then sees the committed opt-out. The caller must hold nothing a batch in
    // flight waits for (the campaign's row, the account's send counter, the account's row in a
    // conflicting mode): it has only inserted the suppression (and the MO), whose foreign-key checks
    // take KEY SHARE on the account row, which a batch's FOR NO KEY UPDATE (its refund) does not wait for.
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`opt_outs:${f.accountId}`}, 0))`.execute(trx);
  }
  // One number's: from the account's recipient index (messages_log_recipient_idx). The whole
  // account's: from the work queue, which has no account column (a rare operator action).
  const { rows } = await sql<{ id: string }>`
    SELECT q.message_id AS id FROM send_queue q JOIN messages m ON m.id = q.message_id
     WHERE m.account_id = ${f.accountId}::uuid AND q.leased_by IS NULL
       ${f.recipient === undefined ? sql`` : sql`AND m.recipient = ${f.recipient}`}
       ${f.messageId === undefined ? sql`` : sql`AND q.message_id = ${f.messageId}::uuid`}`.execute(trx);
  if (rows.length === 0) return 0;
  // The account's row before any message's, the order a campaign's cancel and every refund take
  // them in: moving the messages first and then waiting for the row (the refund) could deadlock
  // with a cancel of their campaign that holds the row and waits for them.
  await lockAccount(trx, f.accountId);
  let canceled = 0;
  const campaignIds = new Set<string>();
  // In slices: one statement per 5,000 messages (the ids travel as one array parameter).
  for (let i = 0; i < rows.length; i += 5_000) {
    const moved = await transition(trx, {
      to: 'canceled',
      from: ['queued', 'scheduled'],
      accountId: f.accountId,
      rows: rows.slice(i, i + 5_000).map((r) => r.id),
      error: reason,
    });
    await refundMessages(trx, deps.ledger, moved);
    await insertEvents(
      trx,
      moved.map((m) => ({ message_id: m.id, status: 'canceled', detail: reason })),
    );
    for (const m of moved) if (m.campaign_id) campaignIds.add(m.campaign_id);
    canceled += moved.length;
  }
  if (canceled > 0) {
    afterCommit(trx, () =>
      deps.events.publish('messages.changed', { accountId: f.accountId, campaignIds: [...campaignIds] }),
    );
  }
  return canceled;
}
