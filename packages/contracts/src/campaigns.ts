import { z } from 'zod';
import { MESSAGE_STATUSES } from './messages';
import { sendWindowSchema, sendWindowsSummarySchema } from './send-windows';
import { messageTextField, pageCursorSchema, safeString, timeZoneField } from './text';

/** Campaigns (issue #11): bulk and personalised sends, their lifecycle, report and detail. */
export const CAMPAIGN_STATUSES = ['scheduled', 'sending', 'paused', 'completed', 'canceled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export const CAMPAIGN_KINDS = ['bulk', 'personalised'] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

/** Most characters of a campaign's text (or template). */
export const CAMPAIGN_MAX_TEXT = 1600;
/** Most numbers pasted into one campaign (a file takes more). */
export const CAMPAIGN_MAX_PASTED = 10_000;
/** Rows of a personalised preview. */
export const CAMPAIGN_PREVIEW_ROWS = 10;
/** Issues (invalid, suppressed, missing values) listed in an estimate; the CSV has them all. */
export const CAMPAIGN_ISSUE_SAMPLE = 50;

/** `{{column}}` placeholders of a personalised text, in order of first use. */
export function placeholdersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)) {
    const name = m[1] ?? '';
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** Renders a personalised text: each `{{column}}` replaced by the row's value of that column. */
export function renderPersonalised(text: string, value: (column: string) => string): string {
  return text.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_, name: string) => value(name));
}

export const campaignUploadSchema = z.object({
  uploadId: z.string(),
  fileName: z.string(),
  fileType: z.enum(['csv', 'xlsx']),
  columns: z.array(z.string()),
  hasHeader: z.boolean(),
  previewRows: z.array(z.array(z.string())),
  rowCountGuess: z.number(),
  /** The column that looks like phone numbers, if any. */
  phoneColumn: z.string().nullable(),
});
export type CampaignUploadDto = z.infer<typeof campaignUploadSchema>;

const text = messageTextField(
  CAMPAIGN_MAX_TEXT,
  `The message is too long (at most ${CAMPAIGN_MAX_TEXT} characters)`,
);

/** Where a campaign's recipients come from; what the estimate and the send both take. */
export const campaignSourceSchema = z.object({
  kind: z.enum(CAMPAIGN_KINDS).default('bulk'),
  groupIds: z.array(z.uuid('Unknown group')).max(100, 'At most 100 groups').default([]),
  /** Numbers pasted by the user: one per line, or separated by commas, semicolons or spaces. */
  numbers: safeString().max(400_000, 'Too many pasted numbers; upload them as a file').default(''),
  uploadId: z.uuid('Unknown upload').optional(),
  /** The upload's phone column (a name from its `columns`). */
  phoneColumn: safeString().max(200).optional(),
  text,
  /** Replace each URL with a tracked short link per recipient (links.ts); counted at its length. */
  trackLinks: z.boolean().default(false),
  /**
   * Send window in each recipient's local time (send-windows.ts): omitted, the account's default;
   * null, none (any hour); a window, this campaign's own.
   */
  sendWindow: sendWindowSchema.nullable().optional(),
  /** ISO 8601 instant; omit to send now (the estimate counts the window from it). */
  scheduleAt: z.iso.datetime({ offset: true, message: 'Enter a valid date and time' }).optional(),
  /** IANA time zone the schedule was picked in; also the zone of numbers whose own is not known. */
  timezone: timeZoneField().optional(),
});
export type CampaignSourceInput = z.infer<typeof campaignSourceSchema>;

/** A send rate of its own for numbers starting with `prefix` (digits after the +; longest wins). */
export const prefixRateSchema = z.object({
  prefix: safeString().regex(
    /^\+?[1-9]\d{0,7}$/,
    'A prefix is 1 to 8 digits of the international number, e.g. +44 or +4477',
  ),
  perMinute: z.number().int().min(1, 'At least 1 message a minute').max(1_000_000),
});
export type PrefixRate = z.infer<typeof prefixRateSchema>;

/**
 * Delivery shaping (issue 41 item 3), beside `ratePerMinute`: batches of `batchSize` messages with
 * `batchPauseSeconds` between them (both or neither), and a rate per destination prefix.
 */
