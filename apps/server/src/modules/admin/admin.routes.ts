import {
  ADMIN_API,
  adjustmentResultSchema,
  adjustmentSchema,
  adminAccountDetailSchema,
  adminAccountPageSchema,
  adminAccountQuerySchema,
  assignRatePlanSchema,
  accountLimitsSchema,
  auditPageSchema,
  auditQuerySchema,
  bulkSenderIdDecisionSchema,
  bulkSenderIdResultSchema,
  connectionControlSchema,
  copyRatePlanSchema,
  createRatePlanSchema,
  fileResponse,
  importPricesSchema,
  importResultSchema,
  ledgerPageSchema,
  ledgerQuerySchema,
  lockAccountSchema,
  noContentSchema,
  pricePreviewQuerySchema,
  pricePreviewSchema,
  ratePlanDetailSchema,
  ratePlanListSchema,
  renameRatePlanSchema,
  replacePricesSchema,
  setRoleSchema,
  systemStatusSchema,
  unlockAccountSchema,
} from '@wren/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { AppError } from '../../platform/errors';
import { authOf } from '../../platform/http/auth-guard';
import { ADMIN } from '../../platform/http/route-auth';
import { csvDownloadHeaders } from '../../shared/csv';
import type { AdminService } from './admin.service';
import type { Operator } from './operator';
import type { RatePlansService } from './rate-plans.service';
import type { SystemService } from './system.service';

const idParams = z.object({ id: z.uuid('Unknown account') });
const planParams = z.object({ id: z.uuid('Unknown rate plan') });
const userParams = z.object({ id: z.uuid('Unknown user') });
const connectionParams = z.object({
  name: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[\w.-]+$/, 'Unknown connection'),
});

export const operatorOf = (req: FastifyRequest): Operator => {
  const a = authOf(req);
  return { userId: a.userId, accountId: a.accountId, ip: req.ip ?? null };
};

export interface AdminServices {
  admin: AdminService;
  ratePlans: RatePlansService;
  system: SystemService;
}

