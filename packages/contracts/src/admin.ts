import { z } from 'zod';
import { pageCursorSchema, safeString } from './text';

/**
 * The operator console (issue #16): admin-only HTTP API under /api/admin. Every route needs the
 * admin role (403 otherwise) and every change is written to the append-only audit log.
 */
export const ADMIN_API = {
  accounts: '/api/admin/accounts',
  account: '/api/admin/accounts/:id',
  adjustments: '/api/admin/accounts/:id/adjustments',
  ledger: '/api/admin/accounts/:id/ledger',
  ledgerCsv: '/api/admin/accounts/:id/ledger/export',
  lock: '/api/admin/accounts/:id/lock',
  unlock: '/api/admin/accounts/:id/unlock',
  accountRatePlan: '/api/admin/accounts/:id/rate-plan',
  limits: '/api/admin/accounts/:id/limits',
  userRole: '/api/admin/users/:id/role',
  ratePlans: '/api/admin/rate-plans',
  ratePlan: '/api/admin/rate-plans/:id',
  ratePlanCopy: '/api/admin/rate-plans/:id/copy',
  ratePlanDefault: '/api/admin/rate-plans/:id/default',
  ratePlanPrices: '/api/admin/rate-plans/:id/prices',
  ratePlanImport: '/api/admin/rate-plans/:id/import',
  ratePlanExport: '/api/admin/rate-plans/:id/export',
  ratePlanPreview: '/api/admin/rate-plans/:id/preview',
  senderIdsBulk: '/api/admin/sender-ids/bulk',
  audit: '/api/admin/audit',
  system: '/api/admin/system',
  connectionPause: '/api/admin/system/connections/:name/pause',
  connectionResume: '/api/admin/system/connections/:name/resume',
} as const;

/** A reason an operator gives for a change: required, shown in the audit log and the ledger. */
export const adminReasonSchema = safeString()
  .trim()
  .min(3, 'Give a reason of at least 3 characters')
  .max(500, 'Keep the reason under 500 characters');

const limitSchema = z.coerce.number().int().min(1).max(200).default(50);

// ---------- accounts ----------

export const ACCOUNT_STATUSES = ['active', 'locked'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const adminAccountQuerySchema = z.object({
  /** Username, email or phone (part of it), or the account's name. */
  q: safeString().trim().max(100, 'Search for at most 100 characters').optional(),
  status: z.enum(ACCOUNT_STATUSES).optional(),
  cursor: pageCursorSchema.optional(),
  limit: limitSchema,
});
export type AdminAccountQuery = z.input<typeof adminAccountQuerySchema>;

export const adminAccountSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The account's first user (the one who registered it). */
  username: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  balanceMinor: z.number().int(),
  currency: z.string(),
  ratePlanId: z.string().nullable(),
  /** The assigned plan's name, or the default plan's (marked by ratePlanId null). */
  ratePlanName: z.string().nullable(),
  status: z.enum(ACCOUNT_STATUSES),
  createdAt: z.string(),
  /** The latest use of any of its users' sessions. */
  lastActivityAt: z.string().nullable(),
  /** Sub-accounts (issue 39 item 4): the reseller account of a child, and a parent's number of children. */
  parent: z.object({ id: z.string(), name: z.string() }).nullable(),
  subAccountCount: z.number().int(),
});
export type AdminAccountSummary = z.infer<typeof adminAccountSummarySchema>;

export const adminAccountPageSchema = z.object({
  items: z.array(adminAccountSummarySchema),
  nextCursor: z.string().nullable(),
});
export type AdminAccountPage = z.infer<typeof adminAccountPageSchema>;

