import { DASHBOARD_API, dashboardSummarySchema } from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';

/** The dashboard figures over HTTP (the hub serves the same data live). */
export function dashboardRoutes(ctx: AppContext) {
  const { dashboard } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      DASHBOARD_API.summary,
      { config: can('messages:read'), schema: { response: { 200: dashboardSummarySchema } } },
      async (req) => {
        const { accountId, userId } = authOf(req);
        return dashboard.summary({ accountId, userId });
      },
    );
  };
}
