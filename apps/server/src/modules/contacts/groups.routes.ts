import {
  CONTACTS_API,
  createGroupSchema,
  groupDtoSchema,
  groupFieldsSchema,
  groupListSchema,
  noContentSchema,
  renameGroupSchema,
} from '@wren/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { notFound } from '../../platform/errors';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';
import { groupFieldKeys } from './contacts.repository';

export const groupParams = z.object({ id: z.uuid('Unknown group id') });

const isUuid = (id: string) => z.uuid().safeParse(id).success;

/**
 * A group id that cannot exist (not a UUID) is an unknown group: 404 like any other unknown id,
 * which is how the pages treat it, rather than a 400 from the params schema.
 */
export async function unknownGroupIdIsNotFound(req: FastifyRequest) {
  const { id } = (req.params ?? {}) as { id?: unknown };
  if (typeof id === 'string' && !isUuid(id)) throw notFound('Group');
}

export function groupsRoutes(ctx: AppContext) {
  const { groups } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    app.addHook('preValidation', unknownGroupIdIsNotFound);

    r.get(
      CONTACTS_API.groups,
      { config: can('contacts:read'), schema: { response: { 200: groupListSchema } } },
      async (req) => groups.list({ accountId: authOf(req).accountId }),
    );

    r.post(
      CONTACTS_API.groups,
      {
        config: can('contacts:write'),
        schema: { body: createGroupSchema, response: { 201: groupDtoSchema } },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(await groups.create({ accountId: authOf(req).accountId, name: req.body.name })),
    );

    r.get(
      CONTACTS_API.group,
      { config: can('contacts:read'), schema: { params: groupParams, response: { 200: groupDtoSchema } } },
      async (req) => groups.get({ accountId: authOf(req).accountId, id: req.params.id }),
    );

    r.get(
      CONTACTS_API.fields,
      { config: can('contacts:read'), schema: { params: groupParams, response: { 200: groupFieldsSchema } } },
      async (req) => {
        const { accountId } = authOf(req);
        await groups.get({ accountId, id: req.params.id });
        return { fields: await groupFieldKeys(ctx.db, accountId, [req.params.id]) };
      },
    );

    r.patch(
      CONTACTS_API.group,
      {
        config: can('contacts:write'),
        schema: { params: groupParams, body: renameGroupSchema, response: { 200: groupDtoSchema } },
      },
      async (req) =>
        groups.rename({ accountId: authOf(req).accountId, id: req.params.id, name: req.body.name }),
    );

    r.delete(
      CONTACTS_API.group,
      { config: can('contacts:write'), schema: { params: groupParams, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await groups.remove({ accountId: authOf(req).accountId, id: req.params.id });
        return reply.status(204).send();
      },
    );
  };
}
