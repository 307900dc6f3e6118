import { z } from 'zod';
import { MESSAGE_STATUSES } from './messages';
import { sendWindowSchema } from './send-windows';
import { deliveryShapingFields } from './campaigns';
import { messageTextField, pageCursorSchema, safeString } from './text';

/**
 * The public API under /v1 (Authorization: Bearer wren_live_…). Every schema here drives both the
 * server's validation and the OpenAPI document served at /v1/openapi.json.
 */

export const V1_MAX_RECIPIENTS = 1000;

/** Error types of the one /v1 error shape. */
export const V1_ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'rate_limit_error',
  'idempotency_error',
  'balance_error',
  'api_error',
] as const;
export type V1ErrorType = (typeof V1_ERROR_TYPES)[number];

/** Every error code /v1 answers with: its HTTP status, type and meaning (the documented list). */
export const V1_ERRORS = {
  parameter_invalid: [400, 'invalid_request_error', 'A parameter is missing or not valid; `param` names it.'],
  body_invalid: [400, 'invalid_request_error', 'The body is not valid JSON, or not the expected shape.'],
  body_too_large: [
    413,
    'invalid_request_error',
    'The request body is larger than the endpoint takes (1 MB; 2 MB for campaigns).',
  ],
  unsupported_media_type: [415, 'invalid_request_error', 'Send JSON with Content-Type: application/json.'],
  not_found: [404, 'invalid_request_error', 'No such resource in your account (or no such route).'],
  conflict: [409, 'invalid_request_error', 'The resource is not in a state that allows this.'],
  unprocessable: [422, 'invalid_request_error', 'The request is understood but cannot be carried out.'],
  sender_id_not_approved: [
    422,
    'invalid_request_error',
    'The `from` sender ID is not approved for your account.',
  ],
  key_missing: [401, 'authentication_error', 'No API key: send Authorization: Bearer wren_live_…'],
  key_invalid: [401, 'authentication_error', 'The API key is not valid.'],
  key_revoked: [401, 'authentication_error', 'The API key has been revoked or rotated.'],
  key_expired: [401, 'authentication_error', 'The API key has expired.'],
  account_locked: [403, 'permission_error', 'The account is locked by an operator; contact support.'],
  ip_not_allowed: [403, 'permission_error', "The caller's IP address is not on the key's allowlist."],
  scope_missing: [403, 'permission_error', 'The key lacks the scope this endpoint needs.'],
  rate_limited: [429, 'rate_limit_error', 'Too many requests for this key; wait for Retry-After seconds.'],
  idempotency_key_reused: [
    422,
    'idempotency_error',
    'The Idempotency-Key was used with a different request body or endpoint.',
  ],
  idempotency_key_in_use: [
    409,
    'idempotency_error',
    'A request with this Idempotency-Key is still running; retry shortly.',
  ],
  insufficient_balance: [402, 'balance_error', 'The balance does not cover this send.'],
  service_unavailable: [
    503,
    'api_error',
    'Briefly unavailable (a database restart or failover); retry after Retry-After seconds with the same Idempotency-Key.',
  ],
  internal_error: [
    500,
    'api_error',
    'Something went wrong on our side; retry with the same Idempotency-Key.',
  ],
} as const satisfies Record<string, readonly [number, V1ErrorType, string]>;
export type V1ErrorCode = keyof typeof V1_ERRORS;

export const v1ErrorSchema = z
  .object({
    error: z.object({
      type: z.enum(V1_ERROR_TYPES),
      code: z.string(),
      message: z.string(),
      param: z.string().optional(),
    }),
  })
  .meta({ id: 'Error' });
export type V1Error = z.infer<typeof v1ErrorSchema>;

/** One phone number per string: "a,b" or "a\nb" is refused, not split (a list is an array). */
const recipient = safeString()
  .trim()
  .min(1, 'Give a phone number')
  .max(32, 'Not a phone number')
  .refine((s) => !/[,;\r\n\t]/.test(s), {
    message: 'One phone number per string; send several as an array of strings',
  });

