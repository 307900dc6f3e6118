import { z } from 'zod';
import { pageCursorSchema, safeString } from './text';

/**
 * Self-serve billing (issue 47 item 1): top-ups through a payment provider (Stripe Checkout), or,
 * with no provider configured, a request that an operator approves in /admin. Money is in integer
 * minor units of the account's currency.
 */
export const BILLING_API = {
  /** The account's billing summary: balance, the provider, the top-up limits. */
  summary: '/api/billing',
  /** The account's top-ups (Stripe sessions and requests), newest first. */
  topUps: '/api/billing/top-ups',
  /** Starts a Stripe Checkout session; answers its URL. */
  checkout: '/api/billing/checkout',
} as const;

/** Stripe calls this (no /api prefix: no cookie, no XSRF; the signature is the authentication). */
export const STRIPE_WEBHOOK_PATH = '/webhooks/stripe';

export const ADMIN_TOP_UPS_API = {
  list: '/api/admin/top-ups',
  approve: '/api/admin/top-ups/:id/approve',
  reject: '/api/admin/top-ups/:id/reject',
} as const;

export const adminTopUpPath = (id: string, what: 'approve' | 'reject') =>
  `/api/admin/top-ups/${encodeURIComponent(id)}/${what}`;

/** The smallest and largest top-up, in minor units ($5.00 and $10,000.00 in USD). */
export const TOP_UP_MIN_MINOR = 500;
export const TOP_UP_MAX_MINOR = 1_000_000;

export const PAYMENT_PROVIDERS = ['stripe', 'manual'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const TOP_UP_STATUSES = ['pending', 'paid', 'approved', 'rejected', 'expired'] as const;
export type TopUpStatus = (typeof TOP_UP_STATUSES)[number];

const amountMinor = z.coerce
  .number({ message: 'Enter an amount' })
  .int('Enter the amount in whole cents')
  .min(TOP_UP_MIN_MINOR, `The smallest top-up is ${TOP_UP_MIN_MINOR / 100}`)
  .max(TOP_UP_MAX_MINOR, `The largest top-up is ${TOP_UP_MAX_MINOR / 100}`);

export const checkoutSchema = z.object({ amountMinor });
export type CheckoutInput = z.infer<typeof checkoutSchema>;

export const topUpRequestSchema = z.object({
  amountMinor,
  note: safeString().trim().max(500, 'Keep the note under 500 characters').optional(),
});
export type TopUpRequestInput = z.infer<typeof topUpRequestSchema>;

export const topUpDecisionSchema = z.object({
  note: safeString().trim().max(500, 'Keep the note under 500 characters').optional(),
});

export const adminTopUpQuerySchema = z.object({
  status: z.enum(TOP_UP_STATUSES).optional(),
});

export const topUpDtoSchema = z.object({
  id: z.uuid(),
  provider: z.enum(PAYMENT_PROVIDERS),
  status: z.enum(TOP_UP_STATUSES),
  amountMinor: z.number().int(),
  currency: z.string(),
  note: z.string().nullable(),
  decisionNote: z.string().nullable(),
  requestedBy: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type TopUpDto = z.infer<typeof topUpDtoSchema>;

export const topUpListSchema = z.object({ items: z.array(topUpDtoSchema) });
export type TopUpList = z.infer<typeof topUpListSchema>;

export const adminTopUpDtoSchema = topUpDtoSchema.extend({
  accountId: z.uuid(),
  accountName: z.string(),
  decidedBy: z.string().nullable(),
});
export type AdminTopUpDto = z.infer<typeof adminTopUpDtoSchema>;
export const adminTopUpListSchema = z.object({ items: z.array(adminTopUpDtoSchema) });
export type AdminTopUpList = z.infer<typeof adminTopUpListSchema>;

export const billingSummaryDtoSchema = z.object({
  balanceMinor: z.number().int(),
  currency: z.string(),
  /** `stripe`: pay by card through Stripe Checkout; `manual`: a request an operator approves. */
  provider: z.enum(PAYMENT_PROVIDERS),
  minTopUpMinor: z.number().int(),
  maxTopUpMinor: z.number().int(),
});
export type BillingSummaryDto = z.infer<typeof billingSummaryDtoSchema>;

export const checkoutResultSchema = z.object({ id: z.uuid(), url: z.string() });
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

// ---- prices, ledger and low-balance alerts (issue 47 item 1) ----
export const BILLING_DATA_API = {
  prices: '/api/billing/prices',
  pricesCsv: '/api/billing/prices/export',
  ledger: '/api/billing/ledger',
  ledgerCsv: '/api/billing/ledger/export',
  lowBalance: '/api/billing/low-balance',
} as const;

export const priceQuerySchema = z.object({
  /** Matches the country code, the country's name or the prefix. */
  q: safeString().trim().max(60).optional(),
});

export const billingPriceDtoSchema = z.object({
  prefix: z.string(),
  country: z.string().nullable(),
  countryName: z.string().nullable(),
  priceMinor: z.number().int(),
});
export type BillingPriceDto = z.infer<typeof billingPriceDtoSchema>;
export const billingPriceListSchema = z.object({
  currency: z.string(),
  items: z.array(billingPriceDtoSchema),
  /** Prices in the plan before the search. */
  total: z.number().int(),
});
export type BillingPriceList = z.infer<typeof billingPriceListSchema>;

/** Ledger kinds a customer can filter by (others are shown, but not offered as a filter). */
export const LEDGER_KIND_FILTERS = [
  'topup',
  'adjustment',
  'sms_debit',
  'sms_refund',
  'trial_credit',
  'number_rental',
] as const;
export const LEDGER_KIND_LABELS: Record<(typeof LEDGER_KIND_FILTERS)[number], string> = {
  topup: 'Top-up',
  adjustment: 'Adjustment',
  sms_debit: 'SMS charge',
  sms_refund: 'SMS refund',
  trial_credit: 'Trial credit',
  number_rental: 'Number rental',
};
export const LEDGER_PAGE_SIZE = 50;

const day = safeString().regex(/^\d{4}-\d{2}-\d{2}$/, 'Give the date as YYYY-MM-DD');
/** Filters of the customer's ledger; `from` and `to` are dates (UTC), both included. */
export const ledgerFilterSchema = z.object({
  kind: z.enum(LEDGER_KIND_FILTERS, { message: 'Choose a kind from the list' }).optional(),
  from: day.optional(),
  to: day.optional(),
});
export const billingLedgerQuerySchema = ledgerFilterSchema.extend({
  cursor: pageCursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(LEDGER_PAGE_SIZE),
});

export const lowBalanceDtoSchema = z.object({
  /** Null: no alert. */
  thresholdMinor: z.number().int().nullable(),
  currency: z.string(),
  /** The balance is below the threshold now. */
  below: z.boolean(),
  /** When the alert last fired (email and in-app), null if never. */
  firedAt: z.string().nullable(),
});
export type LowBalanceDto = z.infer<typeof lowBalanceDtoSchema>;

export const LOW_BALANCE_MAX_MINOR = 10_000_000;
export const lowBalanceSchema = z.object({
  thresholdMinor: z.coerce
    .number({ message: 'Enter an amount' })
    .int('Enter the amount in whole cents')
    .min(1, 'Enter an amount above zero, or turn the alert off')
    .max(LOW_BALANCE_MAX_MINOR, `The largest threshold is ${LOW_BALANCE_MAX_MINOR / 100}`)
    .nullable(),
});
