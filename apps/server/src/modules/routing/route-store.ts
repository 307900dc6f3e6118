import { sql } from 'kysely';
import type { RouteDef, RouteLane, RouteStrategy } from '../../gateway/routing/route-table';
import type { Db } from '../../platform/db';

/** A stored route with its entries, as the console and the workers read it. */
export interface StoredRoute {
  id: string;
  name: string;
  prefix: string;
  accountId: string | null;
  ratePlanId: string | null;
  lane: RouteLane | null;
  sender: string | null;
  strategy: RouteStrategy;
  qualityFloor: number | null;
  costCeilingMicros: number | null;
  entries: { connection: string; costMicros: number; priority: number; weight: number }[];
  createdAt: Date;
  updatedAt: Date;
}

/** What a create or an update writes. */
export type RouteValues = Omit<StoredRoute, 'id' | 'createdAt' | 'updatedAt'>;

/** Every route with its entries (a few thousand at most: the workers compile them all). */
export async function listRoutes(db: Db, ids?: string[]): Promise<StoredRoute[]> {
  let q = db.selectFrom('smsc_routes').selectAll();
  if (ids) q = q.where('id', 'in', ids.length ? ids : ['00000000-0000-0000-0000-000000000000']);
  const routes = await q.orderBy('prefix').orderBy('name').execute();
  if (routes.length === 0) return [];
  const entries = await db
    .selectFrom('smsc_route_entries')
    .selectAll()
    .where(
      'route_id',
      'in',
      routes.map((r) => r.id),
    )
    .orderBy('priority')
    .orderBy('connection')
    .execute();
  const byRoute = new Map<string, StoredRoute['entries']>();
  for (const e of entries) {
    const list = byRoute.get(e.route_id) ?? [];
    list.push({
      connection: e.connection,
      costMicros: Number(e.cost_micros),
      priority: e.priority,
      weight: e.weight,
    });
    byRoute.set(e.route_id, list);
  }
  return routes.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    accountId: r.account_id,
    ratePlanId: r.rate_plan_id,
    lane: r.lane as RouteLane | null,
    sender: r.sender,
    strategy: r.strategy as RouteStrategy,
    qualityFloor: r.quality_floor === null ? null : Number(r.quality_floor),
    costCeilingMicros: r.cost_ceiling_micros === null ? null : Number(r.cost_ceiling_micros),
    entries: byRoute.get(r.id) ?? [],
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}

/** The routes as the route table compiles them (a stored route is a RouteDef with its times). */
export async function loadRouteDefs(db: Db): Promise<RouteDef[]> {
  return listRoutes(db);
}

/** Moves with every change (bumped in its transaction): the workers' cue to load the routes again. */
export async function routesVersion(db: Db): Promise<string> {
  const row = await db.selectFrom('smsc_routes_version').select('version').executeTakeFirst();
  return String(row?.version ?? 0);
}

async function bumpVersion(trx: Db): Promise<void> {
  await sql`UPDATE smsc_routes_version SET version = version + 1`.execute(trx);
}

async function writeEntries(trx: Db, routeId: string, entries: RouteValues['entries']): Promise<void> {
  await trx.deleteFrom('smsc_route_entries').where('route_id', '=', routeId).execute();
  if (entries.length === 0) return;
  await trx
    .insertInto('smsc_route_entries')
    .values(
      entries.map((e) => ({
        route_id: routeId,
        connection: e.connection,
        cost_micros: e.costMicros,
        priority: e.priority,
        weight: e.weight,
      })),
    )
    .execute();
}

const columns = (v: RouteValues) => ({
  name: v.name,
  prefix: v.prefix,
  account_id: v.accountId,
  rate_plan_id: v.ratePlanId,
  lane: v.lane,
  sender: v.sender,
  strategy: v.strategy,
  quality_floor: v.qualityFloor,
  cost_ceiling_micros: v.costCeilingMicros,
});

export async function insertRoute(trx: Db, v: RouteValues): Promise<string> {
  const { id } = await trx
    .insertInto('smsc_routes')
    .values(columns(v))
    .returning('id')
    .executeTakeFirstOrThrow();
  await writeEntries(trx, id, v.entries);
  await bumpVersion(trx);
  return id;
}

/** False when no route has that id. */
export async function updateRoute(trx: Db, id: string, v: RouteValues): Promise<boolean> {
  const res = await trx
    .updateTable('smsc_routes')
    .set({ ...columns(v), updated_at: new Date() })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return false;
  await writeEntries(trx, id, v.entries);
  await bumpVersion(trx);
  return true;
}

/** The route removed (for the audit), or null when no route has that id. */
export async function deleteRoute(trx: Db, id: string): Promise<{ name: string; prefix: string } | null> {
  const row = await trx
    .deleteFrom('smsc_routes')
    .where('id', '=', id)
    .returning(['name', 'prefix'])
    .executeTakeFirst();
  if (!row) return null;
  await bumpVersion(trx);
  return row;
}
