import { z } from 'zod';
import { safeString } from './text';

/**
 * Numbers (issue 40 item 0): long codes and short codes that operators keep in an inventory, each
 * reached through a carrier connection and in one country, and assign to accounts at a monthly
 * price charged through the ledger (kind `number_rental`, a month in advance). An assigned number
 * is one of its account's senders (an approved sender ID), and an inbound message to it goes to
 * that account.
 */
export const NUMBERS_API = {
  /** The operator's inventory. */
  adminList: '/api/admin/numbers',
  adminOne: '/api/admin/numbers/:id',
  /** POST { accountId }: assign (the first month is charged at once); DELETE: release. */
  adminAssignment: '/api/admin/numbers/:id/assignment',
  /** The customer's own numbers. */
  list: '/api/numbers',
} as const;

/** Ledger kind of a month's rental. */
export const NUMBER_RENTAL_KIND = 'number_rental';
/** A rental the balance does not cover at renewal is retried for this long, then released. */
export const NUMBER_GRACE_DAYS = 7;
export const NUMBER_KINDS = ['long', 'short'] as const;
export type NumberKind = (typeof NUMBER_KINDS)[number];

/** A long code in E.164 (+ and 7 to 15 digits), or a short code of 3 to 8 digits. */
export const numberValueSchema = safeString()
  .trim()
  .transform((v) => v.replace(/[\s().-]/g, ''))
  .pipe(
    z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|\d{3,8})$/,
        'Write a long code in international form (+ and 7 to 15 digits) or a short code of 3 to 8 digits',
      ),
  );

const numberFields = {
  number: numberValueSchema,
  kind: z.enum(NUMBER_KINDS, { message: 'Choose long code or short code' }),
  country: safeString()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, 'Choose the country (two letters, such as GB)'),
  connection: z.preprocess(
    (v) => (v === '' ? null : v),
    safeString()
      .trim()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, 'Choose a connection from the list')
      .nullable(),
  ),
  monthlyPriceMinor: z.coerce
    .number({ error: 'The monthly price is a number' })
    .int('Give the monthly price in minor units (a whole number)')
    .min(0, 'The monthly price cannot be negative')
    .max(100_000_000, 'The monthly price is at most 100,000,000'),
};

export const numberCreateSchema = z
  .object(numberFields)
  .refine((n) => (n.kind === 'short') === !n.number.startsWith('+'), {
    path: ['number'],
    message: 'A long code starts with +; a short code has digits only',
  });
export type NumberCreate = z.infer<typeof numberCreateSchema>;

/** An edit: price and connection (the number itself and its country stay). */
export const numberUpdateSchema = z.object({
  connection: numberFields.connection.optional(),
  monthlyPriceMinor: numberFields.monthlyPriceMinor.optional(),
});
export type NumberUpdate = z.infer<typeof numberUpdateSchema>;

export const numberAssignSchema = z.object({
  accountId: z.uuid({ message: 'Choose an account' }),
});

export const numberListQuerySchema = z.object({
  q: safeString().trim().max(40).optional(),
  status: z.enum(['all', 'free', 'assigned']).default('all'),
  cursor: safeString().max(200).optional(),
});
export type NumberListQuery = z.infer<typeof numberListQuerySchema>;

export const numberDtoSchema = z.object({
  id: z.string(),
  number: z.string(),
  kind: z.enum(NUMBER_KINDS),
  country: z.string(),
  connection: z.string().nullable(),
  monthlyPriceMinor: z.number().int(),
  accountId: z.string().nullable(),
  accountName: z.string().nullable(),
  assignedAt: z.string().nullable(),
  /** The rental is paid through this time (ISO); renewal charges the next month then. */
  paidUntil: z.string().nullable(),
  /** Set while a renewal the balance did not cover is retried (released NUMBER_GRACE_DAYS later). */
  pastDueSince: z.string().nullable(),
  createdAt: z.string(),
});
export type NumberDto = z.infer<typeof numberDtoSchema>;

export const numberListSchema = z.object({
  items: z.array(numberDtoSchema),
  nextCursor: z.string().nullable(),
  /** The currency of the monthly prices (the platform's, CURRENCY). */
  currency: z.string(),
});
export type NumberList = z.infer<typeof numberListSchema>;

/** What a customer sees of a number of theirs. */
export const ownNumberDtoSchema = numberDtoSchema.pick({
  id: true,
  number: true,
  kind: true,
  country: true,
  monthlyPriceMinor: true,
  assignedAt: true,
  paidUntil: true,
  pastDueSince: true,
});
export type OwnNumberDto = z.infer<typeof ownNumberDtoSchema>;
export const ownNumberListSchema = z.object({ items: z.array(ownNumberDtoSchema), currency: z.string() });
export type OwnNumberList = z.infer<typeof ownNumberListSchema>;
