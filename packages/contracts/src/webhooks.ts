import { z } from 'zod';
import { MESSAGE_STATUSES } from './messages';

/**
 * Delivery webhooks (Standard Webhooks): POSTed JSON with webhook-id, webhook-timestamp and
 * webhook-signature headers, signed with the account's whsec_ secret.
 */
export const WEBHOOK_EVENT_TYPES = ['message.status', 'message.inbound'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const messageStatusEventSchema = z
  .object({
    type: z.literal('message.status'),
    timestamp: z.string(),
    data: z.object({
      id: z.string(),
      to: z.string(),
      from: z.string(),
      status: z.enum(MESSAGE_STATUSES),
      error: z.string().nullable(),
      segments: z.number(),
      priceMinor: z.number(),
      currency: z.string(),
      clientRef: z.string().nullable(),
      doneAt: z.string().nullable(),
    }),
  })
  .meta({ id: 'MessageStatusEvent' });
export type MessageStatusEvent = z.infer<typeof messageStatusEventSchema>;

export const inboundMessageEventSchema = z
  .object({
    type: z.literal('message.inbound'),
    timestamp: z.string(),
    data: z.object({
      id: z.string(),
      from: z.string(),
      to: z.string(),
      text: z.string(),
      keyword: z.string().nullable(),
      receivedAt: z.string(),
    }),
  })
  .meta({ id: 'InboundMessageEvent' });
export type InboundMessageEvent = z.infer<typeof inboundMessageEventSchema>;
