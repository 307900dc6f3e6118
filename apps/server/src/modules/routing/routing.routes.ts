import {
  fileResponse,
  marginQuerySchema,
  noContentSchema,
  routeDeleteSchema,
  routeInputSchema,
  ROUTES_API,
  ErrorCode,
  routeTestSchema,
  smsLogQuerySchema,
  messageDtoSchema,
  messageEventDtoSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { AppError } from '../../platform/errors';
import { ADMIN } from '../../platform/http/route-auth';
import { csvDownloadHeaders } from '../../shared/csv';
import { operatorOf } from '../admin/admin.routes';
import { marginCsv, marginReport } from './margin';
import { createOperatorLog } from './operator-log';
import { createRoutingService } from './routing.service';

const params = z.object({ id: z.uuid('No route has that id') });

// The answers' shapes, for validation of what leaves the server and for the API reference.
const entryDto = z.object({
  connection: z.string(),
  cost: z.string(),
  costMicros: z.number(),
  priority: z.number(),
  weight: z.number(),
});
const routeDto = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  accountId: z.string().nullable(),
  ratePlanId: z.string().nullable(),
  lane: z.enum(['otp', 'single', 'bulk']).nullable(),
  sender: z.string().nullable(),
  strategy: z.enum(['priority', 'weighted', 'least_cost', 'quality']),
  qualityFloor: z.number().nullable(),
  costCeiling: z.string().nullable(),
  entries: z.array(entryDto),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const routeListDto = z.object({ items: z.array(routeDto), connections: z.array(z.string()) });
const routeTestDto = z.object({
  route: z.object({ id: z.string(), name: z.string(), prefix: z.string(), strategy: z.string() }).nullable(),
  candidates: z.array(
    z.object({ connection: z.string(), cost: z.string(), usable: z.boolean(), reason: z.string() }),
  ),
  reason: z.string(),
  fallback: z.string().nullable(),
});
const marginDto = z.object({
  currency: z.string(),
  rows: z.array(
    z.object({
      day: z.string(),
      country: z.string().nullable(),
      countryName: z.string(),
      connection: z.string(),
      messages: z.number(),
      segments: z.number(),
      priceMinor: z.number(),
      costMicros: z.number(),
      marginMicros: z.number(),
    }),
  ),
});

const operatorMessageDto = messageDtoSchema.extend({
  connection: z.string().nullable(),
  route: z
    .object({ name: z.string(), strategy: z.string(), cost: z.string(), totalCostMicros: z.number() })
    .nullable(),
});
const accountParams = z.object({ id: z.uuid('No account has that id') });
const messageParams = accountParams.extend({ messageId: z.uuid('No message has that id') });

/** The longest margin report: a year of days. */
const MAX_MARGIN_DAYS = 366;

function marginRange(q: { from: string; to: string }): { from: Date; to: Date } {
  const from = new Date(`${q.from}T00:00:00Z`);
  const to = new Date(new Date(`${q.to}T00:00:00Z`).getTime() + 86_400_000);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
    throw new AppError(ErrorCode.VALIDATION, 'Write the days as YYYY-MM-DD');
  if (to <= from) throw new AppError(ErrorCode.VALIDATION, 'The last day is before the first');
  if (to.getTime() - from.getTime() > MAX_MARGIN_DAYS * 86_400_000)
    throw new AppError(ErrorCode.VALIDATION, `Ask for at most ${MAX_MARGIN_DAYS} days`);
  return { from, to };
}

/** Operators' routes and margin (issue 38): admin only (ADMIN), every change audited. */
export function routingRoutes(ctx: AppContext) {
  const routing = createRoutingService({ db: ctx.db, config: ctx.config });
  const operatorLog = createOperatorLog(ctx.db, ctx.services.messages);
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(ROUTES_API.list, { schema: { response: { 200: routeListDto } }, config: ADMIN }, async () =>
      routing.list(),
    );
    r.post(
      ROUTES_API.list,
      { schema: { body: routeInputSchema, response: { 201: routeDto } }, config: ADMIN },
      async (req, reply) => reply.status(201).send(await routing.create(operatorOf(req), req.body)),
    );
    r.put(
      ROUTES_API.one,
      { schema: { params, body: routeInputSchema, response: { 200: routeDto } }, config: ADMIN },
      async (req) => routing.update(operatorOf(req), req.params.id, req.body),
    );
    r.delete(
      ROUTES_API.one,
      { schema: { params, body: routeDeleteSchema, response: { 204: noContentSchema } }, config: ADMIN },
      async (req, reply) => {
        await routing.remove(operatorOf(req), req.params.id, req.body.reason);
        return reply.status(204).send();
      },
    );
    r.post(
      ROUTES_API.test,
      { schema: { body: routeTestSchema, response: { 200: routeTestDto } }, config: ADMIN },
      async (req) => routing.test(req.body),
    );
    r.get(
      ROUTES_API.margin,
      { schema: { querystring: marginQuerySchema, response: { 200: marginDto } }, config: ADMIN },
      async (req) => {
        const { from, to } = marginRange(req.query);
        return {
          currency: ctx.config.currency,
          rows: await marginReport(ctx.db, from, to, ctx.config.currency),
        };
      },
    );
    r.get(
      ROUTES_API.accountLog,
      {
        schema: {
          params: accountParams,
          querystring: smsLogQuerySchema,
          response: {
            200: z.object({ items: z.array(operatorMessageDto), nextCursor: z.string().nullable() }),
          },
        },
        config: ADMIN,
      },
      async (req) => operatorLog.page(req.params.id, req.query),
    );
    r.get(
      ROUTES_API.accountMessage,
      {
        schema: {
          params: messageParams,
          response: {
            200: z.object({ message: operatorMessageDto, events: z.array(messageEventDtoSchema) }),
          },
        },
        config: ADMIN,
      },
      async (req) => operatorLog.detail(req.params.id, req.params.messageId),
    );
    r.get(
      ROUTES_API.marginCsv,
      {
        schema: {
          querystring: marginQuerySchema,
          response: { 200: fileResponse('text/csv', 'The margin report as CSV') },
        },
        config: ADMIN,
      },
      async (req, reply) => {
        const { from, to } = marginRange(req.query);
        const rows = await marginReport(ctx.db, from, to, ctx.config.currency);
        return reply
          .headers(csvDownloadHeaders(`margin-${req.query.from}-${req.query.to}.csv`))
          .send(marginCsv(rows, ctx.config.currency));
      },
    );
  };
}
