import {
  conversationArchiveSchema,
  conversationAssigneeSchema,
  conversationDtoSchema,
  conversationListQuerySchema,
  conversationListSchema,
  conversationMessagesQuerySchema,
  conversationMessagesPageSchema,
  conversationReplySchema,
  CONVERSATIONS_API,
  sendResultSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';

const params = z.object({ id: z.uuid({ message: 'Not a conversation id' }) });

/**
 * Conversations (issue 40 item 1): reading threads takes messages:read; replying, archiving and
 * assigning take messages:send. Another account's thread is not found.
 */
export function conversationsRoutes(ctx: AppContext) {
  const { conversations } = ctx.services;
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      CONVERSATIONS_API.list,
      {
        schema: { querystring: conversationListQuerySchema, response: { 200: conversationListSchema } },
        config: can('messages:read'),
      },
      async (req) => conversations.list(authOf(req).accountId, authOf(req).userId, req.query),
    );
    r.get(
      CONVERSATIONS_API.one,
      { schema: { params, response: { 200: conversationDtoSchema } }, config: can('messages:read') },
      async (req) => conversations.get(authOf(req).accountId, req.params.id),
    );
    r.get(
      CONVERSATIONS_API.messages,
      {
        schema: {
          params,
          querystring: conversationMessagesQuerySchema,
          response: { 200: conversationMessagesPageSchema },
        },
        config: can('messages:read'),
      },
      async (req) => conversations.messages(authOf(req).accountId, req.params.id, req.query.before),
    );
    r.post(
      CONVERSATIONS_API.read,
      { schema: { params, response: { 200: conversationDtoSchema } }, config: can('messages:read') },
      async (req) => conversations.markRead(authOf(req).accountId, req.params.id),
    );
    r.put(
      CONVERSATIONS_API.archive,
      {
        schema: { params, body: conversationArchiveSchema, response: { 200: conversationDtoSchema } },
        config: can('messages:send'),
      },
      async (req) => conversations.archive(authOf(req).accountId, req.params.id, req.body.archived),
    );
    r.put(
      CONVERSATIONS_API.assignee,
      {
        schema: { params, body: conversationAssigneeSchema, response: { 200: conversationDtoSchema } },
        config: can('messages:send'),
      },
      async (req) => conversations.assign(authOf(req).accountId, req.params.id, req.body.userId),
    );
    r.post(
      CONVERSATIONS_API.reply,
      {
        schema: { params, body: conversationReplySchema, response: { 202: sendResultSchema } },
        config: can('messages:send'),
      },
      async (req, reply) => {
        const a = authOf(req);
        return reply
          .status(202)
          .send(await conversations.reply(a.accountId, a.userId, req.params.id, req.body.text));
      },
    );
  };
}
