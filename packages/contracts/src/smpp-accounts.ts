import { z } from 'zod';
import { safeString } from './text';
import { SMPP_BIND_MODES, SMPP_ID_NOTATIONS } from './smpp-accounts-api';

/** Whether a text is an IPv4/IPv6 address or CIDR (checked exactly on the server). */
const cidrLike = /^[0-9A-Fa-f:.]+(\/\d{1,3})?$/;

/** SMPP 3.4 system_id: at most 15 characters (16 octets with the NUL). */
export const SMPP_SYSTEM_ID_PATTERN = /^[A-Za-z0-9_.-]{3,15}$/;

const smppAccountFields = {
  name: safeString().trim().min(1, 'Name the SMPP account').max(80, 'At most 80 characters'),
  ipAllowlist: z
    .array(safeString().trim().max(64).regex(cidrLike, 'Enter an IP address or CIDR, e.g. 203.0.113.0/24'))
    .max(50, 'At most 50 addresses'),
  maxBinds: z.number().int().min(1, 'At least 1 bind').max(64, 'At most 64 binds'),
  bindModes: z
    .array(z.enum(SMPP_BIND_MODES))
    .min(1, 'Allow at least one bind mode')
    .max(SMPP_BIND_MODES.length),
  throughputPerSecond: z
    .number()
    .int()
    .min(1, 'At least 1 message per second')
    .max(10_000, 'At most 10,000 per second'),
  windowSize: z.number().int().min(1, 'At least 1').max(1000, 'At most 1,000'),
  defaultSender: safeString().trim().min(1).max(16, 'At most 16 characters').nullable(),
  idNotation: z.enum(SMPP_ID_NOTATIONS),
};

export const smppAccountInputSchema = z.object({
  systemId: safeString()
    .trim()
    .regex(SMPP_SYSTEM_ID_PATTERN, '3 to 15 letters, digits, dots, dashes or underscores'),
  ...smppAccountFields,
  ipAllowlist: smppAccountFields.ipAllowlist.default([]),
  maxBinds: smppAccountFields.maxBinds.default(2),
  bindModes: smppAccountFields.bindModes.default(['tx', 'rx', 'trx']),
  throughputPerSecond: smppAccountFields.throughputPerSecond.default(50),
  windowSize: smppAccountFields.windowSize.default(10),
  defaultSender: smppAccountFields.defaultSender.default(null),
  idNotation: smppAccountFields.idNotation.default('decimal'),
});
export type SmppAccountInput = z.input<typeof smppAccountInputSchema>;

export const smppAccountUpdateSchema = z.object(smppAccountFields).partial();
export type SmppAccountUpdate = z.infer<typeof smppAccountUpdateSchema>;

export const smppAccountDtoSchema = z.object({
  id: z.string(),
  systemId: z.string(),
  name: z.string(),
  ipAllowlist: z.array(z.string()),
  maxBinds: z.number(),
  bindModes: z.array(z.enum(SMPP_BIND_MODES)),
  throughputPerSecond: z.number(),
  windowSize: z.number(),
  defaultSender: z.string().nullable(),
  idNotation: z.enum(SMPP_ID_NOTATIONS),
  status: z.enum(['active', 'disabled']),
  createdAt: z.string(),
  updatedAt: z.string(),
  passwordRotatedAt: z.string().nullable(),
  lastBindAt: z.string().nullable(),
  lastBindIp: z.string().nullable(),
  /** Receipts and inbound messages stored for the next receiver bind. */
  receiptsWaiting: z.number(),
  /** Receipts and inbound messages that expired before any receiver bound. */
  receiptsExpired: z.number(),
  /** Binds open now, over all API nodes. */
  liveBinds: z.number(),
});
export type SmppAccountDto = z.infer<typeof smppAccountDtoSchema>;

export const smppAccountListSchema = z.object({ data: z.array(smppAccountDtoSchema) });

/** A creation or rotation: the password, shown this once. */
export const smppAccountCreatedSchema = z.object({
  account: smppAccountDtoSchema,
  password: z.string(),
});
export type SmppAccountCreated = z.infer<typeof smppAccountCreatedSchema>;

export const smppBindDtoSchema = z.object({
  id: z.string(),
  node: z.string(),
  mode: z.enum(SMPP_BIND_MODES),
  remoteAddress: z.string(),
  tls: z.boolean(),
  boundSince: z.string(),
  /** Requests unanswered now: submits being processed and receipts sent without a response. */
  windowInUse: z.number(),
  /** submit_sm accepted per second, over the last 10 seconds. */
  submitsPerSecond: z.number(),
});
export type SmppBindDto = z.infer<typeof smppBindDtoSchema>;

export const smppBindListSchema = z.object({
  data: z.array(smppBindDtoSchema),
  receiptsWaiting: z.number(),
  receiptsExpired: z.number(),
});
export type SmppBindList = z.infer<typeof smppBindListSchema>;

export const smppServerInfoSchema = z.object({
  host: z.string(),
  port: z.number().nullable(),
  tlsPort: z.number().nullable(),
  /** The TLS certificate is one Wren generated itself (clients must not verify it, or pin it). */
  selfSignedCertificate: z.boolean(),
});
export type SmppServerInfo = z.infer<typeof smppServerInfoSchema>;
