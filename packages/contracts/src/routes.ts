import { z } from 'zod';
import { adminReasonSchema } from './admin';
import type { MessageDto, MessageEventDto } from './messages';
import { safeString } from './text';

/**
 * Routes (issue 38), managed by operators under /api/admin/routes: which SMPP connections a
 * destination goes through, in which order. Admin-only, every change audited.
 */
export const ROUTES_API = {
  list: '/api/admin/routes',
  one: '/api/admin/routes/:id',
  test: '/api/admin/routes/test',
  margin: '/api/admin/margin',
  marginCsv: '/api/admin/margin/export',
  /** An account's SMS log as operators see it: each message's connection, route and carrier cost. */
  accountLog: '/api/admin/accounts/:id/messages',
  accountMessage: '/api/admin/accounts/:id/messages/:messageId',
} as const;

export const ROUTE_STRATEGY_VALUES = ['priority', 'weighted', 'least_cost', 'quality'] as const;
export const ROUTE_LANE_VALUES = ['otp', 'single', 'bulk'] as const;

/**
 * A carrier price per segment as an operator writes it ("0.0042"), at most six decimals, kept
 * exactly: converted to millionths with string arithmetic, never through a float.
 */
export const carrierCostSchema = safeString()
  .trim()
  .regex(/^\d{1,6}(\.\d{1,6})?$/, 'Write the cost as a number such as 0.0042 (at most 6 decimals)');

/** "0.0042" → 4200. */
export function costToMicros(cost: string): number {
  const [whole = '0', frac = ''] = cost.trim().split('.');
  return Number(whole) * 1_000_000 + Number(frac.padEnd(6, '0'));
}

/** 4200 → "0.0042" (at least four decimals, as carriers' price lists write them). */
export function microsToCost(micros: number): string {
  const whole = Math.trunc(micros / 1_000_000);
  let frac = String(micros % 1_000_000).padStart(6, '0');
  while (frac.length > 4 && frac.endsWith('0')) frac = frac.slice(0, -1);
  return `${whole}.${frac}`;
}

const routeEntrySchema = z.object({
  connection: safeString().trim().min(1, 'Choose a connection').max(100),
  cost: carrierCostSchema,
  priority: z.coerce.number().int('Priority is a whole number').min(0).max(1000).default(0),
  weight: z.coerce
    .number()
    .int('Weight is a whole number')
    .min(0, 'Weight is 0 or more')
    .max(1000)
    .default(1),
});

const optionalText = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    safeString().trim().max(max, message).nullable().optional(),
  );

export const routeInputSchema = z
  .object({
    name: safeString().trim().min(1, 'Name the route').max(80, 'Keep the name under 80 characters'),
    prefix: safeString()
      .trim()
      .regex(
        /^\+[0-9]{0,15}$/,
        "Write the prefix as + and digits, such as +4477 ('+' alone matches every number)",
      ),
    accountId: z.preprocess(
      (v) => (v === '' ? null : v),
      z.string().uuid('Not an account id').nullable().optional(),
    ),
    ratePlanId: z.preprocess(
      (v) => (v === '' ? null : v),
      z.string().uuid('Not a rate plan id').nullable().optional(),
    ),
    lane: z.preprocess((v) => (v === '' ? null : v), z.enum(ROUTE_LANE_VALUES).nullable().optional()),
    sender: optionalText(15, 'A sender has at most 15 characters'),
    strategy: z.enum(ROUTE_STRATEGY_VALUES, { message: 'Choose priority, weighted, least_cost or quality' }),
    /**
     * Any strategy: below this delivered share (0–1) over the health window a connection leaves
     * the route's rotation (after the others, probed now and then, back at the floor + 0.05).
     */
    qualityFloor: z.coerce.number().min(0, 'Between 0 and 1').max(1, 'Between 0 and 1').nullable().optional(),
    /** quality: connections costing more go last. */
    costCeiling: carrierCostSchema.nullable().optional(),
    entries: z
      .array(routeEntrySchema)
      .min(1, 'List at least one connection')
      .max(20, 'At most 20 connections a route'),
    reason: adminReasonSchema,
  })
  .superRefine((r, ctx) => {
    const seen = new Set<string>();
    r.entries.forEach((e, i) => {
      if (seen.has(e.connection))
        ctx.addIssue({
          code: 'custom',
          path: ['entries', i, 'connection'],
          message: `${e.connection} is listed twice`,
        });
      seen.add(e.connection);
    });
  });
