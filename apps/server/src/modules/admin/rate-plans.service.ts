import { ErrorCode } from '@wren/contracts';
import { sql } from 'kysely';
import { type Db, transact } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { isUniqueViolation } from '../../shared/unique-violation';
import { pricingChanged } from './pricing-sync';
import type { Operator } from './operator';
import { createRatePlanPrices } from './rate-plan-prices';
import { audit, detail as planDetail, lockPlan, summaries } from './rate-plans.repository';

interface Deps {
  db: Db;
  /** Drops this node's price cache (pricing.invalidate); other nodes hear of it by NOTIFY. */
  invalidatePricing?: () => void;
}

/** Rate plans for operators: prices per destination prefix, longest match wins. */
export function createRatePlansService({ db, invalidatePricing = () => undefined }: Deps) {
  const detail = (id: string) => planDetail(db, id);

  const nameTaken = (name: string) =>
    new AppError(ErrorCode.CONFLICT, `A rate plan named "${name}" already exists`);

  return {
    async list() {
      return { items: await summaries(db) };
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

    ...createRatePlanPrices({ db, invalidatePricing }),
  };
}

export type RatePlansService = ReturnType<typeof createRatePlansService>;
