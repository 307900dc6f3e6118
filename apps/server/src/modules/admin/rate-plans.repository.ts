import type { PriceDto, RatePlanDetail, RatePlanSummary } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import { notFound } from '../../platform/errors';
import { recordAudit } from '../audit/audit.service';
import type { Operator } from './operator';
import { countryOfPrefix } from './prefix-country';

const toPrice = (r: { prefix: string; price_minor: number }): PriceDto => ({
  prefix: r.prefix,
  ...countryOfPrefix(r.prefix),
  priceMinor: r.price_minor,
});

/** Every rate plan (or the one of `id`) with its price and account counts, the default first. */
export async function summaries(db: Db, id?: string): Promise<RatePlanSummary[]> {
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

/** A plan with its prices; 404 for an unknown one. */
export async function detail(db: Db, id: string): Promise<RatePlanDetail> {
  const [plan] = await summaries(db, id);
  if (!plan) throw notFound('Rate plan');
  const prices = await db
    .selectFrom('rate_plan_prices')
    .select(['prefix', 'price_minor'])
    .where('plan_id', '=', id)
    .orderBy('prefix')
    .execute();
  return { ...plan, prices: prices.map(toPrice) };
}

/** The plan's row, locked for the rest of `trx`; 404 for an unknown one. */
export async function lockPlan(trx: Db, id: string) {
  const plan = await trx
    .selectFrom('rate_plans')
    .select(['id', 'name', 'currency', 'is_default'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!plan) throw notFound('Rate plan');
  return plan;
}

/** Writes prices of a plan (`replace`: its other prices are deleted first), 1,000 a statement. */
export async function writePrices(
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

/** Records an operator's change to a rate plan in the audit log. */
export async function audit(db: Db, op: Operator, kind: string, message: string, planId: string) {
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
