import type { GroupDto } from './contacts';
import type { ErrorCode } from './errors';
import type { Permission } from './roles';
import { z } from 'zod';
import { balanceSchema, MESSAGE_STATUSES, type MessageStatus } from './messages';
import type { CreateSenderIdInput, SenderIdDto } from './sender-ids';
import type { TemplateDto } from './templates';

/**
 * The real-time hub (SPEC.md §7, issue #5): Socket.IO on the API's own origin.
 *
 *   io(origin, { path: HUB_PATH, auth: { token: accessToken } })
 *
 * The access token may also travel as the `access_token` query parameter. A missing, invalid or
 * expired token fails the connect with the error message exactly `Unauthorized` (HUB_UNAUTHORIZED).
 * Requests reply through a Socket.IO acknowledgement with a HubAck envelope; commands are
 * fire-and-forget and report failures with a `HubError` push to the calling socket only.
 * Pushes carry no data (except BulkSmsUpdated's campaign id): they tell the client what to reload.
 */
export const HUB_PATH = '/hub';

/** The connect error message for a missing, invalid or expired access token. */
export const HUB_UNAUTHORIZED = 'Unauthorized';

/** Server keep-alive (ping interval) and timeout, SPEC.md §9. */
export const HUB_KEEP_ALIVE_MS = 15_000;
export const HUB_TIMEOUT_MS = 30_000;

/** At most one push per (account, event[, campaign id]) per window: leading and trailing edge. */
export const HUB_PUSH_WINDOW_MS = 500;

/**
 * UserSmsDeliveryUpdated's window: the update coalescing delay of SPEC.md §9, after which clients
 * reload delivery data (further pushes in it are ignored), so a push per 500 ms would only cost every
 * open tab a frame. Every message changes several times (accepted, submitted, receipt): with the
 * 500 ms window this push was most of the hub's frames (issue #17).
 */
export const HUB_DELIVERY_PUSH_WINDOW_MS = 3000;

export const HUB_REQUESTS = [
  'GetAccountBalance',
  'GetDeliveryStatus',
  'GetPerformanceData',
  'GetSenderIdList',
  'GetSmsTemplates',
  'GetGroupList',
  'GetCampaignDeliveryStatus',
  'GetCampaignDetail',
] as const;
export type HubRequest = (typeof HUB_REQUESTS)[number];

export const HUB_COMMANDS = ['CreateSenderId', 'SaveSmsTemplate'] as const;
export type HubCommand = (typeof HUB_COMMANDS)[number];

export const HUB_PUSHES = [
  'BulkSmsUpdated',
  'GroupListUpdated',
  'SenderIdUpdated',
  'SmsTemplatesUpdated',
  'UserAccountUpdated',
  'UserSmsDeliveryUpdated',
  'InboundSmsReceived',
  'OtpServiceUpdated',
  /** Admins only (issue #16): the system status changed; reload GET /api/admin/system. */
  'SystemStatusUpdated',
] as const;
export type HubPush = (typeof HUB_PUSHES)[number];

/**
 * What a member's role needs to call each hub method (issue 39), as a user route's permission: the
 * server checks it before the handler (realtime/hub-methods.ts), and the web app asks for nothing
 * its role would be refused.
 */
export const HUB_METHOD_PERMISSIONS: Record<HubRequest | HubCommand, Permission> = {
  GetAccountBalance: 'billing:read',
  GetDeliveryStatus: 'messages:read',
  GetPerformanceData: 'messages:read',
  GetSenderIdList: 'sender-ids:read',
  GetSmsTemplates: 'templates:read',
  GetGroupList: 'contacts:read',
  GetCampaignDeliveryStatus: 'messages:read',
  GetCampaignDetail: 'messages:read',
  CreateSenderId: 'sender-ids:manage',
  SaveSmsTemplate: 'templates:write',
};

/**
 * What a member's role needs to receive each push to its account (issue 39): a push reaches only
 * the sockets whose role has it (realtime/pushes.ts sends it to that permission's room).
 * SystemStatusUpdated is not an account's: it goes to operators (the admin room) only.
 */
export const HUB_PUSH_PERMISSIONS: Record<Exclude<HubPush, 'SystemStatusUpdated'>, Permission> = {
  BulkSmsUpdated: 'messages:read',
  GroupListUpdated: 'contacts:read',
  SenderIdUpdated: 'sender-ids:read',
  SmsTemplatesUpdated: 'templates:read',
  UserAccountUpdated: 'billing:read',
  UserSmsDeliveryUpdated: 'messages:read',
  InboundSmsReceived: 'messages:read',
  OtpServiceUpdated: 'developer:manage',
};

/** A hub feature whose server module is not installed yet. */
export const HUB_NOT_AVAILABLE = 'NOT_AVAILABLE';
export type HubErrorCode = ErrorCode | typeof HUB_NOT_AVAILABLE;

export interface HubFailure {
  code: HubErrorCode;
  message: string;
  /** Field path → messages, for VALIDATION (same shape as an HTTP 400 `errors` body). */
  errors?: Record<string, string[]>;
}

/** Every acknowledgement carries this envelope. */
export type HubAck<T> = { ok: true; data: T } | { ok: false; error: HubFailure };

/** Pushed as `HubError` to the caller when a command (or a request sent without an ack) fails. */
export interface HubErrorPush extends HubFailure {
  method: HubCommand | HubRequest;
}

export type HubBalance = z.infer<typeof balanceSchema>;

/** Every message status, 0 when there is none. */
export const statusCountsSchema = z.record(z.enum(MESSAGE_STATUSES), z.number());
export type StatusCounts = Record<MessageStatus, number>;

