import {
  noContentSchema,
  SMPP_ACCOUNTS_API,
  smppAccountCreatedSchema,
  smppAccountDtoSchema,
  smppAccountInputSchema,
  smppAccountListSchema,
  smppAccountUpdateSchema,
  smppBindListSchema,
  smppServerInfoSchema,
  type SmppServerInfo,
} from '@wren/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';

const idParams = z.object({ id: z.uuid('SMPP account not found') });

const actorOf = (req: FastifyRequest) => {
  const a = authOf(req);
  return { accountId: a.accountId, userId: a.userId, ip: req.ip ?? null };
};

/**
 * The signed-in account's SMPP accounts (issue 37), for the API pages. `serverInfo` tells where the
 * SMPP listener is (the composition root passes what it started; null ports: not listening).
 */
export function smppAccountsRoutes(ctx: AppContext, serverInfo: () => SmppServerInfo) {
  const { smppAccounts } = ctx.services;
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const perm = can('developer:manage');

    r.get(
      SMPP_ACCOUNTS_API.server,
      { config: perm, schema: { response: { 200: smppServerInfoSchema } } },
      async () => serverInfo(),
    );

    r.get(
      SMPP_ACCOUNTS_API.list,
      { config: perm, schema: { response: { 200: smppAccountListSchema } } },
      async (req) => smppAccounts.list(authOf(req).accountId),
    );

    r.post(
      SMPP_ACCOUNTS_API.list,
      { config: perm, schema: { body: smppAccountInputSchema, response: { 201: smppAccountCreatedSchema } } },
      async (req, reply) =>
        reply.status(201).send(await smppAccounts.create({ ...actorOf(req), body: req.body })),
    );

    r.get(
      SMPP_ACCOUNTS_API.item,
      { config: perm, schema: { params: idParams, response: { 200: smppAccountDtoSchema } } },
      async (req) => smppAccounts.get(authOf(req).accountId, req.params.id),
    );

    r.patch(
      SMPP_ACCOUNTS_API.item,
      {
        config: perm,
        schema: { params: idParams, body: smppAccountUpdateSchema, response: { 200: smppAccountDtoSchema } },
      },
      async (req) => smppAccounts.update(authOf(req).accountId, req.params.id, req.body),
    );

    r.delete(
      SMPP_ACCOUNTS_API.item,
      { config: perm, schema: { params: idParams, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await smppAccounts.remove(actorOf(req), req.params.id);
        return reply.status(204).send();
      },
    );

    r.post(
      SMPP_ACCOUNTS_API.rotate,
      { config: perm, schema: { params: idParams, response: { 200: smppAccountCreatedSchema } } },
      async (req) => smppAccounts.rotate(actorOf(req), req.params.id),
    );

    r.post(
      SMPP_ACCOUNTS_API.disable,
      { config: perm, schema: { params: idParams, response: { 200: smppAccountDtoSchema } } },
      async (req) => smppAccounts.setDisabled(actorOf(req), req.params.id, true),
    );

    r.post(
      SMPP_ACCOUNTS_API.enable,
      { config: perm, schema: { params: idParams, response: { 200: smppAccountDtoSchema } } },
      async (req) => smppAccounts.setDisabled(actorOf(req), req.params.id, false),
    );

    r.get(
      SMPP_ACCOUNTS_API.binds,
      { config: perm, schema: { params: idParams, response: { 200: smppBindListSchema } } },
      async (req) => smppAccounts.binds(authOf(req).accountId, req.params.id),
    );
  };
}
