import { z } from 'zod';
import { safeString } from './text';

/**
 * Monthly statements (issue 39 item 5): a calendar month of an account's ledger, in the account's
 * time zone, with its opening and closing balance, totals by kind, every entry with its running
 * balance, and the month's usage by country. Money is in integer minor units of `currency`.
 */
export const STATEMENTS_API = {
  months: '/api/statements',
  month: '/api/statements/:month',
  entries: '/api/statements/:month/entries',
  csv: '/api/statements/:month/csv',
  pdf: '/api/statements/:month/pdf',
} as const;

export const statementPath = (month: string, what?: 'entries' | 'csv' | 'pdf') =>
  `/api/statements/${encodeURIComponent(month)}${what ? `/${what}` : ''}`;

/**
 * A reseller's statements of one of its sub-accounts (subaccounts:manage): the child's months and
 * its month as JSON, CSV and PDF, to bill its client with (issue 39 items 4 and 5).
 */
export const CHILD_STATEMENTS_API = {
  months: '/api/sub-accounts/:id/statements',
  month: '/api/sub-accounts/:id/statements/:month',
  csv: '/api/sub-accounts/:id/statements/:month/csv',
  pdf: '/api/sub-accounts/:id/statements/:month/pdf',
} as const;

export const childStatementPath = (id: string, month?: string, what?: 'csv' | 'pdf') =>
  `/api/sub-accounts/${encodeURIComponent(id)}/statements${month ? `/${encodeURIComponent(month)}` : ''}${what ? `/${what}` : ''}`;

/** YYYY-MM, a real month (01–12), years 2000–2999. */
export const MONTH_PATTERN = /^(2\d{3})-(0[1-9]|1[0-2])$/;
export const MONTH_MESSAGE = 'Give the month as YYYY-MM, for example 2026-03';

export const statementMonthParamsSchema = z.object({
  month: safeString().regex(MONTH_PATTERN, MONTH_MESSAGE),
});

/** Entries of a statement per page (the on-screen statement and its "load more"). */
export const STATEMENT_PAGE_SIZE = 50;
export const STATEMENT_MAX_PAGE_SIZE = 500;

export const statementEntriesQuerySchema = z.object({
  /** The last entry id of the previous page (entries run oldest first). */
  after: z.coerce
    .number({ message: 'The page link is not valid; start again from the first page' })
    .int()
    .positive()
    .optional(),
  limit: z.coerce.number().int().min(1).max(STATEMENT_MAX_PAGE_SIZE).default(STATEMENT_PAGE_SIZE),
});

/** How many months GET /api/statements lists at most (newest first). */
export const STATEMENT_MONTHS_LIMIT = 36;

export const statementMonthDtoSchema = z.object({
  month: z.string(),
  /** Ledger entries in that month (0 only for the current month, listed even without activity). */
  entries: z.number().int(),
});
export type StatementMonthDto = z.infer<typeof statementMonthDtoSchema>;

export const statementMonthListSchema = z.object({
  items: z.array(statementMonthDtoSchema),
  timeZone: z.string(),
  /** The current month in the statement's time zone. */
  currentMonth: z.string(),
});
export type StatementMonthList = z.infer<typeof statementMonthListSchema>;

/** How a ledger kind is grouped in a statement's totals. */
export const STATEMENT_CATEGORIES = ['topups', 'adjustments', 'charges', 'refunds', 'other'] as const;
export type StatementCategory = (typeof STATEMENT_CATEGORIES)[number];

export const STATEMENT_CATEGORY_LABELS: Record<StatementCategory, string> = {
  topups: 'Top-ups and credits',
  adjustments: 'Adjustments',
  charges: 'SMS charges',
  refunds: 'SMS refunds',
  other: 'Other',
};

export const statementEntryDtoSchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.string(),
  kindLabel: z.string(),
  category: z.enum(STATEMENT_CATEGORIES),
  reference: z.string().nullable(),
  description: z.string(),
  amountMinor: z.number().int(),
  /** The balance right after this entry. */
  balanceMinor: z.number().int(),
});
export type StatementEntryDto = z.infer<typeof statementEntryDtoSchema>;

export const statementEntryPageSchema = z.object({
  items: z.array(statementEntryDtoSchema),
  /** The `after` of the next page, or null on the last one. */
  nextAfter: z.number().int().nullable(),
});
export type StatementEntryPage = z.infer<typeof statementEntryPageSchema>;

export const statementUsageDtoSchema = z.object({
  /** ISO 3166 code, or null for numbers no country could be told for. */
  country: z.string().nullable(),
  countryName: z.string(),
  messages: z.number().int(),
  parts: z.number().int(),
  /** The price charged for these messages. */
  chargedMinor: z.number().int(),
  /** Of which refunded (not sent or not delivered), whenever the refund was posted. */
  refundedMinor: z.number().int(),
  costMinor: z.number().int(),
});
export type StatementUsageDto = z.infer<typeof statementUsageDtoSchema>;

export const statementDtoSchema = z.object({
  accountId: z.string(),
  accountName: z.string(),
  currency: z.string(),
  month: z.string(),
  /** IANA zone the month is cut in, and why that one. */
  timeZone: z.string(),
  timeZoneNote: z.string(),
  periodStart: z.string(),
  /** Exclusive: the first instant of the next month. */
  periodEnd: z.string(),
  /** False for the current month (entries may still be added). */
  closed: z.boolean(),
  generatedAt: z.string(),
  openingBalanceMinor: z.number().int(),
  closingBalanceMinor: z.number().int(),
  creditsMinor: z.number().int(),
  debitsMinor: z.number().int(),
  totals: z.array(
    z.object({
      category: z.enum(STATEMENT_CATEGORIES),
      label: z.string(),
      entries: z.number().int(),
      amountMinor: z.number().int(),
    }),
  ),
  entryCount: z.number().int(),
  /** The first page of entries; more through GET /api/statements/:month/entries. */
  entries: statementEntryPageSchema,
  usage: z.array(statementUsageDtoSchema),
});
export type StatementDto = z.infer<typeof statementDtoSchema>;
