import {
  noContentSchema,
  saveTemplateSchema,
  templateDtoSchema,
  templateListSchema,
  TEMPLATES_API,
  updateTemplateSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';

const idParams = z.object({ id: z.uuid('Unknown template id') });

export function templatesRoutes(ctx: AppContext) {
  const { templates } = ctx.services;

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      TEMPLATES_API.list,
      { config: can('templates:read'), schema: { response: { 200: templateListSchema } } },
      async (req) => templates.list({ accountId: authOf(req).accountId }),
    );

    r.post(
      TEMPLATES_API.list,
      {
        config: can('templates:write'),
        schema: { body: saveTemplateSchema, response: { 201: templateDtoSchema } },
      },
      async (req, reply) =>
        reply.status(201).send(await templates.create({ accountId: authOf(req).accountId, ...req.body })),
    );

    r.get(
      TEMPLATES_API.item,
      { config: can('templates:read'), schema: { params: idParams, response: { 200: templateDtoSchema } } },
      async (req) => templates.get({ accountId: authOf(req).accountId, id: req.params.id }),
    );

    r.patch(
      TEMPLATES_API.item,
      {
        config: can('templates:write'),
        schema: { params: idParams, body: updateTemplateSchema, response: { 200: templateDtoSchema } },
      },
      async (req) =>
        templates.update({ accountId: authOf(req).accountId, id: req.params.id, patch: req.body }),
    );

    r.delete(
      TEMPLATES_API.item,
      { config: can('templates:write'), schema: { params: idParams, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await templates.remove({ accountId: authOf(req).accountId, id: req.params.id });
        return reply.status(204).send();
      },
    );
  };
}
