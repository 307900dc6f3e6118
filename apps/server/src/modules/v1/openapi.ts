import swagger from '@fastify/swagger';
import { V1_ERRORS } from '@wren/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app/context';

export const OPENAPI_INFO = {
  title: 'Wren API',
  version: '1.0.0',
  description: [
    'Send SMS, read delivery status and your balance from your own systems.',
    '',
    'Authenticate with `Authorization: Bearer wren_live_…` (create keys under SMS & OTP API). There are no cookies and no XSRF token on /v1.',
    '',
    'Retry safely: send an `Idempotency-Key` header on POST requests that send (messages, campaigns, OTP send and check); a replayed answer carries `Idempotent-Replayed: true`. Errors always have the shape `{"error": {"type", "code", "message", "param"}}`.',
    '',
    'Bodies are JSON in UTF-8 (`Content-Type: application/json`): another charset or type is a `415`, bytes that are not UTF-8 a `400`. Each recipient is one phone number per string; several go in an array.',
    '',
    '| code | status | meaning |',
    '|---|---|---|',
    ...Object.entries(V1_ERRORS).map(
      ([code, [status, , meaning]]) => `| \`${code}\` | ${status} | ${meaning} |`,
    ),
    '',
    'Rate limits per key and minute, counted across all of our servers: `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers on every answer once the key is accepted (a `401` or `403` is not counted and has none); `429` with `Retry-After` when exceeded.',
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
    transformObject: (args) => finishDocument(jsonSchemaTransformObject(args) as OpenApiDocument),
  });
}

/** The /v1 error codes answered with `status`, for a response's description. */
export const errorCodesOf = (status: number) =>
  Object.entries(V1_ERRORS)
    .filter(([, v]) => v[0] === status)
    .map(([k]) => k)
    .join(', ') || 'Error';

interface OpenApiResponse {
  description?: string;
  content?: unknown;
  headers?: Record<string, unknown>;
}
interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  responses?: Record<string, OpenApiResponse>;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown>; headers?: Record<string, unknown> };
  webhooks?: Record<string, unknown>;
}

const header = (description: string, type: 'integer' | 'string') => ({ description, schema: { type } });
const HEADERS = {
  'RateLimit-Limit': header("The key's requests per minute.", 'integer'),
  'RateLimit-Remaining': header('Requests left in the current minute.', 'integer'),
  'RateLimit-Reset': header('Seconds until the current minute ends.', 'integer'),
  'Retry-After': header('Seconds to wait before retrying.', 'integer'),
  'Idempotent-Replayed': header(
    '`true` when this answer is the stored answer of an earlier request with the same Idempotency-Key.',
    'string',
  ),
};
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const errorResponse = (status: number): OpenApiResponse => ({
  description: errorCodesOf(status),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});
/** Errors of the OTP operations (their routes also answer the console's session in the app's shape). */
const OTP_ERRORS = [400, 401, 402, 403, 404, 409, 422, 429, 500];

/**
 * The statuses an operation's document lists beyond its route schema's own responses: the OTP
 * operations' errors, and 413/415 where there is a body. finishDocument adds them to the document and
 * the documented-errors check (v1-documented-errors.ts) holds every answer to the same list.
 */
export function addedStatuses(method: string, path: string): number[] {
  const m = method.toLowerCase();
  return [
    ...(/^\/v1\/otp\//.test(path) ? OTP_ERRORS : []),
    ...(m === 'post' || m === 'put' || m === 'patch' ? [413, 415] : []),
  ];
}

/**
 * What the routes' schemas cannot say, added to the generated document: the rate-limit headers (on
 * every answer after the key is checked: not on 401/403, which are not counted), `Retry-After` on 429,
 * `Idempotent-Replayed` where an Idempotency-Key is taken, 413/415 on operations with a body, the OTP
 * operations' errors, the webhook events (OpenAPI 3.1 `webhooks`), and one schema per request and
 * response type (a request body's schema keeps its plain name; unreferenced duplicates are dropped).
 */
export function finishDocument(doc: OpenApiDocument): OpenApiDocument {
  doc.components = { ...doc.components, headers: HEADERS };
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      const responses = (op.responses ??= {});
      for (const s of addedStatuses(method, path)) responses[s] ??= errorResponse(s);
      const idempotent = op.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key');
      for (const [status, res] of Object.entries(responses)) {
        if (status === '401' || status === '403') continue;
        res.headers = {
          ...res.headers,
          'RateLimit-Limit': headerRef('RateLimit-Limit'),
          'RateLimit-Remaining': headerRef('RateLimit-Remaining'),
          'RateLimit-Reset': headerRef('RateLimit-Reset'),
          ...(status === '429' && { 'Retry-After': headerRef('Retry-After') }),
          ...(idempotent &&
            status !== '429' &&
            status !== '500' && {
              'Idempotent-Replayed': headerRef('Idempotent-Replayed'),
            }),
        };
      }
    }
  }
  const schemas = doc.components.schemas ?? {};
  const event = (name: string, summary: string) =>
    schemas[name] && {
      post: {
        summary,
        description: 'Signed with your account secret (Standard Webhooks). Answer 2xx within 10 s.',
        requestBody: {
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: { '200': { description: 'Received (any 2xx)' } },
      },
    };
  const webhooks = {
    'message.status': event('MessageStatusEvent', 'The final status of a message'),
    'message.inbound': event('InboundMessageEvent', 'An SMS received on your numbers'),
  };
  doc.webhooks = Object.fromEntries(Object.entries(webhooks).filter(([, v]) => v));
  return dedupeSchemas(doc);
}

const REF = /"#\/components\/schemas\/([^"]+)"/g;

/** Drops schemas nothing reaches, then gives a lone `XInput` the name `X`. */
function dedupeSchemas(doc: OpenApiDocument): OpenApiDocument {
  const schemas = doc.components?.schemas ?? {};
  const reached = new Set<string>();
  const visit = (value: unknown) => {
    for (const [, name] of JSON.stringify(value).matchAll(REF)) {
      if (reached.has(name) || !schemas[name]) continue;
      reached.add(name);
      visit(schemas[name]);
    }
  };
  visit({ paths: doc.paths, webhooks: doc.webhooks });
  const kept = Object.keys(schemas).filter((n) => reached.has(n));
  const renames = new Map(
    kept.filter((n) => n.endsWith('Input') && !reached.has(n.slice(0, -5))).map((n) => [n, n.slice(0, -5)]),
  );
  const next = Object.fromEntries(kept.map((n) => [renames.get(n) ?? n, schemas[n]]));
  const text = JSON.stringify({ ...doc, components: { ...doc.components, schemas: next } }).replace(
    REF,
    (whole, name: string) => (renames.has(name) ? `"#/components/schemas/${renames.get(name)}"` : whole),
  );
  return JSON.parse(text) as OpenApiDocument;
}
