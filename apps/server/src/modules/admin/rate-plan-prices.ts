import { Readable } from 'node:stream';
import { ErrorCode, type ImportResult, type PricePreview } from '@wren/contracts';
import { AsYouType } from 'libphonenumber-js';
import { type Db, transact } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { Operator } from './operator';
import { pricingChanged } from './pricing-sync';
import { parsePriceCsv, priceListCsv } from './rate-plan-csv';
import { audit, detail as planDetail, lockPlan, summaries, writePrices } from './rate-plans.repository';

/** The prefixes that appear more than once. */
function duplicates(prices: { prefix: string }[]) {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const p of prices) (seen.has(p.prefix) ? dup : seen).add(p.prefix);
  return [...dup];
}

/** A rate plan's prices: replaced, imported and exported as CSV, and one number's price previewed. */
export function createRatePlanPrices({ db, invalidatePricing }: { db: Db; invalidatePricing: () => void }) {
  const detail = (id: string) => planDetail(db, id);

  return {
    /** Replaces every price of the plan. */
    async replacePrices(input: {
      op: Operator;
      id: string;
      prices: { prefix: string; priceMinor: number }[];
    }) {
      const dup = duplicates(input.prices);
      if (dup.length) {
        throw new AppError(
          ErrorCode.UNPROCESSABLE,
          `Each prefix may appear once: ${dup.slice(0, 5).join(', ') || '(empty)'} appear more than once`,
        );
      }
      await transact(db, async (trx) => {
        const plan = await lockPlan(trx, input.id);
        await writePrices(trx, plan.id, input.prices, true);
        await pricingChanged(trx, invalidatePricing);
        await audit(
          trx,
          input.op,
          'admin.rate_plan_changed',
          `Saved ${input.prices.length} prices of "${plan.name}"`,
          plan.id,
        );
      });
      return detail(input.id);
    },

    /**
     * Imports prices from CSV: a header row with `prefix` and `price` (major units, e.g. 0.05);
     * any other column (country) is ignored. Every bad row is reported with its line and nothing
     * is written unless every row is good.
     */
    async importCsv(input: {
      op: Operator;
      id: string;
      csv: string;
      mode: 'replace' | 'merge';
    }): Promise<ImportResult> {
      const plan = (await summaries(db, input.id))[0];
      if (!plan) throw notFound('Rate plan');
      const { rejected, prices } = parsePriceCsv(input.csv, plan.currency);
      if (rejected.length > 0) return { imported: 0, rejected };
      await transact(db, async (trx) => {
        await lockPlan(trx, plan.id);
        await writePrices(trx, plan.id, prices, input.mode === 'replace');
        await pricingChanged(trx, invalidatePricing);
        await audit(
          trx,
          input.op,
          'admin.rate_plan_imported',
          `Imported ${prices.length} prices into "${plan.name}" (${input.mode})`,
          plan.id,
        );
      });
      return { imported: prices.length, rejected: [] };
    },

    async exportCsv(input: { op: Operator; id: string }) {
      const plan = await detail(input.id);
      await audit(db, input.op, 'admin.export', `Exported rate plan "${plan.name}"`, plan.id);
      const body = priceListCsv(plan);
      return {
        fileName: `rate-plan-${plan.name.replace(/[^\w.-]+/g, '_').slice(0, 40)}.csv`,
        stream: Readable.from([body]),
      };
    },

    /** What one segment to `to` costs on this plan (the longest matching prefix). */
    async preview(input: { id: string; to: string }): Promise<PricePreview> {
      const plan = await detail(input.id);
      const typing = new AsYouType();
      typing.input(input.to.replace(/[^\d+]/g, ''));
      const to = typing.getNumberValue() ?? input.to;
      if (!/^\+\d{4,15}$/.test(to)) {
        throw new AppError(
          ErrorCode.UNPROCESSABLE,
          'Enter the number in international format, e.g. +447700900123',
        );
      }
      const match = [...plan.prices]
        .sort((a, b) => b.prefix.length - a.prefix.length)
        .find((p) => to.startsWith(p.prefix));
      if (!match) {
        throw new AppError(
          ErrorCode.UNPROCESSABLE,
          `"${plan.name}" has no price for ${to}: it cannot be sent to`,
        );
      }
      return {
        to,
        prefix: match.prefix,
        country: match.country,
        countryName: match.countryName,
        priceMinor: match.priceMinor,
        currency: plan.currency,
      };
    },
  };
}
