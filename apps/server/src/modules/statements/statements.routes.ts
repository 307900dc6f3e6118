import {
  STATEMENTS_API,
  fileResponse,
  statementDtoSchema,
  statementEntriesQuerySchema,
  statementEntryPageSchema,
  statementMonthListSchema,
  statementMonthParamsSchema,
} from '@wren/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { readOptions } from '../../platform/http/read-after-write';
import { can } from '../../platform/http/route-auth';
import { csvDownloadHeaders } from '../../shared/csv';
import { statementCsv } from './statement-csv';
import { pdfDownloadHeaders, statementPdf } from './statement-pdf';

const fileName = (month: string, ext: string) => `wren-statement-${month}.${ext}`;

/**
 * Monthly statements of the signed-in account (billing:read): the months, one month as JSON (with
 * its first page of entries), more entries, and the month as CSV and PDF.
 */
export function statementsRoutes(ctx: AppContext) {
  const { statementsOn } = ctx.services;
  /** Statements tolerate a second of lag: the read replica's while it is fresh (platform/read-replica.ts). */
  const read = <T>(req: FastifyRequest, fn: (s: ReturnType<typeof statementsOn>) => Promise<T>) =>
    ctx.reads.read((db) => fn(statementsOn(db)), readOptions(req));

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      STATEMENTS_API.months,
      { config: can('billing:read'), schema: { response: { 200: statementMonthListSchema } } },
      async (req) => read(req, (s) => s.months(authOf(req).accountId)),
    );

    r.get(
      STATEMENTS_API.month,
      {
        config: can('billing:read'),
        schema: { params: statementMonthParamsSchema, response: { 200: statementDtoSchema } },
      },
      async (req) => read(req, (s) => s.statement(authOf(req).accountId, req.params.month)),
    );

    r.get(
      STATEMENTS_API.entries,
      {
        config: can('billing:read'),
        schema: {
          params: statementMonthParamsSchema,
          querystring: statementEntriesQuerySchema,
          response: { 200: statementEntryPageSchema },
        },
      },
      async (req) =>
        read(req, (s) =>
          s.entries(authOf(req).accountId, req.params.month, req.query.after, req.query.limit),
        ),
    );

    r.get(
      STATEMENTS_API.csv,
      {
        config: can('billing:read'),
        schema: {
          params: statementMonthParamsSchema,
          response: { 200: fileResponse('text/csv', 'The monthly statement as CSV') },
        },
      },
      async (req, reply) => {
        const { month } = req.params;
        const body = await read(req, (s) => s.document(authOf(req).accountId, month, statementCsv));
        return reply.headers(csvDownloadHeaders(fileName(month, 'csv'))).send(body);
      },
    );

    r.get(
      STATEMENTS_API.pdf,
      {
        config: can('billing:read'),
        schema: {
          params: statementMonthParamsSchema,
          response: { 200: fileResponse('application/pdf', 'The monthly statement as PDF') },
        },
      },
      async (req, reply) => {
        const { month } = req.params;
        const body = await read(req, (s) => s.document(authOf(req).accountId, month, statementPdf));
        return reply.headers(pdfDownloadHeaders(fileName(month, 'pdf'))).send(body);
      },
    );
  };
}