export const USER_ROLES = ['user', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const adminUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.enum(USER_ROLES),
  createdAt: z.string(),
  lastActivityAt: z.string().nullable(),
  activeSessions: z.number().int(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const accountLimitsSchema = z.object({
  /** Messages per second the account may submit; null: no limit of its own. */
  maxPerSecond: z.number().int().min(1).max(10_000).nullable(),
  /** Messages per UTC day; null: no cap. */
  dailyCap: z.number().int().min(0).max(100_000_000).nullable(),
  /** ISO 3166 alpha-2 codes the account may send to; null: every country. */
  allowedCountries: z
    .array(safeString().regex(/^[A-Z]{2}$/, 'Use two-letter country codes (GB, US)'))
    .nullable(),
});
export type AccountLimits = z.infer<typeof accountLimitsSchema>;

export const adminAccountDetailSchema = /* @__PURE__ */ adminAccountSummarySchema.extend({
  /** A parent's children (sub-accounts, one level deep), newest first. */
  subAccounts: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      balanceMinor: z.number().int(),
      currency: z.string(),
      lockedByParent: z.boolean(),
    }),
  ),
  lockedAt: z.string().nullable(),
  lockedReason: z.string().nullable(),
  limits: accountLimitsSchema,
  /** Messages counted against the daily cap this UTC day (null: no cap). */
  acceptedToday: z.number().int().nullable(),
  users: z.array(adminUserSchema),
});
export type AdminAccountDetail = z.infer<typeof adminAccountDetailSchema>;

export const adjustmentSchema = z.object({
  /** Minor units: positive credits the account, negative debits it. */
  amountMinor: z
    .number({ error: 'Enter an amount' })
    // First, and alone: 1e16 is also not a safe integer, and "whole minor units" misled.
    .refine((v) => Math.abs(v) <= 100_000_000_00, { message: 'That amount is too large', abort: true })
    .int('Amounts are in whole minor units (cents)')
    .refine((v) => v !== 0, 'Enter an amount other than zero'),
  reason: adminReasonSchema,
  /**
   * One per confirmed adjustment (the form makes it): the same request sent twice (a double click, a
   * retry after a lost answer) posts once and answers the first entry again.
   */
  requestId: z.uuid('Not a valid request id').optional(),
});
export type AdjustmentInput = z.infer<typeof adjustmentSchema>;

export const ledgerEntrySchema = z.object({
  id: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  kind: z.string(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: z.string(),
});
export type LedgerEntryDto = z.infer<typeof ledgerEntrySchema>;

export const adjustmentResultSchema = z.object({
  entry: ledgerEntrySchema,
  balanceMinor: z.number().int(),
});

export const ledgerQuerySchema = z.object({ cursor: pageCursorSchema.optional(), limit: limitSchema });
export const ledgerPageSchema = z.object({
  items: z.array(ledgerEntrySchema),
  nextCursor: z.string().nullable(),
  balanceMinor: z.number().int(),
  currency: z.string(),
});
export type LedgerPage = z.infer<typeof ledgerPageSchema>;

export const lockAccountSchema = z.object({ reason: adminReasonSchema });
export const unlockAccountSchema = z.object({ reason: adminReasonSchema.optional() });
export const assignRatePlanSchema = z.object({
  /** null: the default plan. */
  ratePlanId: z.uuid('Choose a rate plan').nullable(),
});
export const setRoleSchema = z.object({ role: z.enum(USER_ROLES, 'Choose user or admin') });

// ---------- rate plans ----------

export const CURRENCY_CODE = safeString()
  .trim()
  .regex(/^[A-Z]{3}$/, 'Use a three-letter currency code (USD)');

/** A price prefix: "+" and 1-15 digits, or "" for every other destination. */
export const pricePrefixSchema = safeString()
  .trim()
  .regex(
    /^(\+[1-9]\d{0,14})?$/,
    'A prefix is + and digits (+44, +4477), or empty for every other destination',
  );

export const priceInputSchema = z.object({
  prefix: pricePrefixSchema,
  priceMinor: z
    .number({ error: 'Enter a price' })
    .int('Prices are in whole minor units')
    .min(0, 'A price cannot be negative')
    .max(1_000_000, 'That price is too large'),
});

export const priceSchema = z.object({
  prefix: z.string(),
  /** ISO 3166 alpha-2 code from libphonenumber's metadata, null for the catch-all or an unknown code. */
  country: z.string().nullable(),
  countryName: z.string().nullable(),
  priceMinor: z.number().int(),
});
export type PriceDto = z.infer<typeof priceSchema>;

export const ratePlanSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  isDefault: z.boolean(),
  priceCount: z.number().int(),
  accountCount: z.number().int(),
  createdAt: z.string(),
});
export type RatePlanSummary = z.infer<typeof ratePlanSummarySchema>;

