import { z } from 'zod';
import { messageTextField, pageCursorSchema, safeString, timeZoneField } from './text';
import { suppressedRecipientSchema } from './inbound';

/** Message statuses (ARCHITECTURE.md §5). A status only moves forward. */
export const MESSAGE_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'canceled',
  'unknown',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const FINAL_STATUSES: readonly MessageStatus[] = [
  'delivered',
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'canceled',
  'unknown',
];

export const MAX_RECIPIENTS_SINGLE = 100;

export const sendSingleSchema = z.object({
  recipients: z
    .array(safeString().trim().min(1).max(32))
    .min(1, 'Add at least one recipient')
    .max(
      MAX_RECIPIENTS_SINGLE,
      `At most ${MAX_RECIPIENTS_SINGLE} recipients per send; use Bulk SMS for more`,
    ),
  text: messageTextField(1600, 'The message is too long (at most 1600 characters)'),
  senderId: safeString().trim().min(1).max(15).optional(),
  /** ISO 8601 instant; omit to send now. */
  scheduleAt: z.iso.datetime({ offset: true, message: 'Enter a valid date and time' }).optional(),
  /** IANA time zone the user picked the schedule in (kept for display). */
  timezone: timeZoneField().optional(),
});
export type SendSingleInput = z.infer<typeof sendSingleSchema>;

export const messageDtoSchema = z.object({
  id: z.string(),
  campaignId: z.string().nullable(),
  recipient: z.string(),
  sender: z.string(),
  text: z.string(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  segments: z.number(),
  priceMinor: z.number(),
  currency: z.string(),
  status: z.enum(MESSAGE_STATUSES),
  error: z.string().nullable(),
  scheduledAt: z.string().nullable(),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  /** While sent: when the message stops waiting for its receipt (it then ends as `unknown`). */
  receiptDueAt: z.string().nullable(),
  doneAt: z.string().nullable(),
});
export type MessageDto = z.infer<typeof messageDtoSchema>;

export const messageEventDtoSchema = z.object({
  id: z.string(),
  status: z.string(),
  detail: z.string().nullable(),
  raw: z.string().nullable(),
  createdAt: z.string(),
});
export type MessageEventDto = z.infer<typeof messageEventDtoSchema>;

/** GET /api/sms/log/:id and POST …/cancel: the message and its history. */
export const messageDetailSchema = z.object({
  message: messageDtoSchema,
  events: z.array(messageEventDtoSchema),
});
export type MessageDetail = z.infer<typeof messageDetailSchema>;

export const sendResultSchema = z.object({
  messages: z.array(messageDtoSchema),
  totalPriceMinor: z.number(),
  currency: z.string(),
  balanceMinor: z.number(),
  /** Recipients on the account's suppression list: not sent and not charged. */
  suppressed: z.array(suppressedRecipientSchema).optional(),
});
export type SendResult = z.infer<typeof sendResultSchema>;

export const smsLogQuerySchema = z.object({
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  status: z.enum(MESSAGE_STATUSES).optional(),
  recipient: safeString().trim().max(32).optional(),
  sender: safeString().trim().max(15).optional(),
  text: safeString().trim().max(100).optional(),
  campaignId: z.uuid().optional(),
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type SmsLogQuery = z.infer<typeof smsLogQuerySchema>;

export const smsLogPageSchema = z.object({
  items: z.array(messageDtoSchema),
  nextCursor: z.string().nullable(),
});
export type SmsLogPage = z.infer<typeof smsLogPageSchema>;

export const ratePlanDtoSchema = z.object({
  currency: z.string(),
  prices: z.array(z.object({ prefix: z.string(), country: z.string().nullable(), priceMinor: z.number() })),
});
export type RatePlanDto = z.infer<typeof ratePlanDtoSchema>;

/** GET /api/balance */
export const balanceSchema = z.object({ balanceMinor: z.number(), currency: z.string() });
export type Balance = z.infer<typeof balanceSchema>;

export const MESSAGING_API = {
  sendSingle: '/api/sms/single',
  log: '/api/sms/log',
  logExport: '/api/sms/log/export.csv',
  logItem: (id: string) => `/api/sms/log/${encodeURIComponent(id)}`,
  cancel: (id: string) => `/api/sms/log/${encodeURIComponent(id)}/cancel`,
  pricing: '/api/pricing',
  balance: '/api/balance',
} as const;
