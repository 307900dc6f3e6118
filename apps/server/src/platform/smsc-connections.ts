import { z } from 'zod';
import { ConfigError } from './config-error';
import type { ParsedEnv } from './env-schema';
import { idNotationSchema, type IdNotationSetting } from './smsc-id-notation';
import { policySettingsSchema, type ConnectionPolicySettings } from './smsc-policy-settings';

export interface SmscConnectionConfig {
  name: string;
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
  /** SMPP over TLS; tlsVerify (default true) checks the SMSC's certificate. */
  tls?: boolean;
  tlsVerify?: boolean;
  binds: number;
  /** `trx`: transceiver sessions; `tx+rx`: a transmitter + receiver pair per bind (SMSC_BIND_MODE). */
  bindMode?: 'trx' | 'tx+rx';
  /** Per-connection overrides of SMSC_FLAP_SECONDS / SMSC_FLAP_WARN_AFTER. */
  flapSeconds?: number;
  flapWarnAfter?: number;
  window: number;
  tps: number;
  /** E.164 prefixes routed to this connection; [] is the default route. */
  prefixes: string[];
  /** How this SMSC writes message ids (see SMSC_ID_NOTATION); unset = the default. */
  idNotation?: IdNotationSetting;
  /** Receipt and resend policies; unset fields take the SMSC_* defaults. */
  policy?: ConnectionPolicySettings;
}

/** One connection of SMSC_CONNECTIONS (a JSON array). */
const connectionSchema = z.object({
  name: z.string().min(1),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  systemId: z.string(),
  password: z.string(),
  systemType: z.string().optional(),
  tls: z.boolean().optional(),
  tlsVerify: z.boolean().optional(),
  binds: z.number().int().min(1).default(1),
  window: z.number().int().min(1).default(50),
  tps: z.number().int().min(0).default(0),
  prefixes: z.array(z.string()).default([]),
  bindMode: z.enum(['trx', 'tx+rx']).optional(),
  flapSeconds: z.number().min(0).optional(),
  flapWarnAfter: z.number().int().min(1).optional(),
  idNotation: z.union([z.string(), z.number().int()]).transform(String).pipe(idNotationSchema()).optional(),
  policy: policySettingsSchema.optional(),
});

/**
 * The SMPP connections: SMSC_CONNECTIONS when set, else one `default` connection from SMSC_HOST and
 * the other SMSC_* variables, else none (the worker then starts the built-in simulator).
 */
export function parseConnections(e: ParsedEnv): SmscConnectionConfig[] {
  if (e.SMSC_CONNECTIONS) {
    let json: unknown;
    try {
      json = JSON.parse(e.SMSC_CONNECTIONS);
    } catch {
      throw new ConfigError('Invalid configuration:\n  SMSC_CONNECTIONS: not valid JSON');
    }
    const parsed = z.array(connectionSchema).min(1).safeParse(json);
    if (!parsed.success) {
      throw new ConfigError(
        `Invalid configuration:\n  SMSC_CONNECTIONS: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      );
    }
    return parsed.data.map((c) => ({ ...c, bindMode: c.bindMode ?? e.SMSC_BIND_MODE }));
  }
  if (!e.SMSC_HOST) return [];
  return [
    {
      name: 'default',
      host: e.SMSC_HOST,
      port: e.SMSC_PORT,
      systemId: e.SMSC_SYSTEM_ID,
      password: e.SMSC_PASSWORD,
      systemType: e.SMSC_SYSTEM_TYPE || undefined,
      binds: e.SMSC_BINDS,
      bindMode: e.SMSC_BIND_MODE,
      window: e.SMSC_WINDOW,
      tps: e.SMSC_TPS,
      prefixes: [],
    },
  ];
}
