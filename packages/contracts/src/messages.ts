import { z } from 'zod';
import { pageCursorSchema, safeString } from './text';
import type { SuppressedRecipient } from './inbound';

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
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const FINAL_STATUSES: readonly MessageStatus[] = [
  'delivered',
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'canceled',
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
  text: safeString().min(1, 'Write a message').max(1600, 'The message is too long (at most 1600 characters)'),
  senderId: safeString().trim().min(1).max(15).optional(),
  /** ISO 8601 instant; omit to send now. */
  scheduleAt: z.iso.datetime({ offset: true, message: 'Enter a valid date and time' }).optional(),
  /** IANA time zone the user picked the schedule in (kept for display). */
  timezone: safeString().max(64).optional(),
});
export type SendSingleInput = z.infer<typeof sendSingleSchema>;

export interface MessageDto {
  id: string;
  campaignId: string | null;
  recipient: string;
  sender: string;
  text: string;
  encoding: 'GSM-7' | 'UCS-2';
  segments: number;
  priceMinor: number;
  currency: string;
  status: MessageStatus;
  error: string | null;
  scheduledAt: string | null;
  createdAt: string;
  submittedAt: string | null;
  doneAt: string | null;
}

export interface MessageEventDto {
  id: string;
  status: string;
  detail: string | null;
  raw: string | null;
  createdAt: string;
}

export interface SendResult {
  messages: MessageDto[];
  totalPriceMinor: number;
  currency: string;
  balanceMinor: number;
  /** Recipients on the account's suppression list: not sent and not charged. */
  suppressed?: SuppressedRecipient[];
}

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

export interface SmsLogPage {
  items: MessageDto[];
  nextCursor: string | null;
}

export interface RatePlanDto {
  currency: string;
  prices: { prefix: string; country: string | null; priceMinor: number }[];
}

export const MESSAGING_API = {
  sendSingle: '/api/sms/single',
  log: '/api/sms/log',
  logExport: '/api/sms/log/export.csv',
  logItem: (id: string) => `/api/sms/log/${encodeURIComponent(id)}`,
  cancel: (id: string) => `/api/sms/log/${encodeURIComponent(id)}/cancel`,
  pricing: '/api/pricing',
  balance: '/api/balance',
} as const;
