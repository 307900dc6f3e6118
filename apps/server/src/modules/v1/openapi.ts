import swagger from '@fastify/swagger';
import { V1_ERRORS } from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { AppContext } from '../../platform/context';

export const OPENAPI_INFO = {
  title: 'Wren API',
  version: '1.0.0',
  description: [
    'Send SMS, read delivery status and your balance from your own systems.',
    '',
    'Authenticate with `Authorization: Bearer wren_live_…` (create keys under SMS & OTP API). There are no cookies and no XSRF token on /v1.',
    '',
    'Retry safely: send an `Idempotency-Key` header on POST requests. Errors always have the shape `{"error": {"type", "code", "message", "param"}}`.',
    '',
    '| code | status | meaning |',
    '|---|---|---|',
    ...Object.entries(V1_ERRORS).map(
      ([code, [status, , meaning]]) => `| \`${code}\` | ${status} | ${meaning} |`,
    ),
    '',
    'Rate limits per key and minute, counted across all of our servers: `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers on every answer; `429` with `Retry-After` when exceeded.',
    '',
    "Delivery webhooks follow the Standard Webhooks spec (`webhook-id`, `webhook-timestamp`, `webhook-signature`), signed with your account secret (Profile → API detail). A `message.status` event is sent for the final status of every message: to the request's `callbackUrl`, else the key's URL, else the account URL (which also receives web and campaign messages, and `message.inbound` events). Webhook URLs must be public http(s) addresses without credentials: private, loopback and link-local addresses are refused, also when a name resolves to one at delivery.",
  ].join('\n'),
};

/**
 * The OpenAPI 3.1 document of /v1, generated from the routes' zod schemas (contracts). Registered on
 * the root before any route, so every /v1 route is seen, whichever module adds it (OTP too); routes
 * outside /v1 are left out. Served by v1.routes.ts at /v1/openapi.json.
 */
export async function registerOpenApi(app: FastifyInstance, ctx: AppContext) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: OPENAPI_INFO,
      servers: [{ url: ctx.config.publicUrl, description: 'This Wren server' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: wren_live_…' },
        },
      },
      security: [{ apiKey: [] }],
    },
    transform: (args) => {
      if (!args.url.startsWith('/v1/')) return { schema: { ...args.schema, hide: true }, url: args.url };
      // Routes of other modules under /v1 (the OTP API) get a tag and summary if they name none.
      const otp = /^\/v1\/otp\/:serviceId\/(send|check)$/.exec(args.url);
      const schema =
        otp && !args.schema.tags
          ? {
              ...args.schema,
              tags: ['OTP'],
              summary: otp[1] === 'send' ? 'Send a one-time code' : 'Check a one-time code',
            }
          : args.schema;
      return jsonSchemaTransform({ ...args, schema });
    },
    transformObject: jsonSchemaTransformObject,
  });
}
