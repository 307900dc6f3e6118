import {
  CONTACTS_API,
  createGroupSchema,
  groupDtoSchema,
  groupListSchema,
  noContentSchema,
  renameGroupSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { authOf } from '../../platform/http/auth-guard';

export const groupParams = z.object({ id: z.uuid('Unknown group id') });

export function groupsRoutes(ctx: AppContext) {
  const { groups } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(CONTACTS_API.groups, { schema: { response: { 200: groupListSchema } } }, async (req) =>
      groups.list({ accountId: authOf(req).accountId }),
    );

    r.post(
      CONTACTS_API.groups,
      { schema: { body: createGroupSchema, response: { 201: groupDtoSchema } } },
      async (req, reply) =>
        reply
          .status(201)
          .send(await groups.create({ accountId: authOf(req).accountId, name: req.body.name })),
    );

    r.get(
      CONTACTS_API.group,
      { schema: { params: groupParams, response: { 200: groupDtoSchema } } },
      async (req) => groups.get({ accountId: authOf(req).accountId, id: req.params.id }),
    );

    r.patch(
      CONTACTS_API.group,
      { schema: { params: groupParams, body: renameGroupSchema, response: { 200: groupDtoSchema } } },
      async (req) =>
        groups.rename({ accountId: authOf(req).accountId, id: req.params.id, name: req.body.name }),
    );

    r.delete(
      CONTACTS_API.group,
      { schema: { params: groupParams, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await groups.remove({ accountId: authOf(req).accountId, id: req.params.id });
        return reply.status(204).send();
      },
    );
  };
}
