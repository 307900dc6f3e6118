import {
  connectionCreateSchema,
  connectionDtoSchema,
  connectionListSchema,
  connectionNameSchema,
  connectionRemoveSchema,
  connectionUpdateSchema,
  CONNECTIONS_API,
  noContentSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { ADMIN } from '../../platform/http/route-auth';
import { operatorOf } from '../admin/admin.routes';
import { createConnectionsService } from './connections.service';

const params = z.object({ name: connectionNameSchema });

/** Operators' carrier connections (issue 38 item 1): admin only (ADMIN), every change audited. */
export function connectionsRoutes(ctx: AppContext) {
  const connections = createConnectionsService({ db: ctx.db, secret: ctx.config.jwtSecret });
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      CONNECTIONS_API.list,
      { schema: { response: { 200: connectionListSchema } }, config: ADMIN },
      async () => connections.list(),
    );
    r.post(
      CONNECTIONS_API.list,
      { schema: { body: connectionCreateSchema, response: { 201: connectionDtoSchema } }, config: ADMIN },
      async (req, reply) => reply.status(201).send(await connections.create(operatorOf(req), req.body)),
    );
    r.put(
      CONNECTIONS_API.one,
      {
        schema: { params, body: connectionUpdateSchema, response: { 200: connectionDtoSchema } },
        config: ADMIN,
      },
      async (req) => connections.update(operatorOf(req), req.params.name, req.body),
    );
    r.delete(
      CONNECTIONS_API.one,
      { schema: { params, body: connectionRemoveSchema, response: { 204: noContentSchema } }, config: ADMIN },
      async (req, reply) => {
        await connections.remove(operatorOf(req), req.params.name, req.body.reason);
        return reply.status(204).send();
      },
    );
    r.post(
      CONNECTIONS_API.drain,
      {
        schema: { params, body: connectionRemoveSchema, response: { 200: connectionDtoSchema } },
        config: ADMIN,
      },
      async (req) => connections.setDraining(operatorOf(req), req.params.name, true, req.body.reason),
    );
    r.delete(
      CONNECTIONS_API.drain,
      {
        schema: { params, body: connectionRemoveSchema, response: { 200: connectionDtoSchema } },
        config: ADMIN,
      },
      async (req) => connections.setDraining(operatorOf(req), req.params.name, false, req.body.reason),
    );
  };
}