export const ratePlanListSchema = z.object({ items: z.array(ratePlanSummarySchema) });
export const ratePlanDetailSchema = /* @__PURE__ */ ratePlanSummarySchema.extend({
  prices: z.array(priceSchema),
});
export type RatePlanDetail = z.infer<typeof ratePlanDetailSchema>;

const planName = safeString().trim().min(1, 'Name the plan').max(80, 'Keep the name under 80 characters');
export const createRatePlanSchema = z.object({ name: planName, currency: CURRENCY_CODE });
export const copyRatePlanSchema = z.object({ name: planName });
export const renameRatePlanSchema = z.object({ name: planName });
export const replacePricesSchema = z.object({
  prices: z.array(priceInputSchema).max(5000, 'At most 5,000 prices per plan'),
});
export const importPricesSchema = z.object({
  /** The CSV text: prefix,price (major units, e.g. 0.05) with a header row; an optional country column is ignored. */
  csv: safeString().max(1_000_000, 'The file is too large (1 MB at most)'),
  /** replace: the file becomes the plan's prices; merge: its rows are added or updated. */
  mode: z.enum(['replace', 'merge']).default('merge'),
});
export const importResultSchema = z.object({
  /** Rows written (0 when any row was rejected: nothing is written then). */
  imported: z.number().int(),
  rejected: z.array(z.object({ line: z.number().int(), value: z.string(), message: z.string() })),
});
export type ImportResult = z.infer<typeof importResultSchema>;

export const pricePreviewQuerySchema = z.object({
  to: safeString().trim().min(1, 'Enter a phone number').max(32, 'That is not a phone number'),
});
export const pricePreviewSchema = z.object({
  to: z.string(),
  prefix: z.string(),
  country: z.string().nullable(),
  countryName: z.string().nullable(),
  priceMinor: z.number().int(),
  currency: z.string(),
});
export type PricePreview = z.infer<typeof pricePreviewSchema>;

// ---------- sender IDs (bulk) ----------

export const bulkSenderIdDecisionSchema = z
  .object({
    ids: z.array(z.uuid('Unknown sender ID')).min(1, 'Choose at least one sender ID').max(200),
    action: z.enum(['approve', 'reject']),
    reason: adminReasonSchema.optional(),
  })
  .refine((v) => v.action === 'approve' || !!v.reason, {
    message: 'Give the reason for the rejection',
    path: ['reason'],
  });
export const bulkSenderIdResultSchema = z.object({
  results: z.array(z.object({ id: z.string(), ok: z.boolean(), message: z.string().nullable() })),
});

// ---------- audit ----------

export const auditQuerySchema = z.object({
  kind: safeString().trim().max(60).optional(),
  accountId: z.uuid('Unknown account').optional(),
  actor: safeString().trim().max(100).optional(),
  from: z.iso.datetime({ offset: true, error: 'Use a date and time' }).optional(),
  to: z.iso.datetime({ offset: true, error: 'Use a date and time' }).optional(),
  cursor: pageCursorSchema.optional(),
  limit: limitSchema,
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  kind: z.string(),
  message: z.string(),
  ip: z.string().nullable(),
  accountId: z.string().nullable(),
  accountName: z.string().nullable(),
  /** Who did it: the signed-in user (an operator for admin actions), null for the system. */
  actorUserId: z.string().nullable(),
  actorUsername: z.string().nullable(),
  resourceType: z.string().nullable(),
  resourceId: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
