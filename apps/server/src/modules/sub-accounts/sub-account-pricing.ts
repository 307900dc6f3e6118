import type {
  SetSubAccountPricingInput,
  SubAccountPricingDetail,
  SubAccountUsageSummary,
} from '@wren/contracts';
import { transact, type Db } from '../../platform/db';
import { FieldError, notFound } from '../../platform/errors';
import type { AccessClaims } from '../../platform/http/principals';
import { pricingChanged } from '../admin/pricing-sync';
import { recordAudit } from '../audit/audit.service';
import type { ClientInfo } from '../auth/auth-deps';
import { usageByStatus } from '../messages/usage-by-status';
import { markedUp, type PricingService } from '../pricing/pricing.service';
import * as repo from './sub-accounts.repository';
import type { SubAccountsService } from './sub-accounts.service';

const DAY_MS = 86_400_000;

/** "12.5 %" for 1250 bp. */
const percent = (bp: number) => `${bp / 100} %`;

/**
 * A child's prices (the parent's plan plus a markup, per country if set) and its usage, spend and
 * the parent's margin for a period. Part of the sub-accounts service; scoped the same way (the
 * caller's own children only).
 */
export function createSubAccountPricing(deps: {
  db: Db;
  pricing: PricingService;
  subAccounts: Pick<SubAccountsService, 'child'>;
}) {
  const { db, pricing, subAccounts } = deps;

  async function detail(parentId: string, childId: string): Promise<SubAccountPricingDetail> {
    const [child, countries, plan] = await Promise.all([
      repo.accountOf(db, childId),
      repo.countryMarkups(db, childId),
      pricing.ratePlan(parentId),
    ]);
    if (!child) throw notFound('Sub-account');
    const byCountry = new Map(countries.map((c) => [c.country, c.markup_bp]));
    return {
      currency: plan.currency,
      markupBp: child.child_markup_bp,
      countries: countries.map((c) => ({ country: c.country, markupBp: c.markup_bp })),
      prices: plan.prices.map((p) => ({
        prefix: p.prefix,
        country: p.country,
        parentPriceMinor: p.priceMinor,
        childPriceMinor: markedUp(
          p.priceMinor,
          (p.country ? byCountry.get(p.country) : undefined) ?? child.child_markup_bp,
        ),
      })),
    };
  }

  return {
    async get(actor: AccessClaims, childId: string) {
      await subAccounts.child(actor, childId);
      return detail(actor.accountId, childId);
    },

    /** Sets the child's markup (and per-country markups; an empty list: none). Priced at once on every node. */
    async set(actor: AccessClaims, childId: string, input: SetSubAccountPricingInput, client: ClientInfo) {
      const c = await subAccounts.child(actor, childId);
      const countries = input.countries ?? [];
      const plan = await pricing.ratePlan(actor.accountId);
      const known = new Set(plan.prices.map((p) => p.country).filter((x): x is string => Boolean(x)));
      const unknown = countries.filter((x) => !known.has(x.country)).map((x) => x.country);
      if (unknown.length) {
        throw new FieldError({
          countries: [
            `Your rate plan has no prices for ${unknown.join(', ')}; choose one of ${[...known].join(', ')}`,
          ],
        });
      }
      await transact(db, async (trx) => {
        const row = await repo.lockChildRow(trx, actor.accountId, childId);
        if (!row) throw notFound('Sub-account');
        await repo.setPricing(trx, childId, input.markupBp, countries);
        const detailText = countries.length
          ? `; ${countries.map((x) => `${x.country} ${percent(x.markupBp)}`).join(', ')}`
          : '';
        await recordAudit(trx, {
          accountId: actor.accountId,
          userId: actor.userId,
          kind: 'subaccount.pricing_changed',
          message: `Prices of sub-account "${c.name}": your prices + ${percent(input.markupBp)}${detailText}`,
          ip: client.ip,
          resourceType: 'account',
          resourceId: childId,
        });
        await pricingChanged(trx, () => pricing.invalidate());
      });
      return detail(actor.accountId, childId);
    },

    /**
     * The child's messages created in the days [from, to] (UTC) by status, what it paid (prices less
     * refunds), the same traffic at the parent's prices today, and the difference (the margin).
     */
    async usage(
      actor: AccessClaims,
      childId: string,
      q: { from: string; to: string },
    ): Promise<SubAccountUsageSummary> {
      const c = await subAccounts.child(actor, childId);
      const from = new Date(`${q.from}T00:00:00Z`);
      const to = new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY_MS);
      if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
        throw new FieldError({ from: ['Enter real dates'] });
      if (to.getTime() - from.getTime() > 366 * DAY_MS)
        throw new FieldError({ to: ['Choose a period of at most 366 days'] });
      const groups = await usageByStatus(db, childId, from, to);
      const paid = groups.filter((g) => !g.refunded);
      const parentPrices = await pricing.perSegmentPrices(
        actor.accountId,
        paid.map((g) => g.sample),
      );
      const byStatus: Record<string, number> = {};
      let messages = 0;
      for (const g of groups) {
        byStatus[g.status] = (byStatus[g.status] ?? 0) + g.messages;
        messages += g.messages;
      }
      const spendMinor = paid.reduce((sum, g) => sum + g.chargedMinor, 0);
      const parentCostMinor = paid.reduce((sum, g, i) => sum + (parentPrices[i] ?? 0) * g.parts, 0);
      return {
        from: q.from,
        to: q.to,
        currency: c.currency,
        messages,
        byStatus,
        spendMinor,
        parentCostMinor,
        marginMinor: spendMinor - parentCostMinor,
      };
    },
  };
}

export type SubAccountPricing = ReturnType<typeof createSubAccountPricing>;