export const DELIVERY_PERIODS = ['today', 'week', 'month'] as const;
export type DeliveryPeriod = (typeof DELIVERY_PERIODS)[number];

/**
 * Messages created in each period, counted by their current status. `today` starts at midnight in
 * the user's time zone, `week` covers today and the 6 days before, `month` today and the 29 before.
 */
export const deliveryStatusSummarySchema = z.object({
  /** IANA time zone the days were cut in (the user's). */
  timezone: z.string(),
  /** ISO instant each period starts at. */
  since: z.record(z.enum(DELIVERY_PERIODS), z.string()),
  periods: z.record(z.enum(DELIVERY_PERIODS), statusCountsSchema),
});
export type DeliveryStatusSummary = z.infer<typeof deliveryStatusSummarySchema>;

/** Statuses of messages that left the queue (performance `sent`). */
export const PERFORMANCE_SENT_STATUSES = ['sent', 'delivered', 'undelivered', 'expired', 'rejected'] as const;
/** Statuses counted as `failed` in performance data. */
export const PERFORMANCE_FAILED_STATUSES = ['undelivered', 'expired', 'rejected', 'failed'] as const;
export const PERFORMANCE_DAYS = 30;

/** One day (in the user's time zone) of messages created that day, by their current status. */
export const performancePointSchema = z.object({
  /** YYYY-MM-DD */
  date: z.string(),
  sent: z.number(),
  delivered: z.number(),
  failed: z.number(),
  /** delivered / sent, a fraction from 0 to 1 rounded to 4 places; 0 when nothing was sent. */
  deliveryRate: z.number(),
});
export type PerformancePoint = z.infer<typeof performancePointSchema>;

/** PERFORMANCE_DAYS points, oldest first, ending today; days without messages are zeros. */
export type PerformanceData = PerformancePoint[];

export interface CampaignStatusCount {
  status: MessageStatus;
  count: number;
}

/** Every status in MESSAGE_STATUSES order; [] for an unknown campaign or another account's. */
export type CampaignDeliveryStatus = CampaignStatusCount[];

export interface CampaignDetail {
  id: string;
  kind: 'single' | 'bulk' | 'personalised' | 'api' | 'otp';
  name: string;
  createdAt: string;
  /** Number of messages. */
  total: number;
  /** Sum of the messages' prices, in minor units of `currency`. */
  priceMinor: number;
  currency: string;
  counts: StatusCounts;
}

/** {} for an unknown campaign or another account's. */
export type CampaignDetailReply = CampaignDetail | Record<string, never>;

export type HubReply<T> = (ack: HubAck<T>) => void;

/** Events the client emits (Socket.IO ListenEvents on the server, EmitEvents on the client). */
export interface HubClientEvents {
  GetAccountBalance(reply: HubReply<HubBalance>): void;
  GetDeliveryStatus(reply: HubReply<DeliveryStatusSummary>): void;
  GetPerformanceData(reply: HubReply<PerformanceData>): void;
  GetSenderIdList(reply: HubReply<SenderIdDto[]>): void;
  GetSmsTemplates(reply: HubReply<TemplateDto[]>): void;
  GetGroupList(reply: HubReply<GroupDto[]>): void;
  GetCampaignDeliveryStatus(campaignId: string, reply: HubReply<CampaignDeliveryStatus>): void;
  GetCampaignDetail(campaignId: string, reply: HubReply<CampaignDetailReply>): void;
  /** Same payload and validation as POST /api/sender-ids. Failures come back as HubError. */
  CreateSenderId(payload: CreateSenderIdInput): void;
  /** Creates the template, or replaces the text of the one with that name. Failures: HubError. */
  SaveSmsTemplate(name: string, text: string): void;
}

/** Events the server pushes to every socket of the account (HubError: to the caller only). */
export interface HubServerEvents {
  /** A campaign's messages changed status; reload that campaign's status and detail. */
  BulkSmsUpdated(campaignId: string): void;
  GroupListUpdated(): void;
  SenderIdUpdated(): void;
  SmsTemplatesUpdated(): void;
  /** The balance changed. */
  UserAccountUpdated(): void;
  /** Message statuses changed; reload delivery status and performance data. */
  UserSmsDeliveryUpdated(): void;
  /** An inbound SMS was stored for the account (or the suppression list changed); reload the inbox. */
  InboundSmsReceived(): void;
  /** An OTP service's verifications changed (a send, a check, a block); reload that service's view. */
  OtpServiceUpdated(serviceId: string): void;
  /** Admins only: the system status (binds, queues, workers) was refreshed; reload it. */
  SystemStatusUpdated(): void;
  HubError(error: HubErrorPush): void;
}

/** GET /api/dashboard/summary: the dashboard's three live figures in one HTTP call. */
export const DASHBOARD_API = {
  summary: '/api/dashboard/summary',
} as const;

export const dashboardSummarySchema = z.object({
  balance: balanceSchema,
  deliveryStatus: deliveryStatusSummarySchema,
  performance: z.array(performancePointSchema),
});
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;

/**
 * GET /api/dashboard/summary's answer (issue 39): every member may ask, and gets the figures their
 * role may see (the balance with billing:read, delivery and performance with messages:read, as
 * the hub methods that serve them live).
 */
export const dashboardSummaryOfRoleSchema = /* @__PURE__ */ dashboardSummarySchema.partial();
export type DashboardSummaryOfRole = z.infer<typeof dashboardSummaryOfRoleSchema>;