export type RouteInput = z.input<typeof routeInputSchema>;

export const routeDeleteSchema = z.object({ reason: adminReasonSchema });

export interface RouteEntryDto {
  connection: string;
  /** "0.0042" */
  cost: string;
  costMicros: number;
  priority: number;
  weight: number;
}

export interface RouteDto {
  id: string;
  name: string;
  prefix: string;
  accountId: string | null;
  ratePlanId: string | null;
  lane: (typeof ROUTE_LANE_VALUES)[number] | null;
  sender: string | null;
  strategy: (typeof ROUTE_STRATEGY_VALUES)[number];
  qualityFloor: number | null;
  costCeiling: string | null;
  entries: RouteEntryDto[];
  createdAt: string;
  updatedAt: string;
}

export interface RouteListDto {
  items: RouteDto[];
  /** The connections a route can list (as configured on the workers). */
  connections: string[];
}

export const routeTestSchema = z.object({
  to: safeString()
    .trim()
    .regex(/^\+[1-9][0-9]{5,14}$/, 'Write the number in international format, such as +447700900123'),
  accountId: z.preprocess((v) => (v === '' ? undefined : v), z.string().uuid('Not an account id').optional()),
  lane: z.preprocess((v) => (v === '' ? undefined : v), z.enum(ROUTE_LANE_VALUES).optional()),
  sender: z.preprocess((v) => (v === '' ? undefined : v), safeString().trim().max(15).optional()),
});
export type RouteTestInput = z.input<typeof routeTestSchema>;

export interface RouteTestCandidateDto {
  connection: string;
  cost: string;
  usable: boolean;
  reason: string;
}

export interface RouteTestDto {
  /** null: no route matches; the connections' own prefixes choose (`fallback`). */
  route: { id: string; name: string; prefix: string; strategy: string } | null;
  candidates: RouteTestCandidateDto[];
  reason: string;
  /** With no route: the connection its prefixes give, or null when none does. */
  fallback: string | null;
}

export const marginQuerySchema = z.object({
  from: safeString().regex(/^\d{4}-\d{2}-\d{2}$/, 'Write the day as YYYY-MM-DD'),
  to: safeString().regex(/^\d{4}-\d{2}-\d{2}$/, 'Write the day as YYYY-MM-DD'),
});

export interface MarginRowDto {
  day: string;
  country: string | null;
  countryName: string;
  connection: string;
  messages: number;
  segments: number;
  priceMinor: number;
  costMicros: number;
  marginMicros: number;
}

export interface MarginDto {
  currency: string;
  rows: MarginRowDto[];
}

/** A message as operators see it: what the customer sees, and where it went at what cost. */
export interface OperatorMessageDto extends MessageDto {
  /** The SMPP connection that took it (routed or by prefix); null before it was sent. */
  connection: string | null;
  /** The route that chose it, with the carrier's cost; null when no route did. */
  route: {
    name: string;
    strategy: string;
    /** Per segment, as the route lists it ("0.0042"). */
    cost: string;
    /** Cost per segment × segments accepted, in millionths of the unit. */
    totalCostMicros: number;
  } | null;
}

export interface OperatorLogPageDto {
  items: OperatorMessageDto[];
  nextCursor: string | null;
}

export interface OperatorMessageDetailDto {
  message: OperatorMessageDto;
  /** Every event, the routing decisions and raw receipts included. */
  events: MessageEventDto[];
}
