import type {
  CampaignAccepted,
  CampaignDto,
  CampaignListQuery,
  CampaignPage,
  CreateCampaignInput,
  MessageStatus,
  SmsLogPage,
  SmsLogQuery,
} from '@wren/contracts';
import { ErrorCode } from '@wren/contracts';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/errors';
import type { EventBus } from '../../platform/events';
import type { Jobs } from '../../platform/jobs';
import type { Logger } from '../../platform/logger';
import { sharedLoad } from '../../platform/shared-load';
import { countsHoldMs } from '../../shared/counts-freshness';
import { decodeCursor, encodeCursor, timeIdCursor } from '../../shared/cursor';
import type { FilterSuppressed } from '../inbound/inbound.service';
import type { LedgerService } from '../ledger/ledger.service';
import { format } from '../ledger/ledger.service';
import { clickSeries, withLinkClicks } from '../links/campaign-port';
import { streamLog } from '../messages/campaign-port';
import type { SmsLogCsvRow } from '../messages/sms-log-csv';
import type { ResolveSender } from '../messages/messages.service';
import type { PricingService } from '../pricing/pricing.service';
import { createAcceptance, type AcceptOptions } from './campaign-acceptance';
import { FAILED, toCampaignDto } from './campaign-dto';
import { createLifecycle } from './campaign-lifecycle';
import { createMaterialiser } from './campaign-materialiser';
import { ownCampaign, refreshStats } from './campaign-row';
import { createSources } from './campaign-sources';
import { startCampaignTicker } from './campaign-ticker';
import * as repo from './campaigns.repository';

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

/**
 * The campaigns service: a campaign's sources (upload, estimate, issues), its acceptance, its
 * lifecycle, its materialiser and pass, and the reads of its report.
 */
export function createCampaignsService(deps: Deps) {
  const { db, config, events, ledger, logger } = deps;
  const scanDeps = {
    db,
    pricing: deps.pricing,
    filterSuppressed: deps.filterSuppressed,
    defaultCountry: config.defaultCountry,
    linkBase: config.linkBase,
  };
  const materialise = createMaterialiser({ db, config, events, ledger });
  const accept = createAcceptance({
    db,
    events,
    ledger,
    logger,
    resolveSender: deps.resolveSender,
    scanDeps,
    materialise,
  });
  const ticker = startCampaignTicker({ db, events, jobs: deps.jobs, logger, materialise });
  const get = (accountId: string, id: string) => ownCampaign(db, accountId, id);

  /** A campaign's minutes, counted once per countsHoldMs of its size however many screens ask. */
  const timelines = sharedLoad(
    (id: string) => repo.timeline(db, id),
    (points) => countsHoldMs(points.reduce((n, p) => n + p.sent, 0)),
  );

  return {
    ...createSources({ db, config, ledger, scanDeps }),

    async create(
      input: CreateCampaignInput & { accountId: string; userId: string | null },
      opts: AcceptOptions = {},
    ) {
      return accept(input, opts);
    },

    /** One page of the campaign report; `via`: a lag-tolerant read's database (ctx.reads). */
    async list(accountId: string, q: CampaignListQuery, via: Db = db): Promise<CampaignPage> {
      const after = q.cursor ? decodeCursor(q.cursor, timeIdCursor) : null;
      const rows = await repo.listCampaigns(via, {
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
      return toCampaignDto(await refreshStats(db, await get(accountId, id)));
    },

    /** The campaign's messages: the SMS log's query and every filter of it, within the campaign. */
    async messages(accountId: string, id: string, q: SmsLogQuery): Promise<SmsLogPage> {
      await get(accountId, id);
      return deps.smsLog(accountId, { ...q, campaignId: id });
    },

    /**
     * The campaign's messages for its CSV export, in pages; with tracked links, each message has
     * its link clicks (issue 41: clicks in the export), and `onTracked(true)` is called before the
     * first page. The campaign is looked up on the first read, after the export took its slot: a
     * full slot is a 429 before anything is read.
     */
    async *exportMessages(
      accountId: string,
      id: string,
      status: MessageStatus | undefined,
      onTracked: (tracked: boolean) => void,
    ): AsyncGenerator<(SmsLogCsvRow & { linkClicks?: number })[]> {
      const c = await get(accountId, id);
      const pages = streamLog(db, { accountId, campaignId: id, status });
      onTracked(c.link_base !== null);
      yield* c.link_base === null ? pages : withLinkClicks(db, id, pages);
    },

    async timeline(accountId: string, id: string) {
      await get(accountId, id);
      return timelines(id);
    },

    /** A tracked campaign's clicks over time, by device and country (empty for an untracked one). */
    async clicks(accountId: string, id: string) {
      await get(accountId, id);
      return clickSeries(db, id);
    },

    ...createLifecycle({ db, events, ledger }),

    /** A new campaign to the recipients whose message failed, with the same text and sender. */
    async resendFailed(accountId: string, userId: string | null, id: string): Promise<CampaignAccepted> {
      const c = await refreshStats(db, await get(accountId, id));
      const failed = FAILED.reduce((a, s) => a + Number(c.stats[s] ?? 0), 0);
      if (failed === 0) throw new AppError(ErrorCode.CONFLICT, 'No message of this campaign failed');
      // A text filled per recipient (personalised, or a bulk text with contacts' {{name}}) is resent
      // as each failed message's own text: a personalised resend.
      const ownTexts = c.kind === 'personalised' || c.columns.length > 0;
      return accept({
        accountId,
        userId,
        kind: ownTexts ? 'personalised' : 'bulk',
        groupIds: [],
        numbers: '',
        text: ownTexts ? '{{message}}' : c.body,
        // A personalised resend sends the failed messages' own texts, whose links are short already.
        trackLinks: !ownTexts && c.link_base !== null,
        // The failed go in the same window as the first send (none stays none).
        sendWindow: c.send_window ?? null,
        timezone: c.timezone ?? undefined,
        senderId: c.sender,
        name: `${c.name} (resend to failed)`.slice(0, 100),
        resendOf: id,
      });
    },

    tick: ticker.tick,
    materialise,
    /** Stops the local timer (API-only nodes). */
    stop: ticker.stop,
    /** The sum shown to a user for a money error. */
    format,
  };
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
