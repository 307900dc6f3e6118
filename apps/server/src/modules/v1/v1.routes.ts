import {
  campaignDtoSchema,
  campaignAcceptedSchema,
  v1CreateCampaignSchema,
  V1_API,
  v1BalanceSchema,
  v1ErrorSchema,
  v1MessageListQuerySchema,
  v1MessageListSchema,
  v1MessageSchema,
  v1SendMessageSchema,
  v1SendResultSchema,
  v1AddContactsResultSchema,
  v1AddContactsSchema,
  v1ContactListQuerySchema,
  v1ContactListSchema,
  v1GroupListSchema,
  noContentSchema,
} from '@wren/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { apiKey, PUBLIC } from '../../platform/http/route-auth';
import { registerLazyApiReference } from '../../platform/http/api-reference';
import { errorCodesOf } from './openapi';
import { idempotencyHeaders, replyIdempotent, storeAnswers } from './idempotency';
import { replyV1Error, routeNotFound } from './v1-errors';
import { checkDocumentedErrors } from './v1-documented-errors';
import { createV1Service } from './v1.service';
import { createV1ContactsService } from './v1-contacts';
import { campaignsOf } from '../campaigns/campaigns.routes';

/** Error responses every /v1 operation documents (the one error shape). */
const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(
    [400, 401, 403, 429, 500, ...statuses].map((s) => [s, v1ErrorSchema.describe(errorCodesOf(s))]),
  );

