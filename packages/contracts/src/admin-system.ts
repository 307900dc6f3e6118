import { z } from 'zod';
import { adminReasonSchema } from './admin';

/**
 * The operator console's system status (issue #16): each worker's connections with their binds,
 * health and refusals, the lanes, throughput, receipts, workers, database and disk; and the
 * admin-only hub methods that push and change it.
 */

export const sessionStatusSchema = z.object({
  bind: z.number().int(),
  role: z.string(),
  state: z.string(),
  inFlight: z.number().int(),
  lastError: z.string().nullable(),
  lastBoundAt: z.string().nullable(),
});
export const connectionStatusSchema = z.object({
  worker: z.string(),
  name: z.string(),
  bindMode: z.string(),
  binds: z.number().int(),
  bound: z.number().int(),
  inFlight: z.number().int(),
  window: z.number().int(),
  /** Submits per second over the last report interval. */
  tps: z.number(),
  paused: z.boolean(),
  flapping: z.boolean(),
  /**
   * Binds in use since the SMSC closed an older session whenever another bound (one session per
   * system_id/system_type), fewer than `binds`; null: all of them.
   */
  keptBinds: z.number().int().nullable(),
  /** Why binds were kept to keptBinds, naming the setting to change; null when they were not. */
  bindsNotice: z.string().nullable(),
  lastError: z.string().nullable(),
  sessions: z.array(sessionStatusSchema),
  /** Every bound session is in a throttle pause (routing passes it over until the SMSC accepts again). */
  throttled: z.boolean(),
  /** Routing's health window (15 min): delivered ÷ final receipts once there are 20; null before. */
  deliveredRatio: z.number().nullable(),
  /** Final receipts in that window. */
  finalReceipts: z.number().int(),
  /** Median ms from an accepted submit to its final receipt in that window; null with too few. */
  receiptP50Ms: z.number().nullable(),
  /** An operator drains it: no new messages, binds kept (Admin → Connections). */
  draining: z.boolean(),
  /** Submits refused with a throttling status over the last minute. */
  throttlesPerMinute: z.number().int(),
  /** Other refusals and unanswered submits over the last minute. */
  submitErrorsPerMinute: z.number().int(),
});
export type ConnectionStatusDto = z.infer<typeof connectionStatusSchema>;
export const systemStatusSchema = z.object({
  at: z.string(),
  connections: z.array(connectionStatusSchema),
  lanes: z.array(z.object({ lane: z.string(), depth: z.number().int(), oldestAt: z.string().nullable() })),
  throughput: z.array(
    z.object({
      minute: z.string(),
      submitted: z.number().int(),
      delivered: z.number().int(),
      failed: z.number().int(),
    }),
  ),
  receipts: z.object({ parked: z.number().int(), matchedLastHour: z.number().int() }),
  workers: z.array(
    z.object({
      id: z.string(),
      role: z.string(),
      heartbeatAt: z.string(),
      startedAt: z.string(),
      alive: z.boolean(),
    }),
  ),
  database: z.object({
    ok: z.boolean(),
    sizeBytes: z.number(),
    connections: z.number().int(),
    latencyMs: z.number(),
  }),
  disk: z.object({ path: z.string(), totalBytes: z.number(), freeBytes: z.number() }).nullable(),
  hubSockets: z.number().int(),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;
export const connectionControlSchema = z.object({ reason: adminReasonSchema.optional() });

/**
 * Admin-only hub methods (sockets of users with the admin role; others get FORBIDDEN). Admins'
 * sockets also receive `SystemStatusUpdated` every few seconds while connected.
 */
export const ADMIN_HUB_REQUESTS = ['GetSystemStatus'] as const;
export const ADMIN_HUB_COMMANDS = ['PauseConnection', 'ResumeConnection'] as const;
export type AdminHubRequest = (typeof ADMIN_HUB_REQUESTS)[number];
export type AdminHubCommand = (typeof ADMIN_HUB_COMMANDS)[number];
