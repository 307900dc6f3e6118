import { z } from 'zod';
import { emailSchema } from './auth';
import { safeString } from './text';

/**
 * Sub-accounts for resellers (issue 39 item 4). A parent account's owners and admins
 * (`subaccounts:manage`) create child accounts one level deep, move balance to and from them, set
 * their prices (the parent's own, or plus a markup in basis points, per country if wanted), see
 * their usage, spend and margin, and lock them. A child never sees its parent or its siblings.
 */

/** Markups are whole basis points: 1 % = 100 bp; at most 1000 % (100000 bp). */
export const MAX_MARKUP_BP = 100_000;
/** The largest single transfer, in minor units (10 million in major units). */
export const MAX_TRANSFER_MINOR = 1_000_000_000;

export const createSubAccountSchema = z.object({
  name: safeString().trim().min(1, 'Name is required').max(100, 'Name must be at most 100 characters'),
  ownerEmail: emailSchema,
});
export type CreateSubAccountInput = z.infer<typeof createSubAccountSchema>;

export const subAccountStatusSchema = z.enum(['active', 'locked']);

export const subAccountSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  balanceMinor: z.number().int(),
  currency: z.string(),
  status: subAccountStatusSchema,
  lockedReason: z.string().nullable(),
  lockedAt: z.string().nullable(),
  markupBp: z.number().int(),
  members: z.number().int(),
  /** The first owner's email while their invite waits to be accepted. */
  pendingOwnerEmail: z.string().nullable(),
  createdAt: z.string(),
});
export type SubAccountSummary = z.infer<typeof subAccountSummarySchema>;

export const subAccountListSchema = z.object({
  items: z.array(subAccountSummarySchema),
  nextCursor: z.string().nullable(),
});
export type SubAccountList = z.infer<typeof subAccountListSchema>;

export const subAccountListQuerySchema = z.object({
  cursor: safeString().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const transferDirectionSchema = z.enum(['to_child', 'from_child'], {
  message: 'Choose to_child or from_child',
});

export const createTransferSchema = z.object({
  direction: transferDirectionSchema,
  amountMinor: z
    .number({ message: 'Enter an amount' })
    .int('The amount is in whole minor units (cents)')
    .positive('The amount must be more than zero')
    .max(MAX_TRANSFER_MINOR, 'The amount is too large'),
  /** The same key again is the same transfer (posted once): a retried request moves money once. */
  idempotencyKey: z.uuid('The idempotency key must be a UUID').optional(),
  note: safeString().trim().max(200, 'The note must be at most 200 characters').optional(),
});
export type CreateTransferInput = z.infer<typeof createTransferSchema>;

export const transferResultSchema = z.object({
  reference: z.string(),
  /** False when the idempotency key was posted before (nothing moved this time). */
  posted: z.boolean(),
  parentBalanceMinor: z.number().int(),
  childBalanceMinor: z.number().int(),
  currency: z.string(),
});
export type TransferResult = z.infer<typeof transferResultSchema>;

export const transferEntryDtoSchema = z.object({
  reference: z.string(),
  /** As seen from the child: positive when money came in from the parent. */
  amountMinor: z.number().int(),
  note: z.string().nullable(),
  createdAt: z.string(),
});

export const subAccountDetailSchema = /* @__PURE__ */ subAccountSummarySchema.extend({
  /** The child's last transfers, newest first. */
  transfers: z.array(transferEntryDtoSchema),
});
export type SubAccountDetail = z.infer<typeof subAccountDetailSchema>;

const markupBp = z
  .number({ message: 'Enter a markup' })
  .int('The markup is in whole basis points (1 % = 100)')
  .min(0, 'The markup cannot be negative')
  .max(MAX_MARKUP_BP, 'The markup can be at most 1000 %');

export const setSubAccountPricingSchema = z.object({
  markupBp,
  countries: z
    .array(z.object({ country: safeString().trim().min(1, 'Choose a country').max(32), markupBp }))
    .max(300)
    .refine((l) => new Set(l.map((c) => c.country)).size === l.length, 'Each country once')
    .default([]),
});
export type SetSubAccountPricingInput = z.input<typeof setSubAccountPricingSchema>;

export const subAccountPricingDetailSchema = z.object({
  currency: z.string(),
  markupBp: z.number().int(),
  countries: z.array(z.object({ country: z.string(), markupBp: z.number().int() })),
  /** The parent's prices per segment and the child's, for each prefix of the parent's plan. */
  prices: z.array(
    z.object({
      prefix: z.string(),
      country: z.string().nullable(),
      parentPriceMinor: z.number().int(),
      childPriceMinor: z.number().int(),
    }),
  ),
});
export type SubAccountPricingDetail = z.infer<typeof subAccountPricingDetailSchema>;

/** `from` and `to` are days (YYYY-MM-DD, UTC); the period is [from, to] inclusive. */
export const subAccountUsageQuerySchema = z
  .object({
    from: safeString().regex(/^\d{4}-\d{2}-\d{2}$/, 'from must be a date (YYYY-MM-DD)'),
    to: safeString().regex(/^\d{4}-\d{2}-\d{2}$/, 'to must be a date (YYYY-MM-DD)'),
  })
  .refine((q) => q.from <= q.to, { message: 'from must not be after to', path: ['to'] });

export const subAccountUsageSummarySchema = z.object({
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  messages: z.number().int(),
  byStatus: z.record(z.string(), z.number().int()),
  /** What the child paid (its messages' prices less refunds). */
  spendMinor: z.number().int(),
  /** The same traffic at the parent's own prices (today's plan). */
  parentCostMinor: z.number().int(),
  /** spendMinor − parentCostMinor. */
  marginMinor: z.number().int(),
});
export type SubAccountUsageSummary = z.infer<typeof subAccountUsageSummarySchema>;

export const lockSubAccountSchema = z.object({
  reason: safeString().trim().min(1, 'Give a reason').max(200, 'The reason must be at most 200 characters'),
});

export const accountStatusSummarySchema = z.object({
  /** Locked by the account that manages it (a reseller): sends and API calls are refused. */
  locked: z.boolean(),
  reason: z.string().nullable(),
  /** A managed (child) account: it cannot have sub-accounts of its own. */
  isChild: z.boolean(),
});
export type AccountStatusSummary = z.infer<typeof accountStatusSummarySchema>;
