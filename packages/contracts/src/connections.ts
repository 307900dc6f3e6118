import { z } from 'zod';
import { adminReasonSchema } from './admin';
import { safeString } from './text';

/**
 * Carrier connections (issue 38 item 1), managed by operators under /api/admin/connections: the
 * SMPP accounts Wren binds to. Stored in PostgreSQL; every worker applies a change within
 * CONNECTIONS_APPLY_SECONDS, closing the sessions it replaces gracefully. SMSC_CONNECTIONS (or
 * SMSC_HOST) seeds them on start: a seeded connection follows the environment until an operator
 * edits it here. Pause and resume stay under ADMIN_API (connectionPause / connectionResume).
 */
export const CONNECTIONS_API = {
  list: '/api/admin/connections',
  one: '/api/admin/connections/:name',
  /** POST: stop new submits through it, binds stay up for receipts and MO; DELETE: end the drain. */
  drain: '/api/admin/connections/:name/drain',
} as const;

/** Workers read the connections' version at every status report: a change applies within this. */
export const CONNECTIONS_APPLY_SECONDS = 2;

export const BIND_MODE_VALUES = ['trx', 'tx+rx'] as const;
/**
 * How the SMSC writes message ids (SMSC_ID_NOTATION's forms): auto (learned, and checked again on
 * every receipt), string, dec, hex, submit/receipt such as hex/dec, or Kannel's msg-id-type 0-3.
 */
export const idNotationInputSchema = safeString()
  .trim()
  .toLowerCase()
  .regex(
    /^(auto|string|dec|hex|[0-3]|(string|dec|hex)\/(string|dec|hex))$/,
    'Use auto, string, dec, hex, submit/receipt such as hex/dec, or 0-3 as Kannel msg-id-type',
  );

const intIn = (min: number, max: number, what: string) =>
  z.coerce
    .number({ error: `${what} is a number` })
    .int(`${what} is a whole number`)
    .min(min, `${what} is at least ${min}`)
    .max(max, `${what} is at most ${max}`);

/** Unset (blank) takes the server's SMSC_* default. */
const optionalInt = (min: number, max: number, what: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), intIn(min, max, what).optional());

const laneRule = z.enum(['fail', 'resend']);

export const connectionNameSchema = safeString()
  .trim()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/,
    'Use 1 to 40 letters, digits, dots, dashes or underscores, starting with a letter or digit',
  );

const fields = {
  host: safeString()
    .trim()
    .min(1, 'Give the SMSC host')
    .max(253, 'Keep the host under 254 characters')
    .regex(/^[A-Za-z0-9.:_[\]-]+$/, 'Write a host name or an IP address'),
  port: intIn(1, 65535, 'The port'),
  tls: z.boolean().default(false),
  /** Check the SMSC's certificate against the machine's trusted authorities (off: any certificate). */
  tlsVerify: z.boolean().default(true),
  systemId: safeString().trim().min(1, 'Give the system_id').max(15, 'SMPP allows 15 characters'),
  systemType: safeString().trim().max(12, 'SMPP allows 12 characters').default(''),
  binds: intIn(1, 32, 'Binds').default(1),
  bindMode: z.enum(BIND_MODE_VALUES).default('trx'),
  window: intIn(1, 1000, 'The window').default(50),
  /** Submits per second per bind; 0 = no limit. */
  tps: intIn(0, 10_000, 'TPS').default(0),
  /** E.164 prefixes the connection takes when no route matches; [] = the default connection. */
  prefixes: z
    .array(
      safeString()
        .trim()
        .regex(/^\+[0-9]{1,15}$/, 'Write each prefix as + and digits, such as +44'),
    )
    .max(200, 'At most 200 prefixes')
    .default([]),
  /** null: the server's SMSC_ID_NOTATION. */
  idNotation: z.preprocess((v) => (v === '' ? null : v), idNotationInputSchema.nullable().default(null)),
  receiptTimeoutMinutes: optionalInt(1, 43_200, 'The receipt timeout'),
  otpReceiptTimeoutMinutes: optionalInt(1, 43_200, 'The OTP receipt timeout'),
  acceptd: z.enum(['final', 'interim']).nullable().optional(),
  unknownState: z.enum(['final', 'interim']).nullable().optional(),
  onUnanswered: z.object({ otp: laneRule, single: laneRule, bulk: laneRule }).nullable().optional(),
  flapSeconds: optionalInt(0, 3600, 'Flap seconds'),
  flapWarnAfter: optionalInt(1, 1000, 'Flap warnings after'),
};

export const connectionCreateSchema = z.object({
  name: connectionNameSchema,
  ...fields,
  password: safeString().max(8, 'SMPP allows 8 characters').default(''),
  reason: adminReasonSchema,
});
export type ConnectionCreate = z.input<typeof connectionCreateSchema>;

/** An edit: the name stays; a password left out (or null) keeps the stored one. */
export const connectionUpdateSchema = z.object({
  ...fields,
  password: safeString().max(8, 'SMPP allows 8 characters').nullable().optional(),
  reason: adminReasonSchema,
});
export type ConnectionUpdate = z.input<typeof connectionUpdateSchema>;

export const connectionRemoveSchema = z.object({ reason: adminReasonSchema });

export const connectionDtoSchema = z.object({
  name: z.string(),
  host: z.string(),
  port: z.number(),
  tls: z.boolean(),
  tlsVerify: z.boolean(),
  systemId: z.string(),
  systemType: z.string(),
  /** The password is never returned, only whether one is stored. */
  passwordSet: z.boolean(),
  binds: z.number(),
  bindMode: z.enum(BIND_MODE_VALUES),
  window: z.number(),
  tps: z.number(),
  prefixes: z.array(z.string()),
  idNotation: z.string().nullable(),
  receiptTimeoutMinutes: z.number().nullable(),
  otpReceiptTimeoutMinutes: z.number().nullable(),
  acceptd: z.enum(['final', 'interim']).nullable(),
  unknownState: z.enum(['final', 'interim']).nullable(),
  onUnanswered: z.object({ otp: laneRule, single: laneRule, bulk: laneRule }).nullable(),
  flapSeconds: z.number().nullable(),
  flapWarnAfter: z.number().nullable(),
  /**
   * `env`: seeded from SMSC_CONNECTIONS / SMSC_HOST and kept in step with it on each start until an
   * operator edits it; `console`: created or edited here; `builtin`: the built-in simulator's
   * (read only, exists while no connection is configured).
   */
  origin: z.enum(['env', 'console', 'builtin']),
  draining: z.boolean(),
  paused: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type ConnectionDto = z.infer<typeof connectionDtoSchema>;

export const connectionListSchema = z.object({ items: z.array(connectionDtoSchema) });
export type ConnectionList = z.infer<typeof connectionListSchema>;
