import {
  costToMicros,
  ErrorCode,
  microsToCost,
  routeInputSchema,
  type RouteDto,
  type RouteListDto,
  type RouteTestDto,
  type routeTestSchema,
} from '@wren/contracts';
import type { z } from 'zod';
import { createRouter } from '../../gateway/smpp-gateway';
import { compileRoutes, type ConnectionHealth } from '../../gateway/routing/route-table';
import { healthOf } from '../../gateway/routing/routed-gateway';
import type { Config } from '../../platform/config';
import { transact, type Db } from '../../platform/db';
import { AppError, FieldError } from '../../platform/errors';
import { isUniqueViolation } from '../../shared/unique-violation';
import { recordAudit } from '../audit/audit.service';
import type { Operator } from '../admin/operator';
import { aliveReports } from '../admin/alive-reports';
import { accountsOnPlans } from './account-plans';
import {
  deleteRoute,
  insertRoute,
  listRoutes,
  updateRoute,
  type RouteValues,
  type StoredRoute,
} from './route-store';

type RouteInput = z.output<typeof routeInputSchema>;
type RouteTest = z.output<typeof routeTestSchema>;

function toDto(r: StoredRoute): RouteDto {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    accountId: r.accountId,
    ratePlanId: r.ratePlanId,
    lane: r.lane,
    sender: r.sender,
    strategy: r.strategy,
    qualityFloor: r.qualityFloor,
    costCeiling: r.costCeilingMicros === null ? null : microsToCost(r.costCeilingMicros),
    entries: r.entries.map((e) => ({ ...e, cost: microsToCost(e.costMicros) })),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** One line for the audit log: what the route does now. */
function describe(v: RouteValues): string {
  const filters = [
    v.accountId && `account ${v.accountId}`,
    v.ratePlanId && `rate plan ${v.ratePlanId}`,
    v.lane && `lane ${v.lane}`,
    v.sender && `sender ${v.sender}`,
  ].filter(Boolean);
  const entries = v.entries.map(
    (e) => `${e.connection} ${microsToCost(e.costMicros)} p${e.priority} w${e.weight}`,
  );
  return `${v.name} (${v.prefix}${filters.length ? `, ${filters.join(', ')}` : ''}, ${v.strategy}): ${entries.join('; ')}`;
}

/**
 * Operators' routes (issue 38): list, create, change and remove them (each change audited and
 * applied by every worker within 2 s), test what a number would go through, and the margin.
 */
export function createRoutingService(deps: { db: Db; config: Config }) {
  const { db, config } = deps;

  /** Alive workers' reports: their connections, binds and pauses. */
  const reports = () => aliveReports(db);

  /**
   * The connections a route may list: those stored (Admin → Connections) or configured, else the
   * built-in simulator's, and any a worker reports.
   */
  async function connectionNames(): Promise<string[]> {
    const stored = await db.selectFrom('smsc_connections').select('name').execute();
    const names = new Set([...config.smscConnections.map((c) => c.name), ...stored.map((c) => c.name)]);
    if (names.size === 0) names.add('simulator');
    for (const r of await reports()) for (const c of r.connections) names.add(c.name);
    return [...names].sort();
  }

  async function values(input: RouteInput): Promise<RouteValues> {
    const known = new Set(await connectionNames());
    const errors: Record<string, string[]> = {};
    input.entries.forEach((e, i) => {
      if (!known.has(e.connection))
        errors[`entries.${i}.connection`] = [
          `No SMPP connection is named "${e.connection}" (configured: ${[...known].join(', ')})`,
        ];
    });
    if (input.accountId) {
      const account = await db
        .selectFrom('accounts')
        .select('id')
        .where('id', '=', input.accountId)
        .executeTakeFirst();
      if (!account) errors.accountId = ['No account has that id'];
    }
    if (input.ratePlanId) {
      const plan = await db
        .selectFrom('rate_plans')
        .select('id')
        .where('id', '=', input.ratePlanId)
        .executeTakeFirst();
      if (!plan) errors.ratePlanId = ['No rate plan has that id'];
    }
    if (Object.keys(errors).length > 0) throw new FieldError(errors);
    const quality = input.strategy === 'quality';
    return {
      name: input.name,
      prefix: input.prefix,
      accountId: input.accountId ?? null,
      ratePlanId: input.ratePlanId ?? null,
      lane: input.lane ?? null,
      sender: input.sender ?? null,
      strategy: input.strategy,
      // Any route may have a floor (its connections below it leave the rotation); only quality
      // routes judge by a cost ceiling: kept off the others, not silently unused.
      qualityFloor: input.qualityFloor ?? null,
      costCeilingMicros: quality && input.costCeiling ? costToMicros(input.costCeiling) : null,
      entries: input.entries.map((e) => ({
        connection: e.connection,
        costMicros: costToMicros(e.cost),
        priority: e.priority,
        weight: e.weight,
      })),
    };
  }

  const duplicate = (err: unknown) =>
    isUniqueViolation(err, 'smsc_routes_name_key')
      ? new FieldError({ name: ['Another route has that name'] })
      : isUniqueViolation(err, 'smsc_routes_match')
        ? new AppError(
            ErrorCode.CONFLICT,
            'Another route has the same prefix and filters: change that one, or narrow this one',
          )
        : err;

  const one = async (id: string) => {
    const [route] = await listRoutes(db, [id]);
    if (!route) throw new AppError(ErrorCode.NOT_FOUND, 'No route has that id');
    return toDto(route);
  };

  return {
    async list(): Promise<RouteListDto> {
      const [routes, connections] = await Promise.all([listRoutes(db), connectionNames()]);
      return { items: routes.map(toDto), connections };
    },

    async create(op: Operator, input: RouteInput): Promise<RouteDto> {
      const v = await values(input);
      const id = await transact(db, async (trx) => {
        const created = await insertRoute(trx, v);
        await recordAudit(trx, {
          accountId: null,
          userId: null,
          actorUserId: op.userId,
          ip: op.ip,
          kind: 'admin.route_created',
          message: `Created route ${describe(v)}: ${input.reason}`,
          resourceType: 'smsc_route',
          resourceId: created,
        });
        return created;
      }).catch((err: unknown) => {
        throw duplicate(err);
      });
      return one(id);
    },

    async update(op: Operator, id: string, input: RouteInput): Promise<RouteDto> {
      const v = await values(input);
      await transact(db, async (trx) => {
        if (!(await updateRoute(trx, id, v))) throw new AppError(ErrorCode.NOT_FOUND, 'No route has that id');
        await recordAudit(trx, {
          accountId: null,
          userId: null,
          actorUserId: op.userId,
          ip: op.ip,
          kind: 'admin.route_changed',
          message: `Changed route ${describe(v)}: ${input.reason}`,
          resourceType: 'smsc_route',
          resourceId: id,
        });
      }).catch((err: unknown) => {
        throw duplicate(err);
      });
      return one(id);
    },

    async remove(op: Operator, id: string, reason: string): Promise<void> {
      await transact(db, async (trx) => {
        const gone = await deleteRoute(trx, id);
        if (!gone) throw new AppError(ErrorCode.NOT_FOUND, 'No route has that id');
        await recordAudit(trx, {
          accountId: null,
          userId: null,
          actorUserId: op.userId,
          ip: op.ip,
          kind: 'admin.route_removed',
          message: `Removed route ${gone.name} (${gone.prefix}): ${reason}`,
          resourceType: 'smsc_route',
          resourceId: id,
        });
      });
    },

    /**
     * What a number would go through now, and why: the stored routes compiled as the workers do,
     * with each connection's health as the workers last reported it (a bind up on some worker, not
     * paused, its delivered ratio).
     */
    async test(input: RouteTest): Promise<RouteTestDto> {
      const [routes, workers] = await Promise.all([listRoutes(db), reports()]);
      const byName = new Map<string, ConnectionHealth>();
      for (const w of workers)
        for (const c of w.connections) {
          const seen = byName.get(c.name);
          const h = healthOf({
            paused: c.paused,
            draining: c.draining ?? false,
            bound: c.bound,
            throttled: c.throttled ?? false,
            deliveredRatio: c.deliveredRatio ?? undefined,
            receiptP50Ms: c.receiptP50Ms ?? undefined,
          });
          if (!seen || (h.usable && !seen.usable)) byName.set(c.name, h);
        }
      const health = (name: string): ConnectionHealth =>
        byName.get(name) ?? { usable: false, why: 'no worker reports it' };
      let ratePlanId: string | null | undefined;
      if (input.accountId) {
        const plans = [...new Set(routes.flatMap((r) => (r.ratePlanId ? [r.ratePlanId] : [])))];
        ratePlanId = (await accountsOnPlans(db, plans)).get(input.accountId) ?? null;
      }
      const decision = compileRoutes(routes).decide(
        {
          to: input.to,
          accountId: input.accountId,
          ratePlanId,
          lane: input.lane,
          sender: input.sender,
        },
        health,
        // The console explains a weighted route by its first draw; a fixed draw keeps it stable.
        () => 0,
      );
      if (!decision) {
        const configured = config.smscConnections.length
          ? config.smscConnections
          : [{ name: 'simulator', prefixes: [] as string[] }];
        const fallback = createRouter(configured.map((c) => ({ cfg: c })))(input.to);
        return {
          route: null,
          candidates: [],
          reason: fallback
            ? `No route matches ${input.to}: the connections' own prefixes send it through ${fallback.cfg.name}`
            : `No route matches ${input.to}, and no connection's prefixes do: it would be refused`,
          fallback: fallback?.cfg.name ?? null,
        };
      }
      const r = decision.route;
      return {
        route: { id: r.id, name: r.name, prefix: r.prefix, strategy: r.strategy },
        candidates: decision.candidates.map((c) => ({
          connection: c.connection,
          cost: microsToCost(c.costMicros),
          usable: c.usable,
          reason: c.reason,
        })),
        reason: decision.reason,
        fallback: null,
      };
    },
  };
}

export type RoutingService = ReturnType<typeof createRoutingService>;
