import { analyseSmsText, renderPersonalised, type SendWindow } from '@wren/contracts';
import { sql } from 'kysely';
import type { Config } from '../../platform/config';
import { type Db, afterCommit, transact } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import { newMessageId } from '../../shared/message-uuid';
import type { LedgerService } from '../ledger/ledger.service';
import * as limitsOf from '../messages/account-limits';
import { holdOptOuts } from '../messages/cancel-waiting';
import { insertMessages } from '../messages/campaign-port';
import { publishCampaignChanged } from './campaign-row';
import * as repo from './campaigns.repository';
import { VALUE_SEPARATOR } from './scan-types';
import { refundUnqueued } from './unqueued-refund';
import { linkify, type ShortLinkRow } from '../links/short-links';
import { zoneOfNumber } from '../send-windows/phone-zone';
import { nextOpen } from '../send-windows/window-time';
import type { PrefixRate } from '@wren/contracts';
import type { ShapingCursor } from '../../db/schema-campaigns';
import { currentCursor, isShaped, roomAhead, timeMessages, type Shaping } from './delivery-shaping';

/** Most messages of one campaign waiting in the work queue; the materialiser tops it up to this. */
export const CAMPAIGN_WINDOW = 5000;
/** The bulk lane of the work queue (messages.service PRIORITY.bulk). */
const BULK_PRIORITY = 2;

interface Deps {
  db: Db;
  events: EventBus;
  ledger: LedgerService;
  config: Config;
  /** The clock the send windows are read with (tests pass a fake one). */
  now?: () => Date;
}

