import { z } from 'zod';
import { safeString } from './text';

/** What an API key may do. */
export const API_SCOPES = [
  'sms:send',
  'sms:read',
  'campaigns:write',
  'otp',
  'contacts:write',
  'balance:read',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  'sms:send': 'Send SMS',
  'sms:read': 'Read messages',
  'campaigns:write': 'Create campaigns',
  otp: 'Send and check one-time codes',
  'contacts:write': 'Manage contacts',
  'balance:read': 'Read the balance',
};

/** A key's secret: `wren_live_` and 40 base62 characters (secret scanners match the prefix). */
export const API_KEY_PATTERN = /^wren_live_[0-9A-Za-z]{40}$/;
export const API_KEY_MARK = 'wren_live_';
export const API_KEY_RATE_LIMIT_MAX = 1_000_000;

/** Whether a text is an IPv4/IPv6 address or CIDR (checked exactly on the server). */
const cidrLike = /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/;

const httpsUrl = safeString()
  .trim()
  .max(2000, 'The URL is too long (at most 2000 characters)')
  .pipe(z.url({ protocol: /^https?$/, message: 'Enter a full http:// or https:// URL' }));

/** A key's fields as given (no defaults): a creation fills the ones left out, an update keeps them. */
const apiKeyFields = {
  name: safeString().trim().min(1, 'Name the key').max(80, 'At most 80 characters'),
  scopes: z.array(z.enum(API_SCOPES)).min(1, 'Choose at least one scope').max(API_SCOPES.length),
  ipAllowlist: z
    .array(safeString().trim().max(64).regex(cidrLike, 'Enter an IP address or CIDR, e.g. 203.0.113.0/24'))
    .max(50, 'At most 50 addresses'),
  expiresAt: z.iso.datetime({ offset: true, message: 'Enter a valid date and time' }).nullable(),
  rateLimitPerMinute: z
    .number()
    .int()
    .min(1, 'At least 1 request per minute')
    .max(API_KEY_RATE_LIMIT_MAX, `At most ${API_KEY_RATE_LIMIT_MAX.toLocaleString('en-US')} per minute`)
    .nullable(),
  webhookUrl: httpsUrl.nullable(),
};

export const apiKeyInputSchema = z.object({
  ...apiKeyFields,
  ipAllowlist: apiKeyFields.ipAllowlist.default([]),
  expiresAt: apiKeyFields.expiresAt.default(null),
  rateLimitPerMinute: apiKeyFields.rateLimitPerMinute.default(null),
  webhookUrl: apiKeyFields.webhookUrl.default(null),
});
export type ApiKeyInput = z.input<typeof apiKeyInputSchema>;

/**
 * An update: only the fields given change. Built from the fields without their defaults: zod's
 * `.partial()` of the creation schema still fills a left-out field with its default, so renaming a
 * key cleared its IP allowlist, expiry, rate limit and webhook.
 */
export const apiKeyUpdateSchema = /* @__PURE__ */ z.object(apiKeyFields).partial();
export type ApiKeyUpdate = z.input<typeof apiKeyUpdateSchema>;

export const API_KEY_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const apiKeyDtoSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The visible start of the secret, e.g. `wren_live_Ab12Cd34`. */
  prefix: z.string(),
  scopes: z.array(z.enum(API_SCOPES)),
  ipAllowlist: z.array(z.string()),
  expiresAt: z.string().nullable(),
  rateLimitPerMinute: z.number().nullable(),
  webhookUrl: z.string().nullable(),
  status: z.enum(API_KEY_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  /** Requests in the last 24 hours. */
  requests24h: z.number(),
});
export type ApiKeyDto = z.infer<typeof apiKeyDtoSchema>;

export const apiKeyListSchema = z.object({ items: z.array(apiKeyDtoSchema) });
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;

/** Create and rotate answer with the secret: it is shown this once and never again. */
export const apiKeyCreatedSchema = z.object({ key: apiKeyDtoSchema, secret: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

export const webhookDeliveryDtoSchema = z.object({
  id: z.string(),
  eventType: z.string(),
  url: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  lastLatencyMs: z.number().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDeliveryDto = z.infer<typeof webhookDeliveryDtoSchema>;

export const apiKeyReportSchema = z.object({
  key: apiKeyDtoSchema,
  days: z.array(
    z.object({ day: z.string(), ok: z.number(), clientErrors: z.number(), serverErrors: z.number() }),
  ),
  /** Every message the key sent in the window: its /v1/messages sends and its OTP codes' SMS. */
  messages: z.object({ count: z.number(), costMinor: z.number(), currency: z.string() }),
  topErrors: z.array(z.object({ code: z.string(), count: z.number() })),
  deliveries: z.array(webhookDeliveryDtoSchema),
});
export type ApiKeyReport = z.infer<typeof apiKeyReportSchema>;

export const apiKeyReportQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(90).default(14),
});

/** The developer's API settings (/profile/api-detail). */
export const apiDetailSchema = z.object({
  baseUrl: z.string(),
  accountId: z.string(),
  webhookSecret: z.string(),
  webhookUrl: z.string().nullable(),
  webhookSecretRotatedAt: z.string(),
  lastCall: z.object({ at: z.string(), ip: z.string().nullable(), keyPrefix: z.string() }).nullable(),
  keyPrefixes: z.array(z.string()),
});
export type ApiDetail = z.infer<typeof apiDetailSchema>;

export const webhookSettingsInputSchema = z.object({ webhookUrl: httpsUrl.nullable() });

export const API_KEYS_API = {
  list: '/api/api-keys',
  item: '/api/api-keys/:id',
  itemOf: (id: string) => `/api/api-keys/${encodeURIComponent(id)}`,
  revoke: '/api/api-keys/:id/revoke',
  revokeOf: (id: string) => `/api/api-keys/${encodeURIComponent(id)}/revoke`,
  rotate: '/api/api-keys/:id/rotate',
  rotateOf: (id: string) => `/api/api-keys/${encodeURIComponent(id)}/rotate`,
  report: '/api/api-keys/:id/report',
  reportOf: (id: string) => `/api/api-keys/${encodeURIComponent(id)}/report`,
  detail: '/api/developer',
  webhookSettings: '/api/developer/webhook',
  rotateWebhookSecret: '/api/developer/webhook/rotate-secret',
  replay: '/api/webhooks/deliveries/:id/replay',
  replayOf: (id: string) => `/api/webhooks/deliveries/${encodeURIComponent(id)}/replay`,
} as const;
