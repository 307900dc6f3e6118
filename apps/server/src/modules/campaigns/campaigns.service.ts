import { randomUUID } from 'node:crypto';
import {
  analyseSmsText,
  ErrorCode,
  FINAL_STATUSES,
  MESSAGE_STATUSES,
  renderPersonalised,
  type CampaignAccepted,
  type CampaignDto,
  type CampaignEstimate,
  type CampaignIssue,
  type CampaignListQuery,
  type CampaignPage,
  type CampaignSourceInput,
  type CampaignUploadDto,
  type CreateCampaignInput,
  type MessageStatus,
  type SmsLogPage,
  type SmsLogQuery,
} from '@wren/contracts';
import { sql } from 'kysely';
import type { Config } from '../../platform/config';
import { type Db, afterCommit, transact } from '../../platform/db';
import { withTightHeapGrowth } from '../../platform/heap-growth';
import { sharedLoad } from '../../platform/shared-load';
import { AppError, FieldError, notFound } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import { EVERY_SECOND_PASSES, type Jobs } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import {
  COUNTS_EVERY_MS,
  COUNTS_SCALE_MESSAGES,
  countsEveryMs,
  countsHoldMs,
} from '../../shared/counts-freshness';
import { decodeCursor, encodeCursor, timeIdCursor } from '../../shared/cursor';
import { previewImportFile } from '../contacts/import-preview';
import type { FilterSuppressed } from '../inbound/inbound.service';
import { lockAccount } from '../ledger/ledger.repository';
import type { LedgerService } from '../ledger/ledger.service';
import { format } from '../ledger/ledger.service';
import { holdOptOuts } from '../messages/cancel-waiting';
import * as messagesRepo from '../messages/messages.repository';
import type { ResolveSender } from '../messages/messages.service';
import { refundMessages } from '../messages/refunds';
import * as limitsOf from '../messages/account-limits';
import { transition } from '../messages/status.repository';
import type { PricingService } from '../pricing/pricing.service';
import * as repo from './campaigns.repository';
import { scanRecipients, VALUE_SEPARATOR, type Recipient } from './recipients';
import { newMessageId } from '../../shared/message-uuid';
import { postgresTimeZone } from '../../shared/time-zones';

/** The materialiser's pass (pg-boss queue name) and its period. */
export const CAMPAIGN_TICK_JOB = 'campaigns.materialise';
export const CAMPAIGN_TICK_SECONDS = 1;
/** Most messages of one campaign waiting in the work queue; the materialiser tops it up to this. */
export const CAMPAIGN_WINDOW = 5000;
/** The bulk lane of the work queue (messages.service PRIORITY.bulk). */
const BULK_PRIORITY = 2;
const RECIPIENT_BATCH = 20_000;
const MAX_SCHEDULE_MS = 366 * 86_400_000;
/** Failed outcomes, for the report's "failed" and resend-to-failed. */
const FAILED: readonly MessageStatus[] = ['undelivered', 'expired', 'rejected', 'failed', 'unknown'];

interface Deps {
  db: Db;
  config: Config;
  events: EventBus;
  ledger: LedgerService;
  pricing: PricingService;
  resolveSender: ResolveSender;
  filterSuppressed?: FilterSuppressed;
  /** The SMS log's page (messages service): a campaign's messages are the log with its id as filter. */
  smsLog: (accountId: string, q: SmsLogQuery) => Promise<SmsLogPage>;
  jobs: Jobs;
  logger: Logger;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toCampaignDto(row: repo.CampaignRow): CampaignDto {
  const stats = row.stats ?? {};
  const counts = Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, Number(stats[s] ?? 0)])) as Record<
    MessageStatus,
    number
  >;
  const delivered = counts.delivered;
  const failed = FAILED.reduce((a, s) => a + counts[s], 0);
  const finished = FINAL_STATUSES.filter((s) => s !== 'canceled').reduce((a, s) => a + counts[s], 0);
  const closed = row.status === 'canceled' ? 0 : row.recipients - row.materialised;
  const pending = closed + counts.scheduled + counts.queued + counts.sending + counts.sent;
  return {
    id: row.campaign_id,
    kind: row.kind,
    name: row.name,
    status: row.status,
    sender: row.sender,
    text: row.body,
    encoding: row.encoding,
    segments: row.segments,
    recipients: row.recipients,
    invalid: row.invalid,
    duplicates: row.duplicates,
    suppressed: row.suppressed,
    materialised: row.materialised,
    counts,
    delivered,
    failed,
    pending,
    deliveryRate: finished ? Math.round((delivered / finished) * 10_000) / 10_000 : 0,
    costMinor: Number(row.cost_minor),
    // Recipients never queued (one entry at a cancel) and messages refunded one by one.
    refundedMinor: Number(row.unsent_refund_minor) + Number(stats[repo.REFUNDED_STAT] ?? 0),
    currency: row.currency,
    ratePerMinute: row.rate_per_minute,
    scheduledAt: iso(row.scheduled_at),
    timezone: row.timezone,
    createdAt: new Date(row.created_at).toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    resendOf: row.resend_of,
  };
}

