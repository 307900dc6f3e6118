import type { Db } from '../../platform/db';

/** The rate plan of each account on one of `planIds`: routes limited to a rate plan match by it. */
export async function accountsOnPlans(db: Db, planIds: readonly string[]): Promise<Map<string, string>> {
  if (planIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'rate_plan_id'])
    .where('rate_plan_id', 'in', [...planIds])
    .execute();
  const out = new Map<string, string>();
  for (const r of rows) if (r.rate_plan_id) out.set(r.id, r.rate_plan_id);
  return out;
}