/** The operator console's HTTP API: every route is admin-only (ADMIN) and every change audited. */
export function adminRoutes(ctx: AppContext, s: AdminServices) {
  const { admin, ratePlans, system } = s;
  const { senderIds } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const csv = (description: string) => ({ 200: fileResponse('text/csv', description) });

    // ---- accounts ----
    r.get(
      ADMIN_API.accounts,
      {
        schema: { querystring: adminAccountQuerySchema, response: { 200: adminAccountPageSchema } },
        config: ADMIN,
      },
      async (req) => admin.searchAccounts(req.query),
    );
    r.get(
      ADMIN_API.account,
      { schema: { params: idParams, response: { 200: adminAccountDetailSchema } }, config: ADMIN },
      async (req) => admin.accountDetail(req.params.id),
    );
    r.post(
      ADMIN_API.adjustments,
      {
        schema: { params: idParams, body: adjustmentSchema, response: { 201: adjustmentResultSchema } },
        config: ADMIN,
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(await admin.adjust({ op: operatorOf(req), accountId: req.params.id, ...req.body })),
    );
    r.get(
      ADMIN_API.ledger,
      {
        schema: { params: idParams, querystring: ledgerQuerySchema, response: { 200: ledgerPageSchema } },
        config: ADMIN,
      },
      async (req) => admin.ledgerPage({ accountId: req.params.id, ...req.query }),
    );
    r.get(
      ADMIN_API.ledgerCsv,
      { schema: { params: idParams, response: csv("The account's ledger as CSV") }, config: ADMIN },
      async (req, reply) => {
        const { fileName, stream } = await admin.ledgerCsv({ op: operatorOf(req), accountId: req.params.id });
        return reply.headers(csvDownloadHeaders(fileName)).send(stream);
      },
    );
    r.post(
      ADMIN_API.lock,
      {
        schema: { params: idParams, body: lockAccountSchema, response: { 200: adminAccountDetailSchema } },
        config: ADMIN,
      },
      async (req) => admin.lock({ op: operatorOf(req), accountId: req.params.id, reason: req.body.reason }),
    );
    r.post(
      ADMIN_API.unlock,
      {
        schema: { params: idParams, body: unlockAccountSchema, response: { 200: adminAccountDetailSchema } },
        config: ADMIN,
      },
      async (req) => admin.unlock({ op: operatorOf(req), accountId: req.params.id, reason: req.body.reason }),
    );
    r.put(
      ADMIN_API.accountRatePlan,
      {
        schema: { params: idParams, body: assignRatePlanSchema, response: { 200: adminAccountDetailSchema } },
        config: ADMIN,
      },
      async (req) =>
        admin.assignRatePlan({
          op: operatorOf(req),
          accountId: req.params.id,
          ratePlanId: req.body.ratePlanId,
        }),
    );
    r.put(
      ADMIN_API.limits,
      {
        schema: { params: idParams, body: accountLimitsSchema, response: { 200: adminAccountDetailSchema } },
        config: ADMIN,
      },
      async (req) => admin.setLimits({ op: operatorOf(req), accountId: req.params.id, limits: req.body }),
    );
    r.put(
      ADMIN_API.userRole,
      {
        schema: { params: userParams, body: setRoleSchema, response: { 200: adminAccountDetailSchema } },
        config: ADMIN,
      },
      async (req) => admin.setRole({ op: operatorOf(req), userId: req.params.id, role: req.body.role }),
    );

    // ---- rate plans ----
    r.get(
      ADMIN_API.ratePlans,
      { schema: { response: { 200: ratePlanListSchema } }, config: ADMIN },
      async () => ratePlans.list(),
    );
    r.post(
      ADMIN_API.ratePlans,
      { schema: { body: createRatePlanSchema, response: { 201: ratePlanDetailSchema } }, config: ADMIN },
      async (req, reply) =>
        reply.status(201).send(await ratePlans.create({ op: operatorOf(req), ...req.body })),
    );
    r.get(
      ADMIN_API.ratePlan,
      { schema: { params: planParams, response: { 200: ratePlanDetailSchema } }, config: ADMIN },
      async (req) => ratePlans.detail(req.params.id),
    );
    r.patch(
      ADMIN_API.ratePlan,
      {
        schema: { params: planParams, body: renameRatePlanSchema, response: { 200: ratePlanDetailSchema } },
        config: ADMIN,
      },
      async (req) => ratePlans.rename({ op: operatorOf(req), id: req.params.id, name: req.body.name }),
    );
    r.delete(
      ADMIN_API.ratePlan,
      { schema: { params: planParams, response: { 204: noContentSchema } }, config: ADMIN },
      async (req, reply) => {
        await ratePlans.remove({ op: operatorOf(req), id: req.params.id });
        return reply.status(204).send();
      },
    );
    r.post(
      ADMIN_API.ratePlanCopy,
      {
        schema: { params: planParams, body: copyRatePlanSchema, response: { 201: ratePlanDetailSchema } },
        config: ADMIN,
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(await ratePlans.copy({ op: operatorOf(req), id: req.params.id, name: req.body.name })),
    );
    r.post(
      ADMIN_API.ratePlanDefault,
      { schema: { params: planParams, response: { 200: ratePlanDetailSchema } }, config: ADMIN },
      async (req) => ratePlans.makeDefault({ op: operatorOf(req), id: req.params.id }),
    );
    r.put(
      ADMIN_API.ratePlanPrices,
      {
        schema: { params: planParams, body: replacePricesSchema, response: { 200: ratePlanDetailSchema } },
        config: ADMIN,
      },
      async (req) =>
        ratePlans.replacePrices({ op: operatorOf(req), id: req.params.id, prices: req.body.prices }),
    );
    r.post(
      ADMIN_API.ratePlanImport,
      {
        schema: { params: planParams, body: importPricesSchema, response: { 200: importResultSchema } },
        config: ADMIN,
      },
      async (req) => ratePlans.importCsv({ op: operatorOf(req), id: req.params.id, ...req.body }),
    );
    r.get(
      ADMIN_API.ratePlanExport,
      { schema: { params: planParams, response: csv("The plan's prices as CSV") }, config: ADMIN },
      async (req, reply) => {
        const { fileName, stream } = await ratePlans.exportCsv({ op: operatorOf(req), id: req.params.id });
        return reply.headers(csvDownloadHeaders(fileName)).send(stream);
      },
    );
    r.get(
      ADMIN_API.ratePlanPreview,
      {
        schema: {
          params: planParams,
          querystring: pricePreviewQuerySchema,
          response: { 200: pricePreviewSchema },
        },
        config: ADMIN,
      },
      async (req) => ratePlans.preview({ id: req.params.id, to: req.query.to }),
    );

    // ---- sender IDs: the queue itself is GET /api/admin/sender-ids (modules/sender-ids) ----
    r.post(
      ADMIN_API.senderIdsBulk,
      {
        schema: { body: bulkSenderIdDecisionSchema, response: { 200: bulkSenderIdResultSchema } },
        config: ADMIN,
      },
      async (req) => {
        const op = operatorOf(req);
        const results = [];
        // One decision at a time, each in its own transaction: one that fails (already decided)
        // does not undo the others, and each requester gets SenderIdUpdated.
        for (const id of [...new Set(req.body.ids)]) {
          try {
            const decided =
              req.body.action === 'approve'
                ? await senderIds.approve({ adminUserId: op.userId, id, reason: req.body.reason })
                : await senderIds.reject({ adminUserId: op.userId, id, reason: req.body.reason ?? '' });
            await admin.record(op, {
              accountId: null,
              kind: `admin.sender_id_${req.body.action === 'approve' ? 'approved' : 'rejected'}`,
              message: `${req.body.action === 'approve' ? 'Approved' : 'Rejected'} sender ID "${decided.value}"${req.body.reason ? `: ${req.body.reason}` : ''}`,
              resourceType: 'sender_id',
              resourceId: id,
            });
            results.push({ id, ok: true, message: null });
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            results.push({ id, ok: false, message: err.message });
          }
        }
        return { results };
      },
    );

    // ---- audit log (read only: there is no route that changes it) ----
    r.get(
      ADMIN_API.audit,
      { schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema } }, config: ADMIN },
      async (req) => admin.auditLog(req.query),
    );

    // ---- system ----
    r.get(ADMIN_API.system, { schema: { response: { 200: systemStatusSchema } }, config: ADMIN }, async () =>
      system.status(),
    );
    const pauseResult = z.object({ name: z.string(), paused: z.boolean() });
    r.post(
      ADMIN_API.connectionPause,
      {
        schema: { params: connectionParams, body: connectionControlSchema, response: { 200: pauseResult } },
        config: ADMIN,
      },
      async (req) =>
        system.setPaused({
          op: operatorOf(req),
          name: req.params.name,
          paused: true,
          reason: req.body.reason,
        }),
    );
    r.post(
      ADMIN_API.connectionResume,
      {
        schema: { params: connectionParams, body: connectionControlSchema, response: { 200: pauseResult } },
        config: ADMIN,
      },
      async (req) =>
        system.setPaused({
          op: operatorOf(req),
          name: req.params.name,
          paused: false,
          reason: req.body.reason,
        }),
    );
  };
}
