import {
  DASHBOARD_API,
  dashboardSummaryOfRoleSchema,
  HUB_METHOD_PERMISSIONS,
  roleCan,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { readOptions } from '../../platform/http/read-after-write';
import { can } from '../../platform/http/route-auth';

/** The dashboard figures over HTTP (the hub serves the same data live). */
export function dashboardRoutes(ctx: AppContext) {
  const { dashboard } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      DASHBOARD_API.summary,
      // Every member has a dashboard: each figure needs what the hub method serving it live needs.
      { config: can('self'), schema: { response: { 200: dashboardSummaryOfRoleSchema } } },
      async (req) => {
        const { accountId, userId, accountRole } = authOf(req);
        const parts = {
          balance: roleCan(accountRole, HUB_METHOD_PERMISSIONS.GetAccountBalance),
          delivery: roleCan(accountRole, HUB_METHOD_PERMISSIONS.GetDeliveryStatus),
        };
        // Lag-tolerant: the read replica's while it is fresh (platform/read-replica.ts).
        return ctx.reads.read((db) => dashboard.summary({ accountId, userId }, db, parts), readOptions(req));
      },
    );
  };
}
