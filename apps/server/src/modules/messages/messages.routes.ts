import { Readable } from 'node:stream';
import {
  balanceSchema,
  fileResponse,
  messageDetailSchema,
  MESSAGING_API,
  ratePlanDtoSchema,
  sendResultSchema,
  sendSingleSchema,
  smsLogPageSchema,
  smsLogQuerySchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { authOf } from '../../platform/http/auth-guard';
import { CSV_BOM } from '../../shared/csv';
import { smsLogCsvHeader, smsLogCsvRows } from './sms-log-csv';

export function messagesRoutes(ctx: AppContext) {
  const { messages, pricing, ledger } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      MESSAGING_API.sendSingle,
      { schema: { body: sendSingleSchema, response: { 202: sendResultSchema } } },
      async (req, reply) => {
        const a = authOf(req);
        return reply
          .status(202)
          .send(await messages.sendSingle({ ...req.body, accountId: a.accountId, userId: a.userId }));
      },
    );

    r.get(
      MESSAGING_API.log,
      { schema: { querystring: smsLogQuerySchema, response: { 200: smsLogPageSchema } } },
      async (req) => messages.log(authOf(req).accountId, req.query),
    );

    r.get(
      MESSAGING_API.logExport,
      {
        schema: {
          querystring: smsLogQuerySchema.omit({ cursor: true, limit: true }),
          response: { 200: fileResponse('text/csv', 'The filtered SMS log as CSV') },
        },
      },
      async (req, reply) => {
        const pages = messages.exportLog(authOf(req).accountId, req.query)[Symbol.asyncIterator]();
        // The first page is read before the status line goes out: a filter the database refuses is
        // a 4xx from the error handler, not a 200 whose connection drops midway.
        const first = await pages.next();
        async function* csv() {
          yield CSV_BOM + smsLogCsvHeader();
          for (let page = first; !page.done; page = await pages.next()) {
            const items = page.value;
            if (items.length === 0) continue;
            yield smsLogCsvRows(items);
          }
        }
        const stamp = new Date().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="sms-log-${stamp}.csv"`)
          .send(Readable.from(csv()));
      },
    );

    r.get(
      `${MESSAGING_API.log}/:id`,
      {
        schema: {
          params: z.object({ id: z.uuid('Message not found') }),
          response: { 200: messageDetailSchema },
        },
      },
      async (req) =>
        messages.detail(authOf(req).accountId, req.params.id, { admin: authOf(req).role === 'admin' }),
    );

    r.post(
      `${MESSAGING_API.log}/:id/cancel`,
      {
        schema: {
          params: z.object({ id: z.uuid('Message not found') }),
          response: { 200: messageDetailSchema },
        },
      },
      async (req) => messages.cancelScheduled(authOf(req).accountId, req.params.id),
    );

    r.get(MESSAGING_API.pricing, { schema: { response: { 200: ratePlanDtoSchema } } }, async (req) =>
      pricing.ratePlan(authOf(req).accountId),
    );

    r.get(MESSAGING_API.balance, { schema: { response: { 200: balanceSchema } } }, async (req) =>
      ledger.balance(ctx.db, authOf(req).accountId),
    );
  };
}
