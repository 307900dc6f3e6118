import {
  CHILD_STATEMENTS_API,
  fileResponse,
  statementDtoSchema,
  statementMonthListSchema,
  statementMonthParamsSchema,
} from '@wren/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';
import { csvDownloadHeaders } from '../../shared/csv';
import { statementCsv } from './statement-csv';
import { pdfDownloadHeaders, statementPdf } from './statement-pdf';

const childParams = z.object({ id: z.uuid('Sub-account not found') });
const childMonthParams = childParams.extend(statementMonthParamsSchema.shape);

/**
 * A reseller's statements of its own sub-accounts (subaccounts:manage). The child is looked up
 * through the sub-accounts service as the caller's child first (404 for any other account), then
 * its statement is the one its own members see (statements.service, by account id and month).
 */
export function childStatementsRoutes(ctx: AppContext) {
  const { statements, subAccounts } = ctx.services;
  /** The child's account id, once it is the caller's own child. */
  const childOf = async (req: FastifyRequest, id: string) => (await subAccounts.get(authOf(req), id)).id;
  /** The child, once it is the caller's own child, and the name its files get. */
  const fileOf = async (req: FastifyRequest, id: string, month: string, ext: 'csv' | 'pdf') => {
    const child = await subAccounts.get(authOf(req), id);
    const slug =
      child.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || 'client';
    return { id: child.id, name: `statement-${slug}-${month}.${ext}` };
  };

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const manage = can('subaccounts:manage');

    r.get(
      CHILD_STATEMENTS_API.months,
      { config: manage, schema: { params: childParams, response: { 200: statementMonthListSchema } } },
      async (req) => statements.months(await childOf(req, req.params.id)),
    );

    r.get(
      CHILD_STATEMENTS_API.month,
      { config: manage, schema: { params: childMonthParams, response: { 200: statementDtoSchema } } },
      async (req) => statements.statement(await childOf(req, req.params.id), req.params.month),
    );

    r.get(
      CHILD_STATEMENTS_API.csv,
      {
        config: manage,
        schema: {
          params: childMonthParams,
          response: { 200: fileResponse('text/csv', "A sub-account's monthly statement as CSV") },
        },
      },
      async (req, reply) => {
        const file = await fileOf(req, req.params.id, req.params.month, 'csv');
        const body = await statements.document(file.id, req.params.month, statementCsv);
        return reply.headers(csvDownloadHeaders(file.name)).send(body);
      },
    );

    r.get(
      CHILD_STATEMENTS_API.pdf,
      {
        config: manage,
        schema: {
          params: childMonthParams,
          response: { 200: fileResponse('application/pdf', "A sub-account's monthly statement as PDF") },
        },
      },
      async (req, reply) => {
        const file = await fileOf(req, req.params.id, req.params.month, 'pdf');
        const body = await statements.document(file.id, req.params.month, statementPdf);
        return reply.headers(pdfDownloadHeaders(file.name)).send(body);
      },
    );
  };
}
