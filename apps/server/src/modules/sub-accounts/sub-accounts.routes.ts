import {
  accountStatusSummarySchema,
  createSubAccountSchema,
  createTransferSchema,
  lockSubAccountSchema,
  setSubAccountPricingSchema,
  SUB_ACCOUNTS_API,
  subAccountDetailSchema,
  subAccountListQuerySchema,
  subAccountListSchema,
  subAccountPricingDetailSchema,
  subAccountSummarySchema,
  subAccountUsageQuerySchema,
  subAccountUsageSummarySchema,
  transferResultSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf, clientOf } from '../../platform/http/auth-guard';
import { can, SELF } from '../../platform/http/route-auth';

const params = z.object({ id: z.uuid('Unknown sub-account') });
const manage = can('subaccounts:manage');

/** Sub-accounts for resellers (issue 39 item 4): every route acts on the caller's own children. */
export function subAccountsRoutes(ctx: AppContext) {
  const { subAccounts, subAccountPricing } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      SUB_ACCOUNTS_API.list,
      {
        config: manage,
        schema: { querystring: subAccountListQuerySchema, response: { 200: subAccountListSchema } },
      },
      async (req) => subAccounts.list(authOf(req), req.query),
    );

    r.post(
      SUB_ACCOUNTS_API.list,
      {
        config: manage,
        schema: { body: createSubAccountSchema, response: { 201: subAccountSummarySchema } },
      },
      async (req, reply) =>
        reply.status(201).send(await subAccounts.create(authOf(req), req.body, clientOf(req))),
    );

    r.get(
      SUB_ACCOUNTS_API.one,
      { config: manage, schema: { params, response: { 200: subAccountDetailSchema } } },
      async (req) => subAccounts.get(authOf(req), req.params.id),
    );

    r.post(
      SUB_ACCOUNTS_API.transfers,
      {
        config: manage,
        schema: { params, body: createTransferSchema, response: { 200: transferResultSchema } },
      },
      async (req) => subAccounts.transfer(authOf(req), req.params.id, req.body, clientOf(req)),
    );

    r.get(
      SUB_ACCOUNTS_API.pricing,
      { config: manage, schema: { params, response: { 200: subAccountPricingDetailSchema } } },
      async (req) => subAccountPricing.get(authOf(req), req.params.id),
    );

    r.put(
      SUB_ACCOUNTS_API.pricing,
      {
        config: manage,
        schema: {
          params,
          body: setSubAccountPricingSchema,
          response: { 200: subAccountPricingDetailSchema },
        },
      },
      async (req) => subAccountPricing.set(authOf(req), req.params.id, req.body, clientOf(req)),
    );

    r.get(
      SUB_ACCOUNTS_API.usage,
      {
        config: manage,
        schema: {
          params,
          querystring: subAccountUsageQuerySchema,
          response: { 200: subAccountUsageSummarySchema },
        },
      },
      async (req) => subAccountPricing.usage(authOf(req), req.params.id, req.query),
    );

    r.put(
      SUB_ACCOUNTS_API.lock,
      {
        config: manage,
        schema: { params, body: lockSubAccountSchema, response: { 200: subAccountSummarySchema } },
      },
      async (req) => subAccounts.setLock(authOf(req), req.params.id, req.body.reason, clientOf(req)),
    );

    r.delete(
      SUB_ACCOUNTS_API.lock,
      { config: manage, schema: { params, response: { 200: subAccountSummarySchema } } },
      async (req) => subAccounts.setLock(authOf(req), req.params.id, null, clientOf(req)),
    );

    r.get(
      SUB_ACCOUNTS_API.status,
      { config: SELF, schema: { response: { 200: accountStatusSummarySchema } } },
      async (req) => subAccounts.status(authOf(req).accountId),
    );
  };
}
