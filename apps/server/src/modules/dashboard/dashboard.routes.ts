import { DASHBOARD_API } from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context';
import { authOf } from '../../platform/http/auth-guard';

/** The dashboard figures over HTTP (the hub serves the same data live). */
export function dashboardRoutes(ctx: AppContext) {
  const { dashboard } = ctx.services;

  return async (app: FastifyInstance) => {
    app.get(DASHBOARD_API.summary, async (req) => {
      const { accountId, userId } = authOf(req);
      return dashboard.summary({ accountId, userId });
    });
  };
}
