import {
  API_KEYS_API,
  apiDetailSchema,
  apiKeyCreatedSchema,
  apiKeyDtoSchema,
  apiKeyInputSchema,
  apiKeyListSchema,
  apiKeyReportQuerySchema,
  apiKeyReportSchema,
  apiKeyUpdateSchema,
  webhookDeliveryDtoSchema,
  webhookSettingsInputSchema,
} from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app/context';
import { authOf } from '../../platform/http/auth-guard';
import { can } from '../../platform/http/route-auth';
import { assertScopesWithinRole } from './key-scopes-of-role';

const idParams = z.object({ id: z.uuid('API key not found') });

/** The signed-in user's API keys, webhook settings and delivery log (browser API). */
export function apiKeysRoutes(ctx: AppContext) {
  const { apiKeys, webhooks } = ctx.services;

  async function detail(accountId: string) {
    const [settings, lastCall, prefixes] = await Promise.all([
      webhooks.settings(accountId),
      apiKeys.lastCall(accountId),
      apiKeys.prefixes(accountId),
    ]);
    return {
      baseUrl: ctx.config.publicUrl,
      accountId,
      webhookSecret: settings.secret,
      webhookUrl: settings.url,
      webhookSecretRotatedAt: settings.rotated_at.toISOString(),
      lastCall,
      keyPrefixes: prefixes,
    };
  }

  return async (app: FastifyInstance) => {
    const stopFlushing = apiKeys.startFlushing();
    app.addHook('onClose', stopFlushing);
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      API_KEYS_API.list,
      { config: can('developer:manage'), schema: { response: { 200: apiKeyListSchema } } },
      async (req) => apiKeys.list(authOf(req).accountId),
    );

    r.post(
      API_KEYS_API.list,
      {
        config: can('developer:manage'),
        schema: { body: apiKeyInputSchema, response: { 201: apiKeyCreatedSchema } },
      },
      async (req, reply) => {
        const a = authOf(req);
        assertScopesWithinRole(a.accountRole, req.body.scopes);
        return reply
          .status(201)
          .send(await apiKeys.create({ accountId: a.accountId, userId: a.userId, body: req.body }));
      },
    );

    r.get(
      API_KEYS_API.item,
      { config: can('developer:manage'), schema: { params: idParams, response: { 200: apiKeyDtoSchema } } },
      async (req) => apiKeys.get(authOf(req).accountId, req.params.id),
    );

    r.patch(
      API_KEYS_API.item,
      {
        config: can('developer:manage'),
        schema: { params: idParams, body: apiKeyUpdateSchema, response: { 200: apiKeyDtoSchema } },
      },
      async (req) => {
        assertScopesWithinRole(authOf(req).accountRole, req.body.scopes ?? []);
        return apiKeys.update(authOf(req).accountId, req.params.id, req.body);
      },
    );

    r.post(
      API_KEYS_API.revoke,
      { config: can('developer:manage'), schema: { params: idParams, response: { 200: apiKeyDtoSchema } } },
      async (req) => apiKeys.revoke(authOf(req).accountId, req.params.id),
    );

    r.post(
      API_KEYS_API.rotate,
      {
        config: can('developer:manage'),
        schema: { params: idParams, response: { 200: apiKeyCreatedSchema } },
      },
      async (req) => apiKeys.rotate(authOf(req).accountId, req.params.id),
    );

    r.get(
      API_KEYS_API.report,
      {
        config: can('developer:manage'),
        schema: {
          params: idParams,
          querystring: apiKeyReportQuerySchema,
          response: { 200: apiKeyReportSchema },
        },
      },
      async (req) => {
        const accountId = authOf(req).accountId;
        const report = await apiKeys.report(accountId, req.params.id, req.query.days);
        return { ...report, deliveries: await webhooks.deliveriesForKey(accountId, report.key) };
      },
    );

    r.post(
      API_KEYS_API.replay,
      {
        config: can('developer:manage'),
        schema: {
          params: z.object({
            id: z
              .string()
              .min(1)
              .max(100)
              .regex(/^evt_[\w-]+$/, 'Delivery not found'),
          }),
          response: { 200: webhookDeliveryDtoSchema },
        },
      },
      async (req) => webhooks.replay(authOf(req).accountId, req.params.id),
    );

    r.get(
      API_KEYS_API.detail,
      { config: can('developer:manage'), schema: { response: { 200: apiDetailSchema } } },
      async (req) => detail(authOf(req).accountId),
    );

    r.put(
      API_KEYS_API.webhookSettings,
      {
        config: can('developer:manage'),
        schema: { body: webhookSettingsInputSchema, response: { 200: apiDetailSchema } },
      },
      async (req) => {
        const accountId = authOf(req).accountId;
        await webhooks.setUrl(accountId, req.body.webhookUrl);
        return detail(accountId);
      },
    );

    r.post(
      API_KEYS_API.rotateWebhookSecret,
      { config: can('developer:manage'), schema: { response: { 200: apiDetailSchema } } },
      async (req) => {
        const accountId = authOf(req).accountId;
        await webhooks.rotateSecret(accountId);
        return detail(accountId);
      },
    );
  };
}
