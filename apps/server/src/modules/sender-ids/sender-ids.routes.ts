import {
  adminSenderIdPageSchema,
  adminSenderIdQuerySchema,
  approveSenderIdSchema,
  createSenderIdSchema,
  noContentSchema,
  rejectSenderIdSchema,
  SENDER_ID_API,
  senderIdDtoSchema,
  senderIdListSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { ADMIN, can } from '../../platform/http/route-auth';

const idParams = z.object({ id: z.uuid('Unknown sender ID') });

export function senderIdsRoutes(ctx: AppContext) {
  const { senderIds } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      SENDER_ID_API.list,
      { config: can('sender-ids:read'), schema: { response: { 200: senderIdListSchema } } },
      async (req) => senderIds.list({ accountId: authOf(req).accountId }),
    );

    r.post(
      SENDER_ID_API.list,
      {
        config: can('sender-ids:manage'),
        schema: { body: createSenderIdSchema, response: { 201: senderIdDtoSchema } },
      },
      async (req, reply) => {
        const a = authOf(req);
        const created = await senderIds.createSenderId({
          ...req.body,
          accountId: a.accountId,
          userId: a.userId,
        });
        return reply.status(201).send(created);
      },
    );

    r.delete(
      SENDER_ID_API.item,
      { config: can('sender-ids:manage'), schema: { params: idParams, response: { 204: noContentSchema } } },
      async (req, reply) => {
        const a = authOf(req);
        await senderIds.remove({ accountId: a.accountId, id: req.params.id, userId: a.userId });
        return reply.status(204).send();
      },
    );

    r.post(
      SENDER_ID_API.setDefault,
      {
        config: can('sender-ids:manage'),
        schema: { params: idParams, response: { 200: senderIdDtoSchema } },
      },
      async (req) => senderIds.setDefault({ accountId: authOf(req).accountId, id: req.params.id }),
    );

    r.get(
      SENDER_ID_API.adminList,
      {
        schema: { querystring: adminSenderIdQuerySchema, response: { 200: adminSenderIdPageSchema } },
        config: ADMIN,
      },
      async (req) => senderIds.listForReview(req.query),
    );

    r.post(
      SENDER_ID_API.adminApprove,
      {
        schema: { params: idParams, body: approveSenderIdSchema, response: { 200: senderIdDtoSchema } },
        config: ADMIN,
      },
      async (req) =>
        senderIds.approve({ adminUserId: authOf(req).userId, id: req.params.id, reason: req.body.reason }),
    );

    r.post(
      SENDER_ID_API.adminReject,
      {
        schema: { params: idParams, body: rejectSenderIdSchema, response: { 200: senderIdDtoSchema } },
        config: ADMIN,
      },
      async (req) =>
        senderIds.reject({ adminUserId: authOf(req).userId, id: req.params.id, reason: req.body.reason }),
    );
  };
}