export const v1SendMessageSchema = z
  .strictObject({
    to: z.union(
      [
        recipient,
        z
          .array(recipient)
          .min(1, 'Give at least one recipient')
          .max(V1_MAX_RECIPIENTS, `At most ${V1_MAX_RECIPIENTS} recipients per request`),
      ],
      {
        error: (issue) =>
          issue.code === 'invalid_union'
            ? `A phone number, or an array of 1 to ${V1_MAX_RECIPIENTS} phone numbers (strings)`
            : undefined,
      },
    ),
    text: messageTextField(1600, 'At most 1600 characters'),
    from: safeString().trim().min(1).max(15).optional(),
    scheduleAt: z.iso.datetime({ offset: true, message: 'An ISO 8601 time with an offset' }).optional(),
    callbackUrl: safeString()
      .trim()
      .max(2000)
      .pipe(z.url({ protocol: /^https?$/, message: 'A full http:// or https:// URL' }))
      .optional(),
    clientRef: safeString().trim().min(1).max(100).optional(),
  })
  .meta({ id: 'SendMessageRequest' });
export type V1SendMessage = z.infer<typeof v1SendMessageSchema>;

export const v1MessageSchema = z
  .object({
    id: z.string(),
    to: z.string(),
    from: z.string(),
    text: z.string(),
    status: z.enum(MESSAGE_STATUSES),
    encoding: z.enum(['GSM-7', 'UCS-2']),
    segments: z.number(),
    /** Price in minor units of `currency` (cents). */
    priceMinor: z.number(),
    currency: z.string(),
    clientRef: z.string().nullable(),
    error: z.string().nullable(),
    scheduledAt: z.string().nullable(),
    createdAt: z.string(),
    submittedAt: z.string().nullable(),
    /**
     * While `sent`: since when the message has waited for its delivery receipt, and its deadline (the
     * connection's receipt deadline, counted from the submit: 48 h by default, 60 min for OTP). If no
     * final receipt arrives by then, the message ends as `unknown`. Null in every other status.
     */
    awaitingReceipt: z.object({ since: z.string(), deadline: z.string() }).nullable().meta({
      description:
        "While `sent`: since when the message has waited for its delivery receipt, and the deadline (the connection's receipt deadline from the submit; 48 h by default, 60 min for OTP) after which it ends as `unknown`. Null in every other status.",
    }),
    doneAt: z.string().nullable(),
  })
  .meta({ id: 'Message' });
export type V1Message = z.infer<typeof v1MessageSchema>;

export const v1SendResultSchema = z
  .object({
    data: z.array(v1MessageSchema),
    totalPriceMinor: z.number(),
    currency: z.string(),
    /** Recipients on your suppression list (they replied STOP): not sent, not charged. */
    suppressed: z.array(z.string()),
  })
  .meta({ id: 'SendMessageResult' });
export type V1SendResult = z.infer<typeof v1SendResultSchema>;

export const v1MessageListQuerySchema = z.object({
  status: z.enum(MESSAGE_STATUSES).optional(),
  to: safeString().trim().max(32).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const v1MessageListSchema = z
  .object({ data: z.array(v1MessageSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'MessageList' });

export const v1BalanceSchema = z
  .object({ balanceMinor: z.number(), currency: z.string() })
  .meta({ id: 'Balance' });

export const V1_API = {
  messages: '/v1/messages',
  message: '/v1/messages/:id',
  balance: '/v1/balance',
  campaigns: '/v1/campaigns',
  openapi: '/v1/openapi.json',
} as const;

/** POST /v1/campaigns: a large send on the same engine as the Bulk SMS screen. */
export const v1CreateCampaignSchema = z
  .strictObject({
    name: safeString().trim().max(100).optional(),
    /** Phone numbers (E.164 or national), up to 50,000; or use groupIds, or both. */
    to: z
      .array(recipient)
      .max(50_000, 'At most 50,000 numbers per request; use groupIds for more')
      .default([]),
    groupIds: z.array(z.uuid('Unknown group')).max(100).default([]),
    text: messageTextField(1600, 'At most 1600 characters'),
    from: safeString().trim().min(1).max(15).optional(),
    scheduleAt: z.iso.datetime({ offset: true, message: 'An ISO 8601 time with an offset' }).optional(),
    /** Messages per minute; omit for as fast as the connection allows. */
    ratePerMinute: z.number().int().min(1).max(1_000_000).optional(),
    /** Batches of `batchSize` with `batchPauseSeconds` between them, and a rate per destination prefix. */
    ...deliveryShapingFields,
    /** Replace each URL with a tracked short link per recipient; the campaign counts their clicks. */
    trackLinks: z.boolean().default(false),
    /** Days and hours in each recipient's local time; omit for the account's default, null for none. */
    sendWindow: sendWindowSchema.nullable().optional(),
  })
  .meta({ id: 'CreateCampaignRequest' });
export type V1CreateCampaign = z.infer<typeof v1CreateCampaignSchema>;