/** The public API: /v1 (API keys), its OpenAPI document and the interactive reference's script. */
export function v1Routes(ctx: AppContext) {
  const { messages, ledger, webhooks } = ctx.services;
  const v1 = createV1Service({
    db: ctx.db,
    jobs: ctx.jobs,
    logger: ctx.logger,
    messages,
    ledger,
    webhooks,
    defaultCountry: ctx.config.defaultCountry,
  });

  return async (app: FastifyInstance) => {
    // The reference's script (loaded by the web app's /api/doc screen) is public like the document;
    // the plugin's own HTML page needs an inline script the CSP refuses, so it stays behind sign-in.
    app.addHook('onRoute', (route) => {
      if (route.url === '/v1/reference/js/scalar.js') route.config = { ...route.config, auth: 'public' };
      // The viewer's page and document copies: any signed-in member (no account data).
      else if (route.url.startsWith('/v1/reference')) route.config = { ...route.config, permission: 'self' };
    });
    // Loaded on its first request (about 48 MB of memory): platform/http/api-reference.ts.
    registerLazyApiReference(app, '/reference');

    app.setErrorHandler(replyV1Error);
    checkDocumentedErrors(app);
    const notFound = (req: FastifyRequest, reply: FastifyReply) => {
      const res = routeNotFound(req.method, req.url);
      return reply.status(res.status).send(res.body);
    };
    app.setNotFoundHandler(notFound);
    // An unknown GET under /v1 is /v1's 404 in its error shape too (other methods reach the handler
    // above): without these the web app's catch-all would answer it (its 404, or its page for /v1).
    app.get('/', { config: PUBLIC, schema: { hide: true } }, notFound);
    app.get('/*', { config: PUBLIC, schema: { hide: true } }, notFound);

    const r = app.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/messages',
      {
        config: apiKey('sms:send'),
        schema: {
          operationId: 'sendMessage',
          summary: 'Send an SMS',
          description:
            'Sends one text to up to 1,000 recipients. Answers 202 once the messages and their charge are stored; one resource per recipient.',
          tags: ['Messages'],
          headers: idempotencyHeaders,
          body: v1SendMessageSchema,
          response: { 202: v1SendResultSchema, ...errorResponses(402, 409, 422) },
        },
      },
      async (req, reply) => {
        const key = req.apiKey!;
        return replyIdempotent(
          ctx.db,
          req,
          reply,
          { accountId: key.accountId, path: V1_API.messages, body: req.body },
          // With an Idempotency-Key, the answer is stored in the send's own transaction.
          async (claim) => ({
            status: 202,
            body: await v1.send(key, req.body, claim),
            stored: claim !== null,
          }),
        );
      },
    );

    r.get(
      '/messages',
      {
        config: apiKey('sms:read'),
        schema: {
          operationId: 'listMessages',
          summary: 'List messages',
          description: 'Newest first, keyset-paged: pass `nextCursor` as `cursor` for the next page.',
          tags: ['Messages'],
          querystring: v1MessageListQuerySchema,
          response: { 200: v1MessageListSchema, ...errorResponses() },
        },
      },
      async (req) => v1.list(req.apiKey!.accountId, req.query),
    );

    r.get(
      '/messages/:id',
      {
        config: apiKey('sms:read'),
        schema: {
          operationId: 'getMessage',
          summary: 'Get a message',
          tags: ['Messages'],
          params: z.object({ id: z.uuid('No such message') }),
          response: { 200: v1MessageSchema, ...errorResponses(404) },
        },
      },
      async (req) => v1.get(req.apiKey!.accountId, req.params.id),
    );

    r.get(
      '/balance',
      {
        config: apiKey('balance:read'),
        schema: {
          operationId: 'getBalance',
          summary: 'Get the balance',
          description: 'In minor units of the currency (cents).',
          tags: ['Account'],
          response: { 200: v1BalanceSchema, ...errorResponses() },
        },
      },
      async (req) => v1.balance(req.apiKey!.accountId),
    );

    r.post(
      '/campaigns',
      {
        config: apiKey('campaigns:write'),
        bodyLimit: 2 * 1024 * 1024,
        schema: {
          operationId: 'createCampaign',
          summary: 'Create a campaign',
          description:
            'A large send (numbers and/or contact groups) on the same engine as the Bulk SMS screen: priced, charged and queued at once, sent at `scheduleAt` or now, at `ratePerMinute` if given, in batches of `batchSize` with `batchPauseSeconds` between them, and at `prefixRates` per destination prefix.',
          tags: ['Campaigns'],
          headers: idempotencyHeaders,
          body: v1CreateCampaignSchema,
          // 404: a groupIds entry that is not one of the account's contact groups.
          response: { 202: campaignAcceptedSchema, ...errorResponses(402, 404, 409, 422) },
        },
      },
      async (req, reply) => {
        const key = req.apiKey!;
        const b = req.body;
        return replyIdempotent(
          ctx.db,
          req,
          reply,
          { accountId: key.accountId, path: V1_API.campaigns, body: b },
          async (claim) => {
            const accepted = await campaignsOf(ctx).create(
              {
                kind: 'bulk',
                name: b.name,
                numbers: b.to.join('\n'),
                groupIds: b.groupIds,
                text: b.text,
                trackLinks: b.trackLinks,
                sendWindow: b.sendWindow,
                senderId: b.from,
                scheduleAt: b.scheduleAt,
                ratePerMinute: b.ratePerMinute,
                batchSize: b.batchSize,
                batchPauseSeconds: b.batchPauseSeconds,
                prefixRates: b.prefixRates,
                accountId: key.accountId,
                userId: key.userId,
              },
              // The Idempotency-Key answer commits with the campaign: a failure after the commit
              // cannot lead a retry to create it twice.
              claim
                ? { withinTransaction: (trx, body) => storeAnswers(trx, [{ claim, status: 202, body }]) }
                : {},
            );
            return { status: 202, body: accepted, stored: claim !== null };
          },
        );
      },
    );

    r.get(
      '/campaigns/:id',
      {
        config: apiKey('campaigns:write'),
        schema: {
          operationId: 'getCampaign',
          summary: 'Get a campaign',
          description: 'Its status and counts (recipients, sent, delivered, failed…).',
          tags: ['Campaigns'],
          params: z.object({ id: z.uuid('No such campaign') }),
          response: { 200: campaignDtoSchema, ...errorResponses(404) },
        },
      },
      async (req) => campaignsOf(ctx).get(req.apiKey!.accountId, req.params.id),
    );

    const contacts = createV1ContactsService({
      db: ctx.db,
      events: ctx.events,
      contacts: ctx.services.contacts,
      groups: ctx.services.groups,
      defaultCountry: ctx.config.defaultCountry,
    });

    r.post(
      '/contacts',
      {
        config: apiKey('contacts:write'),
        schema: {
          operationId: 'addContacts',
          summary: 'Add contacts to a group',
          description:
            'Up to 1,000 contacts per request, stored with E.164 phones. Invalid phones and phones the group already has are reported and skipped (a retry adds nothing twice); a request without any valid phone is a 400.',
          tags: ['Contacts'],
          body: v1AddContactsSchema,
          response: { 201: v1AddContactsResultSchema, ...errorResponses(404) },
        },
      },
      async (req, reply) => reply.status(201).send(await contacts.add(req.apiKey!.accountId, req.body)),
    );

    r.get(
      '/groups',
      {
        config: apiKey('contacts:write'),
        schema: {
          operationId: 'listGroups',
          summary: 'List contact groups',
          description: 'Every group of the account with its contact count, by name.',
          tags: ['Contacts'],
          response: { 200: v1GroupListSchema, ...errorResponses() },
        },
      },
      async (req) => contacts.groups(req.apiKey!.accountId),
    );

    r.get(
      '/groups/:id/contacts',
      {
        config: apiKey('contacts:write'),
        schema: {
          operationId: 'listGroupContacts',
          summary: "List a group's contacts",
          description: 'Newest first, keyset-paged: pass `nextCursor` as `cursor` for the next page.',
          tags: ['Contacts'],
          params: z.object({ id: z.uuid('No such group') }),
          querystring: v1ContactListQuerySchema,
          response: { 200: v1ContactListSchema, ...errorResponses(404) },
        },
      },
      async (req) => contacts.list(req.apiKey!.accountId, req.params.id, req.query),
    );

    r.delete(
      '/groups/:id/contacts/:contactId',
      {
        config: apiKey('contacts:write'),
        schema: {
          operationId: 'deleteGroupContact',
          summary: 'Remove a contact from a group',
          tags: ['Contacts'],
          params: z.object({ id: z.uuid('No such group'), contactId: z.uuid('No such contact') }),
          response: { 204: noContentSchema.describe('Removed'), ...errorResponses(404) },
        },
      },
      async (req, reply) => {
        await contacts.remove(req.apiKey!.accountId, req.params.id, req.params.contactId);
        return reply.status(204).send();
      },
    );

    app.get('/openapi.json', { config: PUBLIC, schema: { hide: true } }, async (_req, reply) =>
      reply.header('access-control-allow-origin', '*').send(app.swagger()),
    );
  };
}
