import { ErrorCode } from '@wren/contracts';
import { sql } from 'kysely';
import { type Db, afterCommit, transact } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { lockAccount, type LedgerService } from '../ledger/ledger.service';
import { recordEvents, refundMessages, transition } from '../messages/campaign-port';
import { toCampaignDto } from './campaign-dto';
import { ownCampaign, publishCampaignChanged, refreshStats } from './campaign-row';
import { checkTimezone, parseSchedule } from './campaign-schedule';
import * as repo from './campaigns.repository';
import { refundUnqueued } from './unqueued-refund';

interface Deps {
  db: Db;
  events: EventBus;
  ledger: LedgerService;
}

/** A campaign's lifecycle after its acceptance: pause, resume, cancel (one or all of an account's), reschedule. */
export function createLifecycle(deps: Deps) {
  const { db, events, ledger } = deps;
  const changed = (accountId: string, campaignId: string) =>
    publishCampaignChanged(events, accountId, campaignId);

  /** Runs a lifecycle change under the campaign's row lock; 404 for another account's, 409 when not allowed. */
  async function lifecycle(
    accountId: string,
    id: string,
    allowed: readonly string[],
    verb: string,
    run: (trx: Db, c: NonNullable<Awaited<ReturnType<typeof repo.lockCampaign>>>) => Promise<void>,
  ) {
    await transact(db, async (trx) => {
      const c = await repo.lockCampaign(trx, id, accountId);
      if (!c) throw notFound('Campaign');
      if (!allowed.includes(c.status)) {
        throw new AppError(ErrorCode.CONFLICT, `This campaign cannot be ${verb}: it is ${c.status}`);
      }
      await run(trx, c);
      afterCommit(trx, () => changed(accountId, id));
    });
    // Counted afresh: the answer to a cancel or pause shows what it did (canceled, refunded), not the
    // counts of up to countsEveryMs before.
    return toCampaignDto(await refreshStats(db, await ownCampaign(db, accountId, id), { force: true }));
  }

  /** The statuses a campaign can be canceled from. */
  const CANCELABLE: readonly string[] = ['scheduled', 'sending', 'paused'];

  /**
   * Cancels a campaign whose row the caller has locked: its recipients never queued are refunded in
   * one entry, its queued messages are canceled (`reason` as their error) and refunded one by one.
   */
  async function cancelWithin(
    trx: Db,
    c: NonNullable<Awaited<ReturnType<typeof repo.lockCampaign>>>,
    reason: string,
  ) {
    const id = c.campaign_id;
    const accountId = c.account_id;
    const unsent = await sql<{ n: string | null }>`
      SELECT sum(price_minor) AS n FROM campaign_recipients
       WHERE campaign_id = ${id}::uuid AND seq >= ${c.next_seq}`.execute(trx);
    const refunded = await refundUnqueued(ledger, trx, {
      accountId,
      amountMinor: Number(unsent.rows[0]?.n ?? 0),
      reference: `campaign:${id}:unsent`,
      note: `Campaign canceled: refund for ${c.recipients - c.materialised} message(s) not sent`,
    });
    const ids = await repo.queuedMessageIds(trx, id, { unleasedOnly: true });
    const canceled = await transition(trx, {
      to: 'canceled',
      from: ['queued', 'scheduled'],
      accountId,
      rows: ids,
      error: reason,
    });
    await refundMessages(trx, ledger, canceled);
    await recordEvents(
      trx,
      canceled.map((m) => ({ message_id: m.id, status: 'canceled', detail: reason })),
    );
    await sql`UPDATE bulk_campaigns SET status = 'canceled', finished_at = now(), updated_at = now(),
                     unsent_refund_minor = unsent_refund_minor + ${refunded}
               WHERE campaign_id = ${id}::uuid`.execute(trx);
    return canceled.length;
  }

  return {
    /**
     * Pauses: its messages still waiting step out of the queue's ready set until it resumes. Refused
     * when nothing is left to hold (every recipient queued and every message with a worker or the
     * SMSC): such a campaign completes by itself, and a pause would leave it paused with nothing to
     * resume.
     */
    pause: (accountId: string, id: string) =>
      lifecycle(accountId, id, ['sending'], 'paused', async (trx, c) => {
        await sql`UPDATE bulk_campaigns SET status = 'paused', updated_at = now() WHERE campaign_id = ${id}::uuid`.execute(
          trx,
        );
        const held = await sql<{ n: number }>`
          WITH held AS (
            UPDATE send_queue q SET scheduled = true, due_at = 'infinity'
             WHERE q.campaign_id = ${id}::uuid AND q.leased_by IS NULL AND NOT q.scheduled
            RETURNING 1)
          SELECT count(*)::int AS n FROM held`.execute(trx);
        if (held.rows[0].n > 0) return;
        const more = await sql`
          SELECT 1 FROM campaign_recipients WHERE campaign_id = ${id}::uuid AND seq >= ${c.next_seq} LIMIT 1`.execute(
          trx,
        );
        if (more.rows.length === 0) {
          throw new AppError(
            ErrorCode.CONFLICT,
            'Nothing is left to pause: every message of this campaign is already on its way',
          );
        }
      }),

    resume: (accountId: string, id: string) =>
      lifecycle(accountId, id, ['paused'], 'resumed', async (trx) => {
        await sql`UPDATE bulk_campaigns SET status = 'sending', paced_at = now(), updated_at = now()
                   WHERE campaign_id = ${id}::uuid`.execute(trx);
        // A message held for its send window (next_attempt_at ahead) goes back to waiting for it.
        await sql`UPDATE send_queue q SET scheduled = false,
                         due_at = GREATEST(now(), (SELECT m.next_attempt_at FROM messages m WHERE m.id = q.message_id))
                   WHERE q.campaign_id = ${id}::uuid AND q.scheduled AND q.due_at = 'infinity'`.execute(trx);
        afterCommit(trx, () => events.publish('messages.queued', {}));
      }),

    /**
     * Cancels: every recipient not yet queued is refunded in one ledger entry (its reference makes it
     * once only), every queued message is canceled and refunded per message (the single-send rule).
     * Messages already with the SMSC go on.
     */
    cancel: (accountId: string, id: string) =>
      lifecycle(accountId, id, CANCELABLE, 'canceled', async (trx, c) => {
        await cancelWithin(trx, c, 'The campaign was canceled');
      }),

    /**
     * Cancels every campaign of the account that has not finished, in the caller's transaction (an
     * operator locking the account), each as `cancel` does; `reason` is each canceled message's error.
     * Leaves the account's row locked (FOR NO KEY UPDATE) for the rest of the transaction.
     * Returns how many campaigns, and how many of their queued messages, were canceled.
     */
    async cancelAllOf(trx: Db, accountId: string, reason: string) {
      // Every campaign row first, in one order, before any refund locks the account's row: the order
      // a user's cancel and the materialiser take them in (campaign, then account), so neither can
      // wait on this transaction while it waits on them.
      const { rows } = await sql<{ id: string }>`
        SELECT campaign_id AS id FROM bulk_campaigns
         WHERE account_id = ${accountId}::uuid AND status IN (${sql.join(CANCELABLE.map((st) => sql.lit(st)))})
         ORDER BY campaign_id
           FOR UPDATE`.execute(trx);
      // Then the account's row, as the ledger locks it: no send debits the account until the caller's
      // transaction ends, and every send that did is committed, so its messages are seen below.
      await lockAccount(trx, accountId);
      const canceled = { campaigns: 0, messages: 0 };
      for (const { id } of rows) {
        const c = await repo.lockCampaign(trx, id, accountId);
        if (!c || !CANCELABLE.includes(c.status)) continue;
        canceled.messages += await cancelWithin(trx, c, reason);
        canceled.campaigns += 1;
        afterCommit(trx, () => changed(accountId, id));
      }
      return canceled;
    },

    reschedule: async (accountId: string, id: string, scheduleAt: string, timezone?: string) => {
      const at = parseSchedule(scheduleAt)!;
      await checkTimezone(db, timezone);
      return lifecycle(accountId, id, ['scheduled'], 'rescheduled (it has started)', async (trx) => {
        await sql`UPDATE bulk_campaigns SET scheduled_at = ${at}, timezone = coalesce(${timezone ?? null}, timezone),
                         updated_at = now() WHERE campaign_id = ${id}::uuid`.execute(trx);
      });
    },
  };
}
