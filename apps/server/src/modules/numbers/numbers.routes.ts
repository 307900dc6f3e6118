import {
  noContentSchema,
  numberAssignSchema,
  numberCreateSchema,
  numberDtoSchema,
  numberListQuerySchema,
  numberListSchema,
  numberUpdateSchema,
  NUMBERS_API,
  ownNumberListSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { ADMIN, can } from '../../platform/http/route-auth';
import { authOf } from '../../platform/http/auth-guard';
import { operatorOf } from '../admin/admin.routes';

const params = z.object({ id: z.uuid({ message: 'Not a number id' }) });

/** Numbers (issue 40 item 0): the operator's inventory (ADMIN, audited) and a customer's own list. */
export function numbersRoutes(ctx: AppContext) {
  const { numbers } = ctx.services;
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      NUMBERS_API.adminList,
      { schema: { querystring: numberListQuerySchema, response: { 200: numberListSchema } }, config: ADMIN },
      async (req) => numbers.list(req.query),
    );
    r.post(
      NUMBERS_API.adminList,
      { schema: { body: numberCreateSchema, response: { 201: numberDtoSchema } }, config: ADMIN },
      async (req, reply) => reply.status(201).send(await numbers.create(operatorOf(req), req.body)),
    );
    r.put(
      NUMBERS_API.adminOne,
      { schema: { params, body: numberUpdateSchema, response: { 200: numberDtoSchema } }, config: ADMIN },
      async (req) => numbers.update(operatorOf(req), req.params.id, req.body),
    );
    r.delete(
      NUMBERS_API.adminOne,
      { schema: { params, response: { 204: noContentSchema } }, config: ADMIN },
      async (req, reply) => {
        await numbers.remove(operatorOf(req), req.params.id);
        return reply.status(204).send();
      },
    );
    r.post(
      NUMBERS_API.adminAssignment,
      { schema: { params, body: numberAssignSchema, response: { 200: numberDtoSchema } }, config: ADMIN },
      async (req) => numbers.assign(operatorOf(req), req.params.id, req.body.accountId),
    );
    r.delete(
      NUMBERS_API.adminAssignment,
      { schema: { params, response: { 200: numberDtoSchema } }, config: ADMIN },
      async (req) => numbers.release(operatorOf(req), req.params.id),
    );
    r.get(
      NUMBERS_API.list,
      { schema: { response: { 200: ownNumberListSchema } }, config: can('sender-ids:read') },
      async (req) => numbers.listOwn(authOf(req).accountId),
    );
  };
}
