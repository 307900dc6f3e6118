import {
  ADMIN_TOP_UPS_API,
  BILLING_API,
  BILLING_DATA_API,
  billingLedgerQuerySchema,
  billingPriceListSchema,
  fileResponse,
  ledgerFilterSchema,
  ledgerPageSchema,
  lowBalanceDtoSchema,
  lowBalanceSchema,
  priceQuerySchema,
  STRIPE_WEBHOOK_PATH,
  adminTopUpListSchema,
  adminTopUpQuerySchema,
  billingSummaryDtoSchema,
  checkoutResultSchema,
  checkoutSchema,
  topUpDecisionSchema,
  topUpDtoSchema,
  topUpListSchema,
  topUpRequestSchema,
} from '@wren/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { csvDownloadHeaders } from '../../shared/csv';
import { ADMIN, PUBLIC, can } from '../../platform/http/route-auth';
import { PaymentSignatureError } from './payment-provider';
import type { TopUpsService } from './top-ups.service';

const idParams = z.object({ id: z.uuid('Unknown top-up request') });
const actorOf = (req: FastifyRequest) => {
  const a = authOf(req);
  return { accountId: a.accountId, userId: a.userId, ip: req.ip ?? null };
};

/**
 * Billing of the signed-in account (issue 47 item 1): the summary and top-ups (billing:read), a
 * checkout or a request (billing:topup); the operators' decisions on requests (admin); and the
 * Stripe webhook (public: its signature over the raw body is its authentication).
 */
export function billingRoutes(ctx: AppContext) {
  const topUps: TopUpsService = ctx.services.topUps;
  const { billing } = ctx.services;
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const csv = (description: string) => ({ 200: fileResponse('text/csv', description) });

    // ---- prices, ledger, low-balance alert ----
    r.get(
      BILLING_DATA_API.prices,
      {
        config: can('billing:read'),
        schema: { querystring: priceQuerySchema, response: { 200: billingPriceListSchema } },
      },
      async (req) => billing.prices(authOf(req).accountId, req.query.q),
    );
    r.get(
      BILLING_DATA_API.pricesCsv,
      { config: can('billing:read'), schema: { response: csv("The account's prices by country as CSV") } },
      async (req, reply) =>
        reply
          .headers(csvDownloadHeaders('wren-prices.csv'))
          .send(await billing.pricesCsv(authOf(req).accountId)),
    );
    r.get(
      BILLING_DATA_API.ledger,
      {
        config: can('billing:read'),
        schema: { querystring: billingLedgerQuerySchema, response: { 200: ledgerPageSchema } },
      },
      async (req) => billing.ledgerPage(authOf(req).accountId, req.query),
    );
    r.get(
      BILLING_DATA_API.ledgerCsv,
      {
        config: can('billing:read'),
        schema: { querystring: ledgerFilterSchema, response: csv("The account's ledger as CSV") },
      },
      async (req, reply) =>
        reply
          .headers(csvDownloadHeaders('wren-ledger.csv'))
          .send(billing.ledgerCsv(authOf(req).accountId, req.query)),
    );
    r.get(
      BILLING_DATA_API.lowBalance,
      { config: can('billing:read'), schema: { response: { 200: lowBalanceDtoSchema } } },
      async (req) => billing.lowBalance(authOf(req).accountId),
    );
    r.put(
      BILLING_DATA_API.lowBalance,
      {
        config: can('billing:topup'),
        schema: { body: lowBalanceSchema, response: { 200: lowBalanceDtoSchema } },
      },
      async (req) => billing.setLowBalance(actorOf(req), req.body.thresholdMinor),
    );

    r.get(
      BILLING_API.summary,
      { config: can('billing:read'), schema: { response: { 200: billingSummaryDtoSchema } } },
      async (req) => topUps.summary(authOf(req).accountId),
    );
    r.get(
      BILLING_API.topUps,
      { config: can('billing:read'), schema: { response: { 200: topUpListSchema } } },
      async (req) => ({ items: await topUps.list(authOf(req).accountId) }),
    );
    r.post(
      BILLING_API.topUps,
      {
        config: can('billing:topup'),
        schema: { body: topUpRequestSchema, response: { 201: topUpDtoSchema } },
      },
      async (req, reply) => reply.status(201).send(await topUps.request(actorOf(req), req.body)),
    );
    r.post(
      BILLING_API.checkout,
      {
        config: can('billing:topup'),
        schema: { body: checkoutSchema, response: { 201: checkoutResultSchema } },
      },
      async (req, reply) =>
        reply.status(201).send(await topUps.startCheckout(actorOf(req), req.body.amountMinor)),
    );

    // ---- operators ----
    r.get(
      ADMIN_TOP_UPS_API.list,
      {
        config: ADMIN,
        schema: { querystring: adminTopUpQuerySchema, response: { 200: adminTopUpListSchema } },
      },
      async (req) => ({ items: await topUps.listForOperators(req.query.status) }),
    );
    for (const decision of ['approve', 'reject'] as const) {
      r.post(
        ADMIN_TOP_UPS_API[decision],
        {
          config: ADMIN,
          schema: { params: idParams, body: topUpDecisionSchema, response: { 200: topUpDtoSchema } },
        },
        async (req) => topUps.decide(actorOf(req), req.params.id, decision, req.body.note),
      );
    }

    // ---- the Stripe webhook: the raw body, for its signature ----
    await app.register(async (hook) => {
      hook.removeContentTypeParser('application/json');
      hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
        done(null, body),
      );
      hook.post(
        STRIPE_WEBHOOK_PATH,
        { config: { ...PUBLIC, rateLimit: { max: 600, timeWindow: 60_000 } }, bodyLimit: 256 * 1024 },
        async (req, reply) => {
          const provider = topUps.provider;
          if (!provider) return reply.status(404).send({ error: 'Stripe is not configured on this server' });
          const raw = req.body;
          if (!Buffer.isBuffer(raw)) return reply.status(400).send({ error: 'Send the event as JSON' });
          const sig = req.headers['stripe-signature'];
          let event;
          try {
            event = provider.verifyEvent(raw, Array.isArray(sig) ? sig[0] : sig);
          } catch (err) {
            if (err instanceof PaymentSignatureError) {
              req.log.warn({ reason: err.message }, 'Stripe webhook refused: bad signature');
              return reply.status(400).send({ error: 'Invalid signature' });
            }
            throw err;
          }
          const outcome = await topUps.handleEvent(event);
          return reply.status(200).send({ received: true, outcome });
        },
      );
    });
  };
}
