import { Readable } from 'node:stream';
import {
  ErrorCode,
  priceInputSchema,
  type ImportResult,
  type PriceDto,
  type PricePreview,
  type RatePlanDetail,
  type RatePlanSummary,
} from '@wren/contracts';
import { AsYouType, getCountries, getCountryCallingCode, type CountryCode } from 'libphonenumber-js';
import { sql } from 'kysely';
import Papa from 'papaparse';
import { type Db, transact } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import { CSV_BOM, csvLine, majorUnits, unguardCell } from '../../shared/csv';
import { isUniqueViolation } from '../../shared/unique-violation';
import { recordAudit } from '../audit/audit.repository';
import { pricingChanged } from './pricing-sync';
import type { Operator } from './admin.service';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Calling code → its regions, the main one first (libphonenumber's metadata order). */
const regionsByCode = new Map<string, CountryCode[]>();
for (const c of getCountries()) {
  const code = getCountryCallingCode(c);
  const list = regionsByCode.get(code) ?? [];
  list.push(c);
  regionsByCode.set(code, list);
}
const MAIN_REGION: Record<string, CountryCode> = {
  '1': 'US',
  '7': 'RU',
  '44': 'GB',
  '61': 'AU',
  '39': 'IT',
  '47': 'NO',
  '212': 'MA',
  '262': 'RE',
  '290': 'SH',
  '358': 'FI',
  '590': 'GP',
  '599': 'CW',
};

/**
 * The country a price prefix stands for, from libphonenumber's metadata: the region the prefix
 * already decides (+1876 → JM, +77 → KZ), else the calling code's main region (+1 → US, +44 → GB).
 */
export function countryOfPrefix(prefix: string): { country: string | null; countryName: string | null } {
  if (!prefix) return { country: null, countryName: null };
  const typing = new AsYouType();
  typing.input(prefix);
  const code = typing.getCallingCode();
  const country =
    typing.getCountry() ?? (code ? (MAIN_REGION[code] ?? regionsByCode.get(code)?.[0]) : undefined);
  if (!country) return { country: null, countryName: null };
  return { country, countryName: regionNames.of(country) ?? country };
}

/** Parses a price in major units ("0.05", "5") to minor units, exactly (no floating point). */
export function parseMajor(text: string, currency: string): number | null {
  const digits =
    new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
    2;
  const m = /^(\d{1,7})(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const frac = m[2] ?? '';
  if (frac.length > digits) return null;
  return Number(m[1]) * 10 ** digits + Number(frac.padEnd(digits, '0') || '0');
}

const toPrice = (r: { prefix: string; price_minor: number }): PriceDto => ({
  prefix: r.prefix,
  ...countryOfPrefix(r.prefix),
  priceMinor: r.price_minor,
});

interface Deps {
  db: Db;
  /** Drops this node's price cache (pricing.invalidate); other nodes hear of it by NOTIFY. */
  invalidatePricing?: () => void;
}

/** Rate plans for operators: prices per destination prefix, longest match wins. */
export function createRatePlansService({ db, invalidatePricing = () => undefined }: Deps) {
  async function summaries(id?: string): Promise<RatePlanSummary[]> {
    let q = db
      .selectFrom('rate_plans as p')
      .select([
        'p.id',
        'p.name',
        'p.currency',
        'p.is_default',
        'p.created_at',
        sql<number>`(SELECT count(*)::int FROM rate_plan_prices r WHERE r.plan_id = p.id)`.as('price_count'),
        sql<number>`(SELECT count(*)::int FROM accounts a WHERE a.rate_plan_id = p.id OR (a.rate_plan_id IS NULL AND p.is_default))`.as(
          'account_count',
        ),
      ]);
    if (id) q = q.where('p.id', '=', id);
    const rows = await q.orderBy('p.is_default', 'desc').orderBy('p.name').execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      currency: r.currency,
      isDefault: r.is_default,
      priceCount: Number(r.price_count),
      accountCount: Number(r.account_count),
      createdAt: r.created_at.toISOString(),
    }));
  }

  async function detail(id: string): Promise<RatePlanDetail> {
    const [plan] = await summaries(id);
    if (!plan) throw notFound('Rate plan');
    const prices = await db
      .selectFrom('rate_plan_prices')
      .select(['prefix', 'price_minor'])
      .where('plan_id', '=', id)
      .orderBy('prefix')
      .execute();
    return { ...plan, prices: prices.map(toPrice) };
  }

  async function lockPlan(trx: Db, id: string) {
    const plan = await trx
      .selectFrom('rate_plans')
      .select(['id', 'name', 'currency', 'is_default'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!plan) throw notFound('Rate plan');
    return plan;
  }

  const nameTaken = (name: string) =>
    new AppError(ErrorCode.CONFLICT, `A rate plan named "${name}" already exists`);

  async function writePrices(
    trx: Db,
    planId: string,
    prices: { prefix: string; priceMinor: number }[],
    replace: boolean,
  ) {
    if (replace) await trx.deleteFrom('rate_plan_prices').where('plan_id', '=', planId).execute();
    if (prices.length === 0) return;
    for (let i = 0; i < prices.length; i += 1000) {
      await trx
        .insertInto('rate_plan_prices')
        .values(
          prices.slice(i, i + 1000).map((p) => ({
            plan_id: planId,
            prefix: p.prefix,
            country: countryOfPrefix(p.prefix).country,
            price_minor: p.priceMinor,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['plan_id', 'prefix']).doUpdateSet((eb) => ({
            price_minor: eb.ref('excluded.price_minor'),
            country: eb.ref('excluded.country'),
          })),
        )
        .execute();
    }
  }

  function duplicates(prices: { prefix: string }[]) {
    const seen = new Set<string>();
    const dup = new Set<string>();
    for (const p of prices) (seen.has(p.prefix) ? dup : seen).add(p.prefix);
    return [...dup];
  }

  return {
    async list() {
      return { items: await summaries() };
    },

    detail,

    async create(input: { op: Operator; name: string; currency: string }) {
      try {
        const id = await transact(db, async (trx) => {
          const row = await trx
            .insertInto('rate_plans')
            .values({ name: input.name, currency: input.currency })
            .returning('id')
            .executeTakeFirstOrThrow();
          await audit(
            trx,
            input.op,
            'admin.rate_plan_created',
            `Created rate plan "${input.name}" (${input.currency})`,
            row.id,
          );
          return row.id;
        });
        return detail(id);
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(input.name);
        throw err;
      }
    },

    /** A new plan with the same currency and prices. */
    async copy(input: { op: Operator; id: string; name: string }) {
      try {
        const id = await transact(db, async (trx) => {
          const from = await lockPlan(trx, input.id);
          const row = await trx
            .insertInto('rate_plans')
            .values({ name: input.name, currency: from.currency })
            .returning('id')
            .executeTakeFirstOrThrow();
          await sql`INSERT INTO rate_plan_prices (plan_id, prefix, country, price_minor)
            SELECT ${row.id}::uuid, prefix, country, price_minor FROM rate_plan_prices WHERE plan_id = ${from.id}::uuid`.execute(
            trx,
          );
          await audit(
            trx,
            input.op,
            'admin.rate_plan_created',
            `Copied rate plan "${from.name}" to "${input.name}"`,
            row.id,
          );
          return row.id;
        });
        return detail(id);
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(input.name);
        throw err;
      }
    },

    async rename(input: { op: Operator; id: string; name: string }) {
      try {
        await transact(db, async (trx) => {
          const plan = await lockPlan(trx, input.id);
          await trx.updateTable('rate_plans').set({ name: input.name }).where('id', '=', plan.id).execute();
          await audit(
            trx,
            input.op,
            'admin.rate_plan_changed',
            `Renamed rate plan "${plan.name}" to "${input.name}"`,
            plan.id,
          );
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(input.name);
        throw err;
      }
      return detail(input.id);
    },

    /** Makes the plan the default: accounts without a plan of their own are priced by it. */
    async makeDefault(input: { op: Operator; id: string }) {
      await transact(db, async (trx) => {
        const plan = await lockPlan(trx, input.id);
        if (plan.is_default)
          throw new AppError(ErrorCode.CONFLICT, `"${plan.name}" is already the default plan`);
        await trx
          .updateTable('rate_plans')
          .set({ is_default: false })
          .where('is_default', '=', true)
          .execute();
        await trx.updateTable('rate_plans').set({ is_default: true }).where('id', '=', plan.id).execute();
        await pricingChanged(trx, invalidatePricing);
        await audit(
          trx,
          input.op,
          'admin.rate_plan_default',
          `Made "${plan.name}" the default rate plan`,
          plan.id,
        );
      });
      return detail(input.id);
    },

    async remove(input: { op: Operator; id: string }) {
      await transact(db, async (trx) => {
        const plan = await lockPlan(trx, input.id);
        if (plan.is_default) {
          throw new AppError(
            ErrorCode.CONFLICT,
            'The default plan cannot be deleted; make another plan the default first',
          );
        }
        const used = await trx
          .selectFrom('accounts')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('rate_plan_id', '=', plan.id)
          .executeTakeFirstOrThrow();
        if (Number(used.n) > 0) {
          throw new AppError(
            ErrorCode.CONFLICT,
            `"${plan.name}" is assigned to ${used.n} account${Number(used.n) === 1 ? '' : 's'}; assign them another plan first`,
          );
        }
        await trx.deleteFrom('rate_plans').where('id', '=', plan.id).execute();
        await pricingChanged(trx, invalidatePricing);
        await audit(trx, input.op, 'admin.rate_plan_deleted', `Deleted rate plan "${plan.name}"`, plan.id);
      });
    },

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
      const plan = (await summaries(input.id))[0];
      if (!plan) throw notFound('Rate plan');
      const parsed = Papa.parse<string[]>(input.csv.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
      const rows = parsed.data;
      const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
      const prefixCol = header.indexOf('prefix');
      const priceCol = header.findIndex((h) => h === 'price' || h === 'price_per_segment');
      if (prefixCol < 0 || priceCol < 0) {
        throw new AppError(
          ErrorCode.UNPROCESSABLE,
          'The first row must name the columns, with "prefix" and "price" among them',
        );
      }
      const rejected: ImportResult['rejected'] = [];
      const prices: { prefix: string; priceMinor: number }[] = [];
      const lineOf = new Map<string, number>();
      rows.slice(1).forEach((cells, i) => {
        const line = i + 2;
        const rawPrefix = unguardCell((cells[prefixCol] ?? '').trim());
        const rawPrice = unguardCell((cells[priceCol] ?? '').trim());
        const value = `${rawPrefix},${rawPrice}`;
        const priceMinor = parseMajor(rawPrice, plan.currency);
        const check = priceInputSchema.safeParse({ prefix: rawPrefix, priceMinor: priceMinor ?? -1 });
        if (priceMinor === null) {
          rejected.push({
            line,
            value,
            message: `"${rawPrice}" is not a price in ${plan.currency} (e.g. 0.05)`,
          });
        } else if (!check.success) {
          rejected.push({ line, value, message: check.error.issues[0]?.message ?? 'Invalid row' });
        } else if (lineOf.has(check.data.prefix)) {
          rejected.push({
            line,
            value,
            message: `The prefix ${check.data.prefix || '(empty)'} is already on line ${lineOf.get(check.data.prefix)}`,
          });
        } else {
          lineOf.set(check.data.prefix, line);
          prices.push(check.data);
        }
      });
      if (rows.length < 2) rejected.push({ line: 1, value: '', message: 'The file has no prices' });
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
      let body = CSV_BOM + csvLine(['prefix', 'country', 'price']);
      for (const p of plan.prices)
        body += csvLine([p.prefix, p.country ?? '', majorUnits(p.priceMinor, plan.currency)]);
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

async function audit(db: Db, op: Operator, kind: string, message: string, planId: string) {
  await recordAudit(db, {
    accountId: null,
    userId: null,
    actorUserId: op.userId,
    ip: op.ip,
    kind,
    message,
    resourceType: 'rate_plan',
    resourceId: planId,
  });
}

export type RatePlansService = ReturnType<typeof createRatePlansService>;