export function createMaterialiser(deps: Deps) {
  const { db, config, events, ledger } = deps;
  const clock = deps.now ?? (() => new Date());
  const changed = (accountId: string, campaignId: string) =>
    publishCampaignChanged(events, accountId, campaignId);

  /**
   * Turns the next recipients of a sending campaign into queued messages of the core queue (bulk
   * lane), keeping at most CAMPAIGN_WINDOW of them waiting (and within the send rate). One
   * transaction under the campaign's row lock: a crash either stores the batch and the new position
   * together or neither, so no recipient is lost or queued twice. Completes the campaign once every
   * recipient has been queued and none waits.
   *
   * Each recipient is screened again against the account's suppression list as it is read (one
   * statement with the batch): a number that opted out after the campaign was accepted is not queued,
   * but counted as suppressed (and no longer as a recipient), and the batch's opted-out recipients
   * are refunded in one ledger entry in the same transaction.
   */
  async function materialise(id: string): Promise<number> {
    const out = await transact(db, async (trx) => {
      const c = await sql<{
        account_id: string;
        user_id: string | null;
        sender: string;
        body: string;
        columns: string[];
        encoding: 'GSM-7' | 'UCS-2';
        segments: number;
        currency: string;
        next_seq: number;
        rate_per_minute: number | null;
        paced_at: Date | null;
        link_base: string | null;
        send_window: SendWindow | null;
        timezone: string | null;
        materialised: number;
        batch_size: number | null;
        batch_pause_seconds: number | null;
        prefix_rates: PrefixRate[] | null;
        shaping: ShapingCursor | null;
      }>`SELECT account_id, user_id, sender, body, columns, encoding, segments, currency, next_seq,
                rate_per_minute, paced_at, link_base, send_window, timezone, materialised,
                batch_size, batch_pause_seconds, prefix_rates, shaping
           FROM bulk_campaigns WHERE campaign_id = ${id}::uuid AND status = 'sending'
           FOR UPDATE SKIP LOCKED`.execute(trx);
      const camp = c.rows[0];
      if (!camp) return null;
      // Before the screen, and held to the commit: an opt-out of one of this batch's numbers either
      // waits for the batch's messages and cancels them, or comes first and is screened out
      // (holdOptOuts). Lock order: the campaign's row, then the account's opt-out lock, then the
      // account's rows (its send counter in admit, its balance in a refund). An opt-out takes the
      // exclusive lock holding only its own inserted rows (and KEY SHARE on the account), none of
      // which a batch waits for, so the two cannot deadlock.
      await holdOptOuts(trx, camp.account_id);
      // Messages held for their send window do not take the room of those that can go now.
      const { total: waiting, due } = await repo.backlog(trx, id);
      let room = CAMPAIGN_WINDOW - due;
      const now = Date.now();
      // Delivery shaping (delivery-shaping.ts): batches hold the room to the messages due within
      // the look-ahead, and with batches the campaign rate is part of their schedule.
      const shape: Shaping = {
        batchSize: camp.batch_size,
        batchPauseSeconds: camp.batch_pause_seconds,
        ratePerMinute: camp.rate_per_minute,
        prefixRates: camp.prefix_rates ?? [],
      };
      const shaped = isShaped(shape);
      const cursor = shaped ? currentCursor(shape, camp.shaping, camp.materialised, now) : null;
      if (camp.rate_per_minute && camp.batch_size === null) {
        const since = camp.paced_at ? new Date(camp.paced_at).getTime() : now;
        room = Math.min(room, Math.floor(((now - since) / 60_000) * camp.rate_per_minute));
      }
      if (cursor) room = roomAhead(shape, cursor, camp.materialised, now, room);
      /** Completes the campaign when no recipient is left from `nextSeq` on (and none waits queued). */
      const completeIfDrained = async (nextSeq: number) => {
        const more =
          await sql`SELECT 1 FROM campaign_recipients WHERE campaign_id = ${id}::uuid AND seq >= ${nextSeq} LIMIT 1`.execute(
            trx,
          );
        if (more.rows.length) return;
        await sql`UPDATE bulk_campaigns SET status = 'completed', finished_at = now(), updated_at = now()
                   WHERE campaign_id = ${id}::uuid`.execute(trx);
        afterCommit(trx, () => changed(camp.account_id, id));
      };
      // Screened against the account's own suppression list as it is now: one probe of
      // suppressions_phone_key per recipient of the batch (a LATERAL … LIMIT 1 is always a nested
      // loop; an EXISTS column was planned as a hash of every suppression in the table, built anew
      // for each batch: 70 ms a batch against 12 ms with 100,000 suppressions).
      const rows =
        room > 0
          ? (
              await sql<{
                seq: number;
                phone: string;
                price_minor: number;
                segments: number;
                vals: string | null;
                opted_out: boolean;
              }>`
            SELECT r.seq, r.phone, r.price_minor, r.segments, r.vals, s.hit IS NOT NULL AS opted_out
              FROM (SELECT seq, phone, price_minor, segments, vals FROM campaign_recipients
                     WHERE campaign_id = ${id}::uuid AND seq >= ${camp.next_seq}
                     ORDER BY seq LIMIT ${room}) r
              LEFT JOIN LATERAL (SELECT true AS hit FROM suppressions s
                                  WHERE s.account_id = ${camp.account_id}::uuid AND s.phone = '+' || r.phone::text
                                  LIMIT 1) s ON true
             ORDER BY r.seq`.execute(trx)
            ).rows
          : [];
      if (rows.length === 0) {
        if (waiting === 0 && room > 0) await completeIfDrained(camp.next_seq);
        return { account: camp.account_id, n: 0 };
      }
      const queue = rows.filter((r) => !r.opted_out);
      const optedOut = rows.length - queue.length;
      const optedOutMinor = optedOut ? rows.reduce((a, r) => (r.opted_out ? a + r.price_minor : a), 0) : 0;
      const start = new Date();
      const validityMs = config.messageValidityMinutes * 60_000;
      const validityUntil = new Date(start.getTime() + validityMs);
      // Send window: each message waits until its recipient's window opens (the number's zone, or
      // the campaign's when it cannot be told), once per zone per batch. Its validity starts then:
      // a message waiting for its window does not expire, and it was paid for at acceptance.
      const windowNow = clock();
      const fallbackZone = camp.timezone ?? 'UTC';
      const opens = new Map<string, Date>();
      const openOf = (phone: string): Date | null => {
        if (!camp.send_window) return null;
        const zone = zoneOfNumber(phone) ?? fallbackZone;
        let t = opens.get(zone);
        if (!t) {
          t = nextOpen(camp.send_window, zone, windowNow);
          opens.set(zone, t);
        }
        return t.getTime() > windowNow.getTime() ? t : null;
      };
      const limits = await limitsOf.loadLimits(trx, camp.account_id);
      const paced =
        queue.length > 0
          ? await limitsOf.admit(trx, camp.account_id, { ...limits, dailyCap: null }, queue.length)
          : null;
      const shapedAt = cursor
        ? timeMessages(
            shape,
            cursor,
            camp.materialised,
            queue.map((r) => String(r.phone)),
          )
        : null;
      const links: ShortLinkRow[] = [];
      const linksExpire = new Date(validityUntil.getTime() + config.linkRetentionDays * 86_400_000);
      await insertMessages(
        trx,
        queue.map((r, i) => {
          const messageId = newMessageId();
          const text =
            r.vals === null
              ? camp.body
              : renderPersonalised(camp.body, (name) => {
                  const i = camp.columns.indexOf(name);
                  return i < 0 ? '' : (r.vals!.split(VALUE_SEPARATOR)[i] ?? '');
                });
          // Tracked links: each URL becomes this message's own short link, of the length the
          // campaign was counted with (the segments stored with the recipient stay true).
          const body = camp.link_base
            ? linkify(
                text,
                {
                  linkBase: camp.link_base,
                  account_id: camp.account_id,
                  campaign_id: id,
                  message_id: messageId,
                  expires_at: linksExpire,
                },
                links,
              )
            : text;
          const encoding = r.vals === null ? camp.encoding : analyseSmsText(body).encoding;
          const opensAt = openOf(String(r.phone));
          const accountDue = paced?.dueAt?.[i] ?? start;
          // Shaped: not before its batch's and its prefix's time; valid from then.
          const dueAt = shapedAt && shapedAt[i] > accountDue.getTime() ? new Date(shapedAt[i]) : accountDue;
          const heldUntil = opensAt
            ? new Date(opensAt.getTime() + Math.max(0, dueAt.getTime() - start.getTime()))
            : null;
          return {
            id: messageId,
            account_id: camp.account_id,
            campaign_id: id,
            user_id: camp.user_id,
            recipient: `+${r.phone}`,
            sender: camp.sender,
            body,
            encoding,
            segments: r.segments,
            price_minor: r.price_minor,
            currency: camp.currency,
            status: 'queued' as const,
            priority: BULK_PRIORITY,
            scheduled_at: null,
            timezone: null,
            // Held: due when the window opens, as far after it as the account's pace put it after
            // now (messages per second hold at the opening too).
            next_attempt_at: heldUntil ?? dueAt,
            validity_until: heldUntil
              ? new Date(heldUntil.getTime() + validityMs)
              : shapedAt && dueAt > start
                ? new Date(dueAt.getTime() + validityMs)
                : validityUntil,
          };
        }),
        { returning: false },
      );
      // With their messages, or neither (one transaction).
      for (let i = 0; i < links.length; i += 1000)
        await trx
          .insertInto('short_links')
          .values(links.slice(i, i + 1000))
          .execute();
      const last = rows[rows.length - 1];
      // Opted-out recipients are refunded as a cancel refunds those never queued: one entry, once
      // (the reference is the batch's first position, which only this batch starts at).
      const refunded = optedOut
        ? await refundUnqueued(ledger, trx, {
            accountId: camp.account_id,
            amountMinor: optedOutMinor,
            reference: `campaign:${id}:suppressed:${camp.next_seq}`,
            note: `Campaign: refund for ${optedOut} message(s) not sent (the number opted out after the campaign was accepted)`,
          })
        : 0;
      // Opted-out recipients take no share of the send rate: they are not sent.
      const pacedAt = camp.rate_per_minute
        ? sql`LEAST(now(), coalesce(paced_at, now()) + make_interval(secs => ${(queue.length * 60) / camp.rate_per_minute}))`
        : sql`now()`;
      await sql`UPDATE bulk_campaigns SET next_seq = ${last.seq + 1}, materialised = materialised + ${queue.length},
                       recipients = recipients - ${optedOut}, suppressed = suppressed + ${optedOut},
                       unsent_refund_minor = unsent_refund_minor + ${refunded},
                       paced_at = ${pacedAt}, updated_at = now(),
                       shaping = coalesce(${cursor ? JSON.stringify(cursor) : null}::jsonb, shaping)
                 WHERE campaign_id = ${id}::uuid`.execute(trx);
      // The batch's recipients all opted out and nothing waits: the last of them may have been the
      // campaign's last, which leaves nothing for a later pass to complete it after.
      if (queue.length === 0 && waiting === 0) await completeIfDrained(last.seq + 1);
      afterCommit(trx, () => {
        if (queue.length) events.publish('messages.queued', {});
        changed(camp.account_id, id);
      });
      return { account: camp.account_id, n: queue.length };
    });
    return out?.n ?? 0;
  }

  return materialise;
}
