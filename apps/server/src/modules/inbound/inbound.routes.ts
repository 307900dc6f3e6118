import {
  addSuppressionSchema,
  INBOUND_API,
  inboundPageSchema,
  inboundQuerySchema,
  noContentSchema,
  safeString,
  suppressionDtoSchema,
  suppressionListSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';

const numberParams = z.object({ number: safeString().trim().min(1).max(32) });

/** The inbox (inbound SMS) and the suppression list; every call is scoped to the caller's account. */
export function inboundRoutes(ctx: AppContext) {
  const { inbound } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      INBOUND_API.list,
      {
        config: can('messages:read'),
        schema: { querystring: inboundQuerySchema, response: { 200: inboundPageSchema } },
      },
      async (req) => inbound.list(authOf(req).accountId, req.query),
    );

    r.get(
      INBOUND_API.suppressions,
      { config: can('contacts:read'), schema: { response: { 200: suppressionListSchema } } },
      async (req) => inbound.listSuppressions(authOf(req).accountId),
    );

    r.post(
      INBOUND_API.suppressions,
      {
        config: can('contacts:write'),
        schema: { body: addSuppressionSchema, response: { 201: suppressionDtoSchema } },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(await inbound.addSuppression({ accountId: authOf(req).accountId, phone: req.body.phone })),
    );

    r.delete(
      INBOUND_API.suppression,
      { config: can('contacts:write'), schema: { params: numberParams, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await inbound.removeSuppression({ accountId: authOf(req).accountId, number: req.params.number });
        return reply.status(204).send();
      },
    );
  };
}