export const deliveryShapingFields = {
  batchSize: z.number().int().min(1, 'At least 1 message a batch').max(1_000_000).optional(),
  batchPauseSeconds: z
    .number()
    .int()
    .min(1, 'At least 1 second')
    .max(86_400, 'At most a day (86,400 seconds)')
    .optional(),
  prefixRates: z.array(prefixRateSchema).max(50, 'At most 50 prefix rates').optional(),
};

export const createCampaignSchema = /* @__PURE__ */ campaignSourceSchema.extend({
  name: safeString().trim().max(100, 'At most 100 characters').optional(),
  senderId: safeString().trim().min(1).max(15).optional(),
  /** Messages per minute; omit for as fast as the connection allows. */
  ratePerMinute: z.number().int().min(1, 'At least 1 message a minute').max(1_000_000).optional(),
  ...deliveryShapingFields,
});
export type CreateCampaignInput = z.infer<typeof createCampaignSchema>;

export const campaignIssueSchema = z.object({
  /** Row of the file, or line of the pasted list (1-based); null for a group's contact. */
  row: z.number().nullable(),
  value: z.string(),
  reason: z.string(),
});
export type CampaignIssue = z.infer<typeof campaignIssueSchema>;

export const previewRowSchema = z.object({
  row: z.number(),
  recipient: z.string().nullable(),
  text: z.string(),
  segments: z.number(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  costMinor: z.number(),
  /** Why the row will not be sent, or null. */
  problem: z.string().nullable(),
  /** With a send window: the recipient's zone and when the row is sent there (`YYYY-MM-DD HH:MM`). */
  timeZone: z.string().nullable().optional(),
  sendsAtLocal: z.string().nullable().optional(),
  /** Placeholders this recipient has no value for (a contact without that field): sent empty. */
  missing: z.array(z.string()).optional(),
});
export type PreviewRow = z.infer<typeof previewRowSchema>;

/**
 * A placeholder some recipients have no value for, and how many (issue 47 item 2): a contact
 * without that custom field or name, a pasted number's {{name}}. Such a recipient is sent the text
 * with the placeholder left empty; a file's row with an empty cell is refused instead (an issue).
 */
export const missingValueSchema = z.object({ placeholder: z.string(), recipients: z.number() });
export type MissingValue = z.infer<typeof missingValueSchema>;

export const campaignEstimateSchema = z.object({
  recipients: z.number(),
  invalid: z.number(),
  duplicates: z.number(),
  suppressed: z.number(),
  /** Segments of the text (bulk) or the most of any row (personalised). */
  segments: z.number(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  characters: z.number(),
  /** Sum over recipients of the price of one segment: the cost is this × segments (bulk). */
  perSegmentMinor: z.number(),
  costMinor: z.number(),
  currency: z.string(),
  /** The balance and what is left after: null to a role that may not read the balance (billing:read). */
  balanceMinor: z.number().nullable(),
  balanceAfterMinor: z.number().nullable(),
  issues: z.array(campaignIssueSchema),
  preview: z.array(previewRowSchema),
  /** The send window's plan (issue 41): recipients per time zone and when each opens; null: none. */
  sendWindows: sendWindowsSummarySchema.nullable().optional(),
  /** With tracked links, the short links' base the counts used (the composer counts with it); else null. */
  linkBase: z.string().nullable().optional(),
  /** Placeholders some recipients have no value for (sent empty), most first; [] when none. */
  missingValues: z.array(missingValueSchema).optional(),
});
export type CampaignEstimate = z.infer<typeof campaignEstimateSchema>;

export const campaignDtoSchema = z.object({
  id: z.string(),
  kind: z.enum(CAMPAIGN_KINDS),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  sender: z.string(),
  text: z.string(),
  encoding: z.enum(['GSM-7', 'UCS-2']),
  segments: z.number(),
  recipients: z.number(),
  invalid: z.number(),
  duplicates: z.number(),
  suppressed: z.number(),
  /** Recipients already turned into messages (queued or further). */
  materialised: z.number(),
  /** Message counts by status (recipients not yet queued are `pending`, not counted here). */
  counts: z.record(z.enum(MESSAGE_STATUSES), z.number()),
  delivered: z.number(),
  failed: z.number(),
  pending: z.number(),
  /** delivered / finished messages, 0–1 (0 when none finished). */
  deliveryRate: z.number(),
  costMinor: z.number(),
  refundedMinor: z.number(),
  currency: z.string(),
  ratePerMinute: z.number().nullable(),
  /** Delivery shaping: batches and their pause, and rates per prefix (digits, no +). */
  batchSize: z.number().nullable().optional(),
  batchPauseSeconds: z.number().nullable().optional(),
  prefixRates: z.array(prefixRateSchema).nullable().optional(),
  /**
   * While it sends (or is scheduled): when the last message is expected to go, from its rate,
   * batches and prefix rates and from the pace it has kept so far, whichever is later; else null.
   */
  projectedFinishAt: z.string().nullable().optional(),
  scheduledAt: z.string().nullable(),
  timezone: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  resendOf: z.string().nullable(),
  /** Tracked short links (issue 41): whether on, clicks, first clicks per link, and unique / delivered. */
  trackLinks: z.boolean(),
  clicks: z.number(),
  uniqueClicks: z.number(),
  clickThroughRate: z.number(),
  /** The send window it was accepted with (recipients' local time), or null: any hour. */
  sendWindow: sendWindowSchema.nullable().optional(),
});
export type CampaignDto = z.infer<typeof campaignDtoSchema>;

export const campaignAcceptedSchema = z.object({
  campaign: campaignDtoSchema,
  balanceMinor: z.number(),
  /** As the estimate's: placeholders some recipients were sent empty. */
  missingValues: z.array(missingValueSchema).optional(),
});
export type CampaignAccepted = z.infer<typeof campaignAcceptedSchema>;

export const campaignListQuerySchema = z.object({
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  q: safeString().trim().max(100).optional(),
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type CampaignListQuery = z.infer<typeof campaignListQuerySchema>;

export const campaignPageSchema = z.object({
  items: z.array(campaignDtoSchema),
  nextCursor: z.string().nullable(),
});
export type CampaignPage = z.infer<typeof campaignPageSchema>;

/** Sent and delivered per minute (the detail's chart), oldest first. */
export const campaignTimelineSchema = z.array(
  z.object({ minute: z.string(), sent: z.number(), delivered: z.number() }),
);
export type CampaignTimeline = z.infer<typeof campaignTimelineSchema>;

/**
 * A tracked campaign's clicks over time (issue 41): per hour over its first week, then per day;
 * `firstClicks` are links clicked for the first time. Bots (link previews) are not counted. With
 * the clicks by coarse device and by country, most first.
 */
export const campaignClicksSchema = z.object({
  bucket: z.enum(['hour', 'day']),
  points: z.array(z.object({ at: z.string(), clicks: z.number(), firstClicks: z.number() })),
  devices: z.array(z.object({ device: z.string(), clicks: z.number() })),
  countries: z.array(z.object({ country: z.string().nullable(), clicks: z.number() })),
});
export type CampaignClicks = z.infer<typeof campaignClicksSchema>;

export const rescheduleCampaignSchema = z.object({
  scheduleAt: z.iso.datetime({ offset: true, message: 'Enter a valid date and time' }),
  timezone: timeZoneField().optional(),
});

export const CAMPAIGNS_API = {
  list: '/api/campaigns',
  estimate: '/api/campaigns/estimate',
  issues: '/api/campaigns/estimate/issues.csv',
  upload: '/api/campaigns/uploads',
  item: '/api/campaigns/:id',
  messages: '/api/campaigns/:id/messages',
  export: '/api/campaigns/:id/messages/export.csv',
  timeline: '/api/campaigns/:id/timeline',
  clicks: '/api/campaigns/:id/clicks',
  pause: '/api/campaigns/:id/pause',
  resume: '/api/campaigns/:id/resume',
  cancel: '/api/campaigns/:id/cancel',
  reschedule: '/api/campaigns/:id/reschedule',
  resendFailed: '/api/campaigns/:id/resend-failed',
} as const;

/** A campaign path with its id filled in. */
export const campaignPath = (path: string, id: string) => path.replace(':id', encodeURIComponent(id));