export interface AcceptOptions {
  /**
   * Writes of the caller that must commit with the campaign or not at all (the /v1 API's
   * Idempotency-Key answer): run at the end of its transaction with the answer it will return.
   */
  withinTransaction?: (trx: Db, accepted: CampaignAccepted) => Promise<void>;
}

export function createCampaignsService(deps: Deps) {
  const { db, config, events, ledger, logger } = deps;
  const scanDeps = {
    db,
    pricing: deps.pricing,
    filterSuppressed: deps.filterSuppressed,
    defaultCountry: config.defaultCountry,
  };

  function parseSchedule(scheduleAt: string | undefined): Date | null {
    if (!scheduleAt) return null;
    const at = new Date(scheduleAt);
    if (at.getTime() <= Date.now() + 5_000)
      throw new FieldError({ scheduleAt: ['Choose a time in the future'] });
    if (at.getTime() > Date.now() + MAX_SCHEDULE_MS) {
      throw new FieldError({ scheduleAt: ['Schedule at most one year ahead'] });
    }
    return at;
  }

  async function checkTimezone(tz: string | undefined) {
    if (!tz) return;
    if (!(await postgresTimeZone(db, tz))) throw new FieldError({ timezone: ['Unknown time zone'] });
  }

  /** A campaign's minutes, counted once per countsHoldMs of its size however many screens ask. */
  const timelines = sharedLoad(
    (id: string) => repo.timeline(db, id),
    (points) => countsHoldMs(points.reduce((n, p) => n + p.sent, 0)),
  );

  const changed = (accountId: string, campaignId: string) =>
    events.publish('campaign.changed', { accountId, campaignId });

  async function get(accountId: string, id: string) {
    const row = await repo.findCampaign(db, accountId, id);
    if (!row) throw notFound('Campaign');
    return row;
  }

  /** Fresh counts for a campaign whose stored ones are older than countsEveryMs allows. */
  async function refreshStats(row: repo.CampaignRow, opts: { force?: boolean } = {}) {
    if (
      !opts.force &&
      row.stats_at &&
      Date.now() - new Date(row.stats_at).getTime() < countsEveryMs(row.materialised)
    )
      return row;
    if (row.materialised === 0) return row;
    const stats = await repo.statusCounts(db, row.campaign_id);
    await repo.saveStats(db, row.campaign_id, stats);
    return { ...row, stats, stats_at: new Date() };
  }

  const uploadGone = () =>
    new FieldError({
      uploadId: ['The uploaded file is gone (used by a campaign, or expired); upload it again'],
    });

  /**
   * Takes what a campaign may use once, under row locks held until its transaction ends: an upload
   * (a second campaign of the same file waits, then finds it gone), and a campaign's failed messages
   * for a resend (a second resend waits, then finds the first).
   */
  async function claimSources(trx: Db, input: { accountId: string; uploadId?: string; resendOf?: string }) {
    if (input.uploadId) {
      const upload = await trx
        .selectFrom('campaign_uploads')
        .select('id')
        .where('id', '=', input.uploadId)
        .where('account_id', '=', input.accountId)
        .forUpdate()
        .executeTakeFirst();
      if (!upload) throw uploadGone();
    }
    if (input.resendOf) {
      await trx
        .selectFrom('bulk_campaigns')
        .select('campaign_id')
        .where('campaign_id', '=', input.resendOf)
        .where('account_id', '=', input.accountId)
        .forUpdate()
        .executeTakeFirst();
      const earlier = await trx
        .selectFrom('bulk_campaigns as b')
        .innerJoin('campaigns as c', 'c.id', 'b.campaign_id')
        .select('c.name')
        .where('b.account_id', '=', input.accountId)
        .where('b.resend_of', '=', input.resendOf)
        .executeTakeFirst();
      if (earlier) {
        throw new AppError(
          ErrorCode.CONFLICT,
          `The failed messages of this campaign were already resent as "${earlier.name}"; resend from that campaign instead`,
        );
      }
    }
  }

  /** Accepts a campaign: every recipient stored, priced and debited in ONE transaction. */
  async function accept(
    input: CreateCampaignInput & { accountId: string; userId: string | null; resendOf?: string },
    opts: AcceptOptions = {},
  ): Promise<CampaignAccepted> {
    const scheduledAt = parseSchedule(input.scheduleAt);
    await checkTimezone(input.timezone);
    const sender = await deps.resolveSender({ accountId: input.accountId, value: input.senderId });
    const id = randomUUID();
    const kind = input.kind;
    const name =
      input.name?.trim() ||
      `${kind === 'personalised' ? 'Personalised' : 'Bulk'} SMS ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
    const limits = await limitsOf.loadLimits(db, input.accountId);
    const outside: ReturnType<typeof limitsOf.outsideCountries> = [];
    const result = await transact(db, async (trx) => {
      await claimSources(trx, input);
      await trx.insertInto('campaigns').values({ id, account_id: input.accountId, kind, name }).execute();
      // Recipients are written while the next ones are read: one INSERT at a time runs on the
      // transaction's connection (PostgreSQL's core) while the scan goes on (this process's core).
      let seq = 0;
      let pending: Recipient[] = [];
      let writing: Promise<void> | null = null;
      let writeError: unknown = null;
      const settle = async () => {
        if (writing) await writing;
        writing = null;
        if (writeError) throw writeError;
      };
      const write = async (rows: Recipient[]) => {
        await settle();
        const first = seq;
        seq += rows.length;
        writing = repo.insertRecipients(trx, id, first, rows).catch((err: unknown) => {
          writeError = err ?? new Error('storing the recipients failed');
        });
      };
      const restricted = limits.allowedCountries !== null;
      const scan = await scanRecipients(
        { ...scanDeps, db: trx },
        {
          kind,
          accountId: input.accountId,
          text: input.text,
          groupIds: input.groupIds,
          numbers: input.numbers,
          uploadId: input.uploadId,
          phoneColumn: input.phoneColumn,
          resendOf: input.resendOf,
        },
        async (batch) => {
          if (restricted) {
            outside.push(
              ...limitsOf.outsideCountries(
                limits,
                batch.map((r) => `+${r.phone}`),
              ),
            );
          }
          for (const r of batch) pending.push(r);
          if (pending.length >= RECIPIENT_BATCH) {
            const rows = pending;
            pending = [];
            await write(rows);
          }
        },
      ).finally(() => writing);
      await write(pending);
      await settle();
      const body = input.resendOf && kind === 'personalised' ? '{{message}}' : input.text;
      if (outside.length)
        throw new AppError(ErrorCode.UNPROCESSABLE, limitsOf.countriesMessage(limits, outside));
      await limitsOf.admit(trx, input.accountId, limits, scan.recipients, { paced: false });
      const debit = await ledger.post(trx, {
        accountId: input.accountId,
        amountMinor: -scan.costMinor,
        kind: 'sms_debit',
        reference: `campaign:${id}`,
        note: `Campaign "${name}": ${scan.recipients} SMS`,
        requireFunds: true,
      });
      await trx
        .insertInto('bulk_campaigns')
        .values({
          campaign_id: id,
          account_id: input.accountId,
          user_id: input.userId,
          status: scheduledAt ? 'scheduled' : 'sending',
          sender,
          body,
          columns: scan.columns,
          encoding: scan.encoding,
          segments: scan.segments,
          recipients: scan.recipients,
          invalid: scan.invalid,
          duplicates: scan.duplicates,
          suppressed: scan.suppressed,
          cost_minor: scan.costMinor,
          currency: scan.currency,
          scheduled_at: scheduledAt,
          timezone: input.timezone ?? null,
          rate_per_minute: input.ratePerMinute ?? null,
          resend_of: input.resendOf ?? null,
          started_at: scheduledAt ? null : new Date(),
          paced_at: scheduledAt ? null : new Date(),
        })
        .execute();
      if (input.uploadId) {
        const used = await trx
          .deleteFrom('campaign_uploads')
          .where('id', '=', input.uploadId)
          .where('account_id', '=', input.accountId)
          .executeTakeFirst();
        if (used.numDeletedRows !== 1n) throw uploadGone();
      }
      afterCommit(trx, () => changed(input.accountId, id));
      let accepted: CampaignAccepted | null = null;
      if (opts.withinTransaction) {
        const row = await repo.findCampaign(trx, input.accountId, id);
        if (!row) throw new Error('campaign vanished inside its own transaction');
        accepted = { campaign: toCampaignDto(row), balanceMinor: debit.balanceMinor };
        await opts.withinTransaction(trx, accepted);
      }
      return { balanceMinor: debit.balanceMinor, accepted };
    });
    if (!scheduledAt)
      void materialise(id).catch((err: unknown) => logger.warn({ err }, 'materialise failed'));
    return (
      result.accepted ?? {
        campaign: toCampaignDto(await get(input.accountId, id)),
        balanceMinor: result.balanceMinor,
      }
    );
  }

  /**
   * Refunds recipients of a campaign that never became messages, in one ledger entry of their summed
   * price (a cancel's recipients not yet queued; a batch's recipients that opted out before they were
   * queued). `reference` makes it once only. Returns what was credited (0: nothing was due, or the
   * reference was credited before), for the campaign's unsent_refund_minor.
   */
  async function refundUnqueued(
    trx: Db,
    r: { accountId: string; amountMinor: number; reference: string; note: string },
  ): Promise<number> {
    const credited = await ledger.creditEach(trx, [{ ...r, kind: 'sms_refund' }]);
    return credited.size ? r.amountMinor : 0;
  }

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
      }>`SELECT account_id, user_id, sender, body, columns, encoding, segments, currency, next_seq,
                rate_per_minute, paced_at
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
      const waiting = await repo.backlog(trx, id);
      let room = CAMPAIGN_WINDOW - waiting;
      const now = Date.now();
      if (camp.rate_per_minute) {
        const since = camp.paced_at ? new Date(camp.paced_at).getTime() : now;
        room = Math.min(room, Math.floor(((now - since) / 60_000) * camp.rate_per_minute));
      }
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
      const validityUntil = new Date(start.getTime() + config.messageValidityMinutes * 60_000);
      const limits = await limitsOf.loadLimits(trx, camp.account_id);
      const paced =
        queue.length > 0
          ? await limitsOf.admit(trx, camp.account_id, { ...limits, dailyCap: null }, queue.length)
          : null;
      await messagesRepo.insertMessages(
        trx,
        queue.map((r, i) => {
          const body =
            r.vals === null
              ? camp.body
              : renderPersonalised(camp.body, (name) => {
                  const i = camp.columns.indexOf(name);
                  return i < 0 ? '' : (r.vals!.split(VALUE_SEPARATOR)[i] ?? '');
                });
          const encoding = r.vals === null ? camp.encoding : analyseSmsText(body).encoding;
          return {
            id: newMessageId(),
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
            next_attempt_at: paced?.dueAt?.[i] ?? start,
            validity_until: validityUntil,
          };
        }),
        { returning: false },
      );
      const last = rows[rows.length - 1];
      // Opted-out recipients are refunded as a cancel refunds those never queued: one entry, once
      // (the reference is the batch's first position, which only this batch starts at).
      const refunded = optedOut
        ? await refundUnqueued(trx, {
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
                       paced_at = ${pacedAt}, updated_at = now()
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

  /** One pass: scheduled campaigns whose time came start; sending ones are topped up; counts refreshed. */
  async function tick() {
    const started = await sql<{ campaign_id: string; account_id: string }>`
      UPDATE bulk_campaigns SET status = 'sending', started_at = now(), paced_at = now(), updated_at = now()
       WHERE status = 'scheduled' AND scheduled_at <= now()
   RETURNING campaign_id, account_id`.execute(db);
    for (const s of started.rows) changed(s.account_id, s.campaign_id);
    const live = await sql<{ campaign_id: string }>`
      SELECT campaign_id FROM bulk_campaigns WHERE status = 'sending' ORDER BY created_at LIMIT 200`.execute(
      db,
    );
    for (const { campaign_id } of live.rows) {
      try {
        await materialise(campaign_id);
      } catch (err) {
        logger.error({ err, campaignId: campaign_id }, 'campaign materialise failed');
      }
    }
    // Counts for the report: live campaigns, and finished ones while late receipts still come in.
    const stale = await sql<{ campaign_id: string }>`
      SELECT campaign_id FROM bulk_campaigns
       WHERE (status IN ('sending', 'paused') OR finished_at > now() - interval '2 hours')
         AND (stats_at IS NULL OR stats_at < now() - make_interval(
               secs => ${COUNTS_EVERY_MS / 1000} * greatest(1, materialised::float8 / ${COUNTS_SCALE_MESSAGES})))
       LIMIT 50`.execute(db);
    for (const { campaign_id } of stale.rows) {
      await repo.saveStats(db, campaign_id, await repo.statusCounts(db, campaign_id));
    }
  }

  // On a node that works jobs, one pass cluster-wide through pg-boss; on an API-only node (which works
  // no jobs) a local timer, so campaigns move in every topology. Passes on several nodes are safe: a
  // campaign is materialised under its row lock (SKIP LOCKED) and the start is one UPDATE.
  let timer: NodeJS.Timeout | null = null;
  let ticking = false;
  if (deps.jobs.working) {
    deps.jobs.every(CAMPAIGN_TICK_JOB, CAMPAIGN_TICK_SECONDS, () => tick(), { group: EVERY_SECOND_PASSES });
  } else {
    timer = setInterval(() => {
      if (ticking) return;
      ticking = true;
      tick()
        .catch((err: unknown) => logger.warn({ err }, 'campaign pass failed'))
        .finally(() => (ticking = false));
    }, CAMPAIGN_TICK_SECONDS * 1000);
    timer.unref();
  }

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
    return toCampaignDto(await refreshStats(await get(accountId, id), { force: true }));
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
    const refunded = await refundUnqueued(trx, {
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
    await messagesRepo.insertEvents(
      trx,
      canceled.map((m) => ({ message_id: m.id, status: 'canceled', detail: reason })),
    );
    await sql`UPDATE bulk_campaigns SET status = 'canceled', finished_at = now(), updated_at = now(),
                     unsent_refund_minor = unsent_refund_minor + ${refunded}
               WHERE campaign_id = ${id}::uuid`.execute(trx);
    return canceled.length;
  }

  return {
    async upload(input: { accountId: string; fileName: string; bytes: Buffer }): Promise<CampaignUploadDto> {
      if (input.bytes.length > config.importMaxBytes) {
        throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'The file is too large');
      }
      const p = await withTightHeapGrowth(() => previewImportFile(input.bytes, config.defaultCountry));
      const fileName = input.fileName.trim().slice(0, 200) || `recipients.${p.fileType}`;
      const { id } = await repo.insertUpload(db, {
        account_id: input.accountId,
        file_name: fileName,
        file_type: p.fileType,
        delimiter: p.options.delimiter ?? null,
        encoding: p.options.encoding ?? null,
        has_header: p.options.hasHeader,
        columns: p.columns,
        row_count_guess: p.rowCountGuess,
        file: input.bytes,
      });
      return {
        uploadId: id,
        fileName,
        fileType: p.fileType,
        columns: p.columns,
        hasHeader: p.options.hasHeader,
        previewRows: p.previewRows,
        rowCountGuess: p.rowCountGuess,
        phoneColumn: p.suggestedMapping.phone,
      };
    },

    /** What a send would do, with nothing stored: counts, cost, balance after, issues, preview. */
    async estimate(accountId: string, input: CampaignSourceInput): Promise<CampaignEstimate> {
      const scan = await scanRecipients(scanDeps, { ...input, accountId });
      const { balanceMinor } = await ledger.balance(db, accountId);
      return {
        recipients: scan.recipients,
        invalid: scan.invalid,
        duplicates: scan.duplicates,
        suppressed: scan.suppressed,
        segments: scan.segments,
        encoding: scan.encoding,
        characters: scan.characters,
        perSegmentMinor: scan.perSegmentMinor,
        costMinor: scan.costMinor,
        currency: scan.currency,
        balanceMinor,
        balanceAfterMinor: balanceMinor - scan.costMinor,
        issues: scan.issues,
        preview: scan.preview,
      };
    },

    /** Every recipient that would not be sent (invalid, opted out, duplicate), with the reason. */
    async issues(accountId: string, input: CampaignSourceInput): Promise<CampaignIssue[]> {
      const all: CampaignIssue[] = [];
      try {
        await scanRecipients(scanDeps, { ...input, accountId }, undefined, (i) => {
          if (all.length < 1_000_000) all.push(i);
        });
      } catch (err) {
        // "Nothing to send" still has a list of why.
        if (!(err instanceof AppError && err.code === ErrorCode.UNPROCESSABLE && all.length)) throw err;
      }
      return all;
    },

    async create(
      input: CreateCampaignInput & { accountId: string; userId: string | null },
      opts: AcceptOptions = {},
    ) {
      return accept(input, opts);
    },

    async list(accountId: string, q: CampaignListQuery): Promise<CampaignPage> {
      const after = q.cursor ? decodeCursor(q.cursor, timeIdCursor) : null;
      const rows = await repo.listCampaigns(db, {
        accountId,
        status: q.status,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
        q: q.q,
        after: after ? { createdAt: after[0], id: after[1] } : undefined,
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        items: page.map(toCampaignDto),
        nextCursor:
          rows.length > q.limit && last
            ? encodeCursor([new Date(last.created_at).toISOString(), last.campaign_id])
            : null,
      };
    },

    async get(accountId: string, id: string): Promise<CampaignDto> {
      return toCampaignDto(await refreshStats(await get(accountId, id)));
    },

    /** The campaign's messages: the SMS log's query and every filter of it, within the campaign. */
    async messages(accountId: string, id: string, q: SmsLogQuery): Promise<SmsLogPage> {
      await get(accountId, id);
      return deps.smsLog(accountId, { ...q, campaignId: id });
    },

    async *exportMessages(accountId: string, id: string, status?: MessageStatus) {
      await get(accountId, id);
      yield* messagesRepo.streamLog(db, { accountId, campaignId: id, status });
    },

    async timeline(accountId: string, id: string) {
      await get(accountId, id);
      return timelines(id);
    },

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
        await sql`UPDATE send_queue q SET scheduled = false, due_at = now()
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
      await checkTimezone(timezone);
      return lifecycle(accountId, id, ['scheduled'], 'rescheduled (it has started)', async (trx) => {
        await sql`UPDATE bulk_campaigns SET scheduled_at = ${at}, timezone = coalesce(${timezone ?? null}, timezone),
                         updated_at = now() WHERE campaign_id = ${id}::uuid`.execute(trx);
      });
    },

    /** A new campaign to the recipients whose message failed, with the same text and sender. */
    async resendFailed(accountId: string, userId: string | null, id: string): Promise<CampaignAccepted> {
      const c = await refreshStats(await get(accountId, id));
      const failed = FAILED.reduce((a, s) => a + Number(c.stats[s] ?? 0), 0);
      if (failed === 0) throw new AppError(ErrorCode.CONFLICT, 'No message of this campaign failed');
      return accept({
        accountId,
        userId,
        kind: c.kind,
        groupIds: [],
        numbers: '',
        text: c.kind === 'personalised' ? '{{message}}' : c.body,
        senderId: c.sender,
        name: `${c.name} (resend to failed)`.slice(0, 100),
        resendOf: id,
      });
    },

    tick,
    materialise,
    /** Stops the local timer (API-only nodes). */
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    /** The sum shown to a user for a money error. */
    format,
  };
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
