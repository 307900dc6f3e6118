import {
  acceptInviteSchema,
  changeRoleSchema,
  createInviteSchema,
  inviteListSchema,
  invitePreviewSchema,
  inviteSchema,
  loginResponseSchema,
  memberListSchema,
  MEMBERS_API,
  myAccountListSchema,
  noContentSchema,
  switchAccountSchema,
  twoFactorChallengeSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf, bearerOf, clientOf } from '../../platform/http/auth-guard';
import { can, PUBLIC, SELF } from '../../platform/http/route-auth';

const userParams = z.object({ userId: z.uuid('Unknown member') });
const inviteParams = z.object({ id: z.uuid('Unknown invite') });
const tokenParams = z.object({ token: z.string().min(1).max(200) });

/** Members, roles and invites of the caller's account; the accounts a user belongs to (issue 39). */
export function membersRoutes(ctx: AppContext) {
  const { members, auth } = ctx.services;
  // The invite links are public (no token yet), bounded per IP like sign-in.
  const limited = {
    ...PUBLIC,
    rateLimit: { max: ctx.config.authRateLimitPerMinute, timeWindow: '1 minute' },
  };

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      MEMBERS_API.members,
      { config: can('members:read'), schema: { response: { 200: memberListSchema } } },
      async (req) => members.list(authOf(req)),
    );

    r.patch(
      MEMBERS_API.member,
      {
        config: can('members:manage'),
        schema: { params: userParams, body: changeRoleSchema, response: { 204: noContentSchema } },
      },
      async (req, reply) => {
        await members.changeRole(authOf(req), req.params.userId, req.body.role, clientOf(req));
        return reply.status(204).send();
      },
    );

    r.delete(
      MEMBERS_API.member,
      { config: can('members:manage'), schema: { params: userParams, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await members.remove(authOf(req), req.params.userId, clientOf(req));
        return reply.status(204).send();
      },
    );

    r.get(
      MEMBERS_API.invites,
      { config: can('members:read'), schema: { response: { 200: inviteListSchema } } },
      async (req) => members.listInvites(authOf(req)),
    );

    r.post(
      MEMBERS_API.invites,
      {
        config: can('members:manage'),
        schema: { body: createInviteSchema, response: { 201: inviteSchema } },
      },
      async (req, reply) =>
        reply.status(201).send(await members.invite(authOf(req), req.body, clientOf(req))),
    );

    r.delete(
      MEMBERS_API.invite,
      { config: can('members:manage'), schema: { params: inviteParams, response: { 204: noContentSchema } } },
      async (req, reply) => {
        await members.revokeInvite(authOf(req), req.params.id, clientOf(req));
        return reply.status(204).send();
      },
    );

    r.get(
      MEMBERS_API.invitePreview,
      { config: limited, schema: { params: tokenParams, response: { 200: invitePreviewSchema } } },
      async (req) => members.preview(req.params.token),
    );

    r.post(
      MEMBERS_API.inviteAccept,
      {
        config: limited,
        schema: {
          params: tokenParams,
          body: acceptInviteSchema,
          // The enrollment step first when the account requires two-factor (two-factor.ts).
          response: { 200: loginResponseSchema.or(twoFactorChallengeSchema) },
        },
      },
      async (req) => {
        // Public, but a signed-in user (their access token) accepts without a password.
        const token = bearerOf(req);
        const signedIn = token ? await auth.authenticate(token) : null;
        return members.accept(req.params.token, req.body, signedIn, clientOf(req));
      },
    );

    r.get(
      MEMBERS_API.myAccounts,
      { config: SELF, schema: { response: { 200: myAccountListSchema } } },
      async (req) => members.myAccounts(authOf(req)),
    );

    r.post(
      MEMBERS_API.switchAccount,
      {
        config: SELF,
        schema: {
          body: switchAccountSchema,
          response: { 200: loginResponseSchema.or(twoFactorChallengeSchema) },
        },
      },
      async (req) => members.switchAccount(authOf(req), req.body.accountId, clientOf(req)),
    );
  };
}
