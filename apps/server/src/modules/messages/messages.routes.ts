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
import { CSV_BOM, csvDownloadHeaders } from '../../shared/csv';
import { ExportSlots } from './export-slots';
import { smsLogCsvHeader, smsLogCsvRows, type SmsLogCsvRow } from './sms-log-csv';

export function messagesRoutes(ctx: AppContext) {
  const { messages, pricing, ledger } = ctx.services;
  // Running exports on this node (each streams from a cursor on a connection of its own).
  const exports = new ExportSlots({
    perAccount: ctx.config.exportMaxPerAccount,
    perNode: ctx.config.exportMaxPerNode,
  });

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
        const accountId = authOf(req).accountId;
        const release = exports.acquire(accountId);
        // The slot is freed when the response ends: finished, failed, or the client went away.
        reply.raw.once('close', release);
        const pages = messages.exportLog(accountId, req.query)[Symbol.asyncIterator]();
        // The first page is read before the status line goes out: a filter the database refuses is
        // a 4xx from the error handler, not a 200 whose connection drops midway.
        let first: IteratorResult<SmsLogCsvRow[]>;
        try {
          first = await pages.next();
        } catch (err) {
          release();
          throw err;
        }
        async function* csv() {
          try {
            yield CSV_BOM + smsLogCsvHeader();
            for (let page = first; !page.done; page = await pages.next()) {
              const items = page.value;
              if (items.length === 0) continue;
              yield smsLogCsvRows(items);
            }
          } finally {
            release();
            // A client that went away leaves the rows unread: close the cursor and return its
            // connection (a manual loop does not close the iterator as for-await would).
            await pages.return?.(undefined);
          }
        }
        const stamp = new Date().toISOString().slice(0, 10);
        return reply.headers(csvDownloadHeaders(`sms-log-${stamp}.csv`)).send(Readable.from(csv()));
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
