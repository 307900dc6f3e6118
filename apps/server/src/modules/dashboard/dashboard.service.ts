import {
  DELIVERY_PERIODS,
  MESSAGE_STATUSES,
  PERFORMANCE_DAYS,
  type CampaignDeliveryStatus,
  type CampaignDetailReply,
  type DashboardSummaryOfRole,
  type DeliveryStatusSummary,
  type HubBalance,
  type MessageStatus,
  type PerformanceData,
  type StatusCounts,
} from '@wren/contracts';
import type { Db } from '../../platform/db';
import { sharedLoad } from '../../platform/shared-load';
import { countsHoldMs } from '../../shared/counts-freshness';
import type { LedgerService } from '../ledger/ledger.service';
import type { UsersService } from '../users/users.service';
import * as repo from './dashboard.repository';
import { postgresTimeZone } from '../../shared/time-zones';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const zeroCounts = (): StatusCounts =>
  Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, 0])) as StatusCounts;

const isStatus = (s: string): s is MessageStatus => (MESSAGE_STATUSES as readonly string[]).includes(s);

/** A zone PostgreSQL knows, else UTC: a value stored before zones were checked must not break the dashboard. */
async function safeTimezone(db: Db, tz: string | undefined): Promise<string> {
  return (tz && (await postgresTimeZone(db, tz))) || 'UTC';
}

/** YYYY-MM-DD minus n days (calendar arithmetic, no time zone involved). */
function minusDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
}

export interface Caller {
  accountId: string;
  userId: string;
}

/** Which of the dashboard's figures to read: the balance, delivery status and performance. */
export interface SummaryParts {
  balance: boolean;
  delivery: boolean;
}
const ALL_PARTS: SummaryParts = { balance: true, delivery: true };

/**
 * The dashboard's figures, shared by the hub (realtime/) and GET /api/dashboard/summary. Every
 * function is scoped to the caller's account; days are cut in the user's time zone.
 */
export function createDashboardService(deps: { db: Db; ledger: LedgerService; users: UsersService }) {
  const { db, ledger, users } = deps;

  const timezoneOf = async (userId: string) => safeTimezone(db, (await users.getProfile(userId)).timezone);

  async function balance(input: { accountId: string }, q: Db = db): Promise<HubBalance> {
    return ledger.balance(q, input.accountId);
  }

  async function deliveryStatus(input: Caller, q: Db = db): Promise<DeliveryStatusSummary> {
    const timezone = await timezoneOf(input.userId);
    const b = await repo.periodBounds(q, timezone, PERFORMANCE_DAYS);
    const rows = await repo.statusCountsSince(q, input.accountId, b);
    const periods = { today: zeroCounts(), week: zeroCounts(), month: zeroCounts() };
    for (const r of rows) {
      if (!isStatus(r.status)) continue;
      for (const p of DELIVERY_PERIODS) periods[p][r.status] = Number(r[p]);
    }
    return {
      timezone,
      since: { today: b.today.toISOString(), week: b.week.toISOString(), month: b.month.toISOString() },
      periods,
    };
  }

  async function performance(input: Caller, q: Db = db): Promise<PerformanceData> {
    const timezone = await timezoneOf(input.userId);
    const b = await repo.periodBounds(q, timezone, PERFORMANCE_DAYS);
    const rows = await repo.dailyCounts(q, input.accountId, timezone, b.month);
    const byDay = new Map(rows.map((r) => [r.day, r]));
    const series: PerformanceData = [];
    for (let i = PERFORMANCE_DAYS - 1; i >= 0; i -= 1) {
      const date = minusDays(b.localDate, i);
      const r = byDay.get(date);
      const sent = Number(r?.sent ?? 0);
      const delivered = Number(r?.delivered ?? 0);
      const failed = Number(r?.failed ?? 0);
      const deliveryRate = sent ? Math.round((delivered / sent) * 10_000) / 10_000 : 0;
      series.push({ date, sent, delivered, failed, deliveryRate });
    }
    return series;
  }

  /**
   * Per status of a campaign: counted once per countsHoldMs of its size, shared by every caller
   * (the hub's GetCampaignDetail and GetCampaignDeliveryStatus, asked by each open screen after
   * each push).
   */
  const statusTotals = sharedLoad(
    (key: string) => {
      const [accountId = '', campaignId = ''] = key.split('|');
      return repo.campaignStatusTotals(db, accountId, campaignId);
    },
    (rows) => countsHoldMs(rows.reduce((n, r) => n + Number(r.count), 0)),
  );

  async function campaignTotals(accountId: string, campaignId: string) {
    if (!UUID.test(campaignId)) return null;
    const campaign = await repo.findCampaign(db, accountId, campaignId);
    if (!campaign) return null;
    const rows = await statusTotals(`${accountId}|${campaignId}`);
    return { campaign, rows };
  }

  return {
    balance,
    deliveryStatus,
    performance,

    /** Counts by status of the campaign's messages; [] when it is not the caller's. */
    async campaignDeliveryStatus(input: {
      accountId: string;
      campaignId: string;
    }): Promise<CampaignDeliveryStatus> {
      const found = await campaignTotals(input.accountId, input.campaignId);
      if (!found) return [];
      const counts = zeroCounts();
      for (const r of found.rows) if (isStatus(r.status)) counts[r.status] = Number(r.count);
      return MESSAGE_STATUSES.map((status) => ({ status, count: counts[status] }));
    },

    /** The campaign with its totals and counts; {} when it is not the caller's. */
    async campaignDetail(input: { accountId: string; campaignId: string }): Promise<CampaignDetailReply> {
      const found = await campaignTotals(input.accountId, input.campaignId);
      if (!found) return {};
      const { campaign, rows } = found;
      const counts = zeroCounts();
      let total = 0;
      let priceMinor = 0;
      let currency: string | null = null;
      for (const r of rows) {
        if (isStatus(r.status)) counts[r.status] = Number(r.count);
        total += Number(r.count);
        priceMinor += Number(r.price_minor);
        currency ??= r.currency;
      }
      return {
        id: campaign.id,
        kind: campaign.kind,
        name: campaign.name,
        createdAt: new Date(campaign.created_at).toISOString(),
        total,
        priceMinor,
        currency: currency ?? (await balance({ accountId: input.accountId })).currency,
        counts,
      };
    },

    /**
     * The whole dashboard; `via`: a lag-tolerant read's database (ctx.reads), else the primary.
     * `parts`: the figures to read (a member's role may see some only: issue 39); all by default.
     */
    async summary(
      input: Caller,
      via: Db = db,
      parts: SummaryParts = ALL_PARTS,
    ): Promise<DashboardSummaryOfRole> {
      const [bal, deliveryStatusSummary, perf] = await Promise.all([
        parts.balance ? balance(input, via) : undefined,
        parts.delivery ? deliveryStatus(input, via) : undefined,
        parts.delivery ? performance(input, via) : undefined,
      ]);
      return { balance: bal, deliveryStatus: deliveryStatusSummary, performance: perf };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
