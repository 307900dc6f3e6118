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
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { readOptions } from '../../platform/http/read-after-write';
import { can } from '../../platform/http/route-auth';
import { exportSlotsOf, sendCsvExport } from './export-slots';
import { smsLogCsvHeader, smsLogCsvRows } from './sms-log-csv';

export function messagesRoutes(ctx: AppContext) {
  const { messages, pricing, ledger } = ctx.services;
  // Running exports on this node (each streams from a cursor on a connection of its own).
  const exports = exportSlotsOf(ctx);

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      MESSAGING_API.sendSingle,
      {
        config: can('messages:send'),
        schema: { body: sendSingleSchema, response: { 202: sendResultSchema } },
      },
      async (req, reply) => {
        const a = authOf(req);
        return reply
          .status(202)
          .send(await messages.sendSingle({ ...req.body, accountId: a.accountId, userId: a.userId }));
      },
    );

    r.get(
      MESSAGING_API.log,
      {
        config: can('messages:read'),
        schema: { querystring: smsLogQuerySchema, response: { 200: smsLogPageSchema } },
      },
      // Lag-tolerant: the replica's, when DATABASE_READ_URL is set and it is fresh (platform/read-replica.ts).
      async (req) =>
        ctx.reads.read((db) => messages.log(authOf(req).accountId, req.query, db), readOptions(req)),
    );

    r.get(
      MESSAGING_API.logExport,
      {
        config: can('reports:read'),
        schema: {
          querystring: smsLogQuerySchema.omit({ cursor: true, limit: true }),
          response: { 200: fileResponse('text/csv', 'The filtered SMS log as CSV') },
        },
      },
      async (req, reply) => {
        const accountId = authOf(req).accountId;
        return sendCsvExport(reply, {
          slots: exports,
          accountId,
          fileName: `sms-log-${new Date().toISOString().slice(0, 10)}.csv`,
          pages: messages.exportLog(accountId, req.query, ctx.reads.pick(readOptions(req))),
          header: smsLogCsvHeader(),
          rows: smsLogCsvRows,
        });
      },
    );

    r.get(
      `${MESSAGING_API.log}/:id`,
      {
        config: can('messages:read'),
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
        config: can('messages:send'),
        schema: {
          params: z.object({ id: z.uuid('Message not found') }),
          response: { 200: messageDetailSchema },
        },
      },
      async (req) => messages.cancelScheduled(authOf(req).accountId, req.params.id),
    );

    r.get(
      MESSAGING_API.pricing,
      { config: can('self'), schema: { response: { 200: ratePlanDtoSchema } } },
      async (req) => pricing.ratePlan(authOf(req).accountId),
    );

    r.get(
      MESSAGING_API.balance,
      { config: can('billing:read'), schema: { response: { 200: balanceSchema } } },
      async (req) => ledger.balance(ctx.db, authOf(req).accountId),
    );
  };
}
