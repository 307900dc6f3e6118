import { randomUUID } from 'node:crypto';
import { ErrorCode, type CampaignAccepted, type CreateCampaignInput } from '@wren/contracts';
import { type Db, afterCommit, transact } from '../../platform/db';
import { AppError, FieldError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import * as limitsOf from '../messages/account-limits';
import type { ResolveSender } from '../messages/messages.service';
import type { LedgerService } from '../ledger/ledger.service';
import { toCampaignDto } from './campaign-dto';
import { ownCampaign, publishCampaignChanged } from './campaign-row';
import { missingValuesOf } from './campaign-sources';
import { checkTimezone, parseSchedule } from './campaign-schedule';
import * as repo from './campaigns.repository';
import { scanRecipients } from './recipients';
import { resolveWindow } from '../send-windows/campaign-window';
import type { Recipient, ScanDeps } from './scan-types';
import { checkBatches, countPrefixes, normalisePrefixRates } from './delivery-shaping';

const RECIPIENT_BATCH = 20_000;

export interface AcceptOptions {
  /**
   * Writes of the caller that must commit with the campaign or not at all (the /v1 API's
   * Idempotency-Key answer): run at the end of its transaction with the answer it will return.
   */
  withinTransaction?: (trx: Db, accepted: CampaignAccepted) => Promise<void>;
}

/** What a new campaign's acceptance is given (a campaign to the failed of `resendOf`, for a resend). */
export type AcceptInput = CreateCampaignInput & {
  accountId: string;
  userId: string | null;
  resendOf?: string;
};

interface Deps {
  db: Db;
  events: EventBus;
  ledger: LedgerService;
  logger: Logger;
  resolveSender: ResolveSender;
  /** What the recipients' scan reads with (the transaction's connection replaces its db). */
  scanDeps: ScanDeps;
  /** Starts a campaign accepted to send now (campaign-materialiser). */
  materialise: (id: string) => Promise<number>;
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

export function createAcceptance(deps: Deps) {
  const { db, events, ledger, logger, scanDeps, materialise } = deps;
  const changed = (accountId: string, campaignId: string) =>
    publishCampaignChanged(events, accountId, campaignId);

  /** Accepts a campaign: every recipient stored, priced and debited in ONE transaction. */
  async function accept(input: AcceptInput, opts: AcceptOptions = {}): Promise<CampaignAccepted> {
    const scheduledAt = parseSchedule(input.scheduleAt);
    await checkTimezone(db, input.timezone);
    // Delivery shaping (delivery-shaping.ts): batches need both numbers; one rate per prefix.
    checkBatches(input.batchSize, input.batchPauseSeconds);
    const prefixRates = normalisePrefixRates(input.prefixRates);
    const prefixCounts: Record<string, number> = {};
    const sender = await deps.resolveSender({ accountId: input.accountId, value: input.senderId });
    const id = randomUUID();
    const kind = input.kind;
    const name =
      input.name?.trim() ||
      `${kind === 'personalised' ? 'Personalised' : 'Bulk'} SMS ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
    const limits = await limitsOf.loadLimits(db, input.accountId);
    // The window it is accepted with: its own, none (null), or the account's default now.
    const sendWindow = (await resolveWindow(db, input.accountId, input.sendWindow))?.window ?? null;
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
          trackLinks: input.trackLinks,
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
          if (prefixRates.length)
            countPrefixes(
              prefixRates,
              batch.map((r) => String(r.phone)),
              prefixCounts,
            );
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
          batch_size: input.batchSize ?? null,
          batch_pause_seconds: input.batchPauseSeconds ?? null,
          prefix_rates: prefixRates.length ? JSON.stringify(prefixRates) : null,
          prefix_counts: prefixRates.length ? JSON.stringify(prefixCounts) : null,
          resend_of: input.resendOf ?? null,
          // The base its segments and prices were counted with: the materialiser links to it.
          link_base: input.trackLinks ? scanDeps.linkBase : null,
          send_window: sendWindow ? JSON.stringify(sendWindow) : null,
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
        accepted = {
          campaign: toCampaignDto(row),
          balanceMinor: debit.balanceMinor,
          missingValues: missingValuesOf(scan.missing),
        };
        await opts.withinTransaction(trx, accepted);
      }
      return { balanceMinor: debit.balanceMinor, accepted, missingValues: missingValuesOf(scan.missing) };
    });
    if (!scheduledAt)
      void materialise(id).catch((err: unknown) => logger.warn({ err }, 'materialise failed'));
    return (
      result.accepted ?? {
        campaign: toCampaignDto(await ownCampaign(db, input.accountId, id)),
        balanceMinor: result.balanceMinor,
        missingValues: result.missingValues,
      }
    );
  }

  return accept;
}
