import type { RatePlanDto } from '@wren/contracts';
import type { Db } from '../../platform/db';
import { ErrorCode } from '@wren/contracts';
import { AppError, notFound } from '../../platform/errors';

interface Plan {
  currency: string;
  /** Longest prefix first. */
  prices: { prefix: string; country: string | null; priceMinor: number }[];
}

const CACHE_MS = 60_000;

/**
 * A sub-account's price per segment (issue 39 item 4): the parent's price plus `markupBp` basis
 * points, rounded up to a whole minor unit (ceil(price * (10000 + bp) / 10000), in integers), so a
 * reseller's margin is never lost to rounding. Applied per segment, before the segment count.
 */
export const markedUp = (priceMinor: number, markupBp: number) =>
  Math.floor((priceMinor * (10_000 + markupBp) + 9_999) / 10_000);

/** Prices per segment by destination prefix (longest match), in integer minor units. */
export function createPricingService(db: Db) {
  const cache = new Map<string, { plan: Plan; at: number }>();

  const accounts = new Map<
    string,
    {
      account: {
        rate_plan_id: string | null;
        currency: string;
        parent_account_id: string | null;
        child_markup_bp: number;
      };
      at: number;
    }
  >();

  /** `exec`: a transaction's handle when asked inside one (never wait for a second connection). */
  async function planFor(accountId: string, exec: Db = db): Promise<Plan> {
    let cached = accounts.get(accountId);
    if (!cached || Date.now() - cached.at > CACHE_MS) {
      const row = await exec
        .selectFrom('accounts')
        .select(['rate_plan_id', 'currency', 'parent_account_id', 'child_markup_bp'])
        .where('id', '=', accountId)
        .executeTakeFirst();
      if (!row) throw notFound('Account');
      if (accounts.size > 10_000) accounts.clear();
      cached = { account: row, at: Date.now() };
      accounts.set(accountId, cached);
    }
    const { account } = cached;
    if (account.parent_account_id) return childPlan(accountId, account, exec);
    const key = account.rate_plan_id ?? 'default';
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.plan;
    let q = exec
      .selectFrom('rate_plans as p')
      .innerJoin('rate_plan_prices as r', 'r.plan_id', 'p.id')
      .select(['p.currency', 'r.prefix', 'r.country', 'r.price_minor']);
    q = account.rate_plan_id
      ? q.where('p.id', '=', account.rate_plan_id)
      : q.where('p.is_default', '=', true);
    const rows = await q.execute();
    const plan: Plan = {
      currency: rows[0]?.currency ?? account.currency,
      prices: rows
        .map((r) => ({ prefix: r.prefix, country: r.country, priceMinor: r.price_minor }))
        .sort((a, b) => b.prefix.length - a.prefix.length),
    };
    cache.set(key, { plan, at: Date.now() });
    return plan;
  }

  /** A child's plan: its parent's, each price marked up by the child's markup (or its country's). */
  async function childPlan(
    accountId: string,
    account: { parent_account_id: string | null; child_markup_bp: number },
    exec: Db,
  ): Promise<Plan> {
    const key = `child:${accountId}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.plan;
    const parent = await planFor(account.parent_account_id!, exec);
    const overrides = new Map(
      (
        await exec
          .selectFrom('sub_account_country_markups')
          .select(['country', 'markup_bp'])
          .where('account_id', '=', accountId)
          .execute()
      ).map((r) => [r.country, r.markup_bp]),
    );
    const plan: Plan = {
      currency: parent.currency,
      prices: parent.prices.map((p) => ({
        ...p,
        priceMinor: markedUp(
          p.priceMinor,
          (p.country ? overrides.get(p.country) : undefined) ?? account.child_markup_bp,
        ),
      })),
    };
    cache.set(key, { plan, at: Date.now() });
    return plan;
  }

  /** Undefined when no price of the plan covers the destination (fail closed: never free). */
  const perSegment = (plan: Plan, to: string) => plan.prices.find((p) => to.startsWith(p.prefix))?.priceMinor;

  return {
    /**
     * Forgets every cached plan and account plan: an operator changed prices or an assignment
     * (admin/pricing-sync.ts calls it on every node when such a change commits).
     */
    invalidate() {
      cache.clear();
      accounts.clear();
    },

    /** Per recipient, the account's price of one segment (null where its plan has none). */
    async perSegmentPrices(accountId: string, recipients: readonly string[]) {
      const plan = await planFor(accountId);
      return recipients.map((to) => perSegment(plan, to) ?? null);
    },

    async ratePlan(accountId: string): Promise<RatePlanDto> {
      const plan = await planFor(accountId);
      return {
        currency: plan.currency,
        prices: [...plan.prices].sort((a, b) => a.prefix.localeCompare(b.prefix)),
      };
    },

    /**
     * Price of each recipient's message for the given segment count. A destination that no price of
     * the account's rate plan covers is refused (422), never sent for free.
     */
    async quote(accountId: string, recipients: string[], segments: number, trx?: Db) {
      const plan = await planFor(accountId, trx);
      const unpriced: string[] = [];
      const prices = recipients.map((to) => {
        const price = perSegment(plan, to);
        if (price === undefined) unpriced.push(to);
        return (price ?? 0) * segments;
      });
      if (unpriced.length > 0) {
        const shown =
          unpriced.slice(0, 5).join(', ') + (unpriced.length > 5 ? ` and ${unpriced.length - 5} more` : '');
        throw new AppError(
          ErrorCode.UNPROCESSABLE,
          `Your rate plan has no price for ${shown}, so ${unpriced.length === 1 ? 'it' : 'they'} cannot be sent to. Remove ${unpriced.length === 1 ? 'it' : 'them'} or ask support to enable ${unpriced.length === 1 ? 'this destination' : 'these destinations'}.`,
        );
      }
      return { currency: plan.currency, prices, total: prices.reduce((a, b) => a + b, 0) };
    },
  };
}

export type PricingService = ReturnType<typeof createPricingService>;
