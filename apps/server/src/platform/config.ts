import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseIdNotation, type IdNotationSetting } from '../gateway/message-id';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Every environment variable Wren reads, with its default. Parsed once at start-up;
 * nothing else in the server reads process.env.
 */
export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  /** Comma list of origins (scheme://host[:port]) the hub accepts besides PUBLIC_URL's and its own. */
  HUB_ALLOWED_ORIGINS: z.string().default(''),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  RUN_JOBS: bool.optional(),
  /** Named prepared statements for repeated statements (platform/statement-cache.ts); off behind a pooler that lacks them. */
  DATABASE_PREPARE: bool.default(true),
  /**
   * Extra settings for the embedded PostgreSQL, `name=value` pairs separated by `;` (for example
   * `shared_preload_libraries=pg_stat_statements`, as `npm run bench:pipeline` sets for
   * BENCH_PG_STATEMENTS=1). Ignored with DATABASE_URL.
   */
  EMBEDDED_PG_SETTINGS: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const settings: Record<string, string> = {};
      for (const pair of text
        .split(';')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const m = /^([a-z_][a-z0-9_.]*)=(.+)$/i.exec(pair);
        if (!m) {
          ctx.addIssue({ code: 'custom', message: `EMBEDDED_PG_SETTINGS: "${pair}" is not name=value` });
          return z.NEVER;
        }
        settings[m[1]] = m[2]!;
      }
      return settings;
    }),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  JWT_SECRET: z.string().min(16, 'JWT_SECRET must be at least 16 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  REFRESH_GRACE_SECONDS: z.coerce.number().int().min(0).default(30),
  TRIAL_BALANCE_MINOR: z.coerce.number().int().min(0).default(500),
  CURRENCY: z.string().length(3).default('USD'),
  DEFAULT_COUNTRY: z.string().length(2).default('US'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Wren <no-reply@wren.local>'),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** /v1 requests per minute for an API key that sets no limit of its own (per API node). */
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** CSV exports of the SMS log one account may stream at once (per API node). */
  EXPORT_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).max(100).default(2),
  /** CSV exports of the SMS log one API node streams at once (each holds one of its 10 database connections). */
  EXPORT_MAX_PER_NODE: z.coerce.number().int().min(1).max(1000).default(4),
  /** How long a delivery webhook receiver has to answer. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** First retry delay of a failed webhook; each retry doubles it (with jitter) for up to 24 h. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(10_000),
  /** Webhooks may go to loopback and private addresses (development and tests only; SSRF guard off). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** Register by an emailed link (reveals nothing about existing accounts); default: on when SMTP_URL is set. */
  REGISTRATION_CONFIRM: bool.optional(),
  /** ALTCHA proof-of-work on register and forgot-password; `false` turns it off (tests). */
  CAPTCHA: bool.default(true),
  /** PBKDF2 iterations per ALTCHA attempt (the browser tries about 1,000-5,000 counters). */
  CAPTCHA_COST: z.coerce.number().int().min(1).max(100_000).default(1000),
  LOGIN_LOCK_THRESHOLD: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: bool.default(false),
  DEFAULT_SENDER: z.string().min(1).max(11).default('Wren'),
  MESSAGE_VALIDITY_MINUTES: z.coerce.number().int().min(1).max(10_080).default(1440),
  REFUND_STATUSES: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['undelivered', 'expired', 'rejected', 'unknown']))),
  SMSC_HOST: z.string().optional(),
  SMSC_PORT: z.coerce.number().int().min(1).max(65535).default(2775),
  SMSC_SYSTEM_ID: z.string().default('wren'),
  SMSC_PASSWORD: z.string().default('wrenpass'),
  SMSC_SYSTEM_TYPE: z.string().default(''),
  SMSC_BINDS: z.coerce.number().int().min(1).max(32).default(2),
  SMSC_BIND_MODE: z.enum(['trx', 'tx+rx']).default('trx'),
  SMSC_FLAP_SECONDS: z.coerce.number().min(0).default(10),
  SMSC_FLAP_WARN_AFTER: z.coerce.number().int().min(1).default(3),
  SMSC_WINDOW: z.coerce.number().int().min(1).max(1000).default(50),
  SMSC_TPS: z.coerce.number().int().min(0).default(0),
  SMSC_ID_NOTATION: z.string().default('auto').pipe(idNotationSchema()),
  SMSC_RECEIPT_TIMEOUT_MINUTES: z.coerce.number().int().min(1).max(43_200).default(2880),
  SMSC_OTP_RECEIPT_TIMEOUT_MINUTES: z.coerce.number().int().min(1).max(43_200).default(60),
  SMSC_ACCEPTD: z.enum(['final', 'interim']).default('final'),
  SMSC_UNKNOWN_STATE: z.enum(['final', 'interim']).default('final'),
  SMSC_ON_UNANSWERED: z.string().default('otp=resend,single=fail,bulk=fail').pipe(unansweredSchema()),
  SMSC_CONNECTIONS: z.string().optional(),
  SMSC_RESPONSE_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  SMSC_ENQUIRE_LINK_SECONDS: z.coerce.number().min(0.1).default(30),
  SMSC_RECONNECT_BASE_MS: z.coerce.number().int().min(10).default(1000),
  SIMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).default(300),
  SIMULATOR_MIX: z.string().default('DELIVRD=92,UNDELIV=5,EXPIRED=2,REJECTD=1'),
  DISPATCH_BATCH: z.coerce.number().int().min(1).max(5000).default(500),
  DISPATCH_IDLE_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(200),
  DISPATCH_IDLE_POLL_MAX_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  // Unset or empty: keep every month. Else whole months older than this many are dropped (issue #17).
  MESSAGE_RETENTION_MONTHS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ message: 'must be a whole number of months (1 or more), or unset to keep all' })
      .int('must be a whole number of months (1 or more), or unset to keep all')
      .min(1, 'must be a whole number of months (1 or more), or unset to keep all')
      .max(1200)
      .optional(),
  ),
  LEASE_SECONDS: z.coerce.number().int().min(5).default(60),
  SENDER_ID_APPROVAL: z.enum(['manual', 'auto']).default('manual'),
  /** Operators may take a balance below zero with an adjustment whose reason says "overdraft". */
  ADMIN_ALLOW_OVERDRAFT: bool.default(false),
  /** Bearer token for GET /metrics; unset: /metrics is off (404). */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 * 1024),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** Browser origins the hub accepts: PUBLIC_URL's origin and HUB_ALLOWED_ORIGINS (same-origin always). */
  hubAllowedOrigins: string[];
  dataDir: string;
  databaseUrl: string | undefined;
  /** Repeated statements run as named prepared statements (DATABASE_PREPARE, default true). */
  databasePrepare: boolean;
  /** EMBEDDED_PG_SETTINGS: extra settings for the embedded cluster's postmaster. */
  embeddedPgSettings: Record<string, string>;
  role: 'all' | 'api' | 'worker';
  /** `--role worker`: port of its /healthz and /readyz listener; 0 = no listener at all. */
  workerHealthPort: number;
  /** This node works background jobs (pg-boss): imports, maintenance, sweeps. Default: not on `api`. */
  runJobs: boolean;
  logLevel: string;
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  refreshGraceSeconds: number;
  trialBalanceMinor: number;
  currency: string;
  defaultCountry: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  authRateLimitPerMinute: number;
  apiKeyRateLimitPerMinute: number;
  /** Concurrent SMS log exports: per account, and per node. */
  exportMaxPerAccount: number;
  exportMaxPerNode: number;
  webhookTimeoutMs: number;
  webhookRetryBaseMs: number;
  webhookAllowPrivate: boolean;
  /** Registration answers the same for any input and finishes through an emailed link. */
  registrationConfirm: boolean;
  /** ALTCHA proof-of-work required on register and forgot-password. */
  captcha: boolean;
  captchaCost: number;
  loginLockThreshold: number;
  loginLockMinutes: number;
  webDist: string;
  trustProxy: boolean;
  defaultSender: string;
  messageValidityMinutes: number;
  /** Final statuses after submission that are refunded (never-submitted failures always are). */
  refundStatuses: string[];
  /** Default id notation of SMPP connections (submit_sm_resp / receipt), `auto` learns it. */
  smscIdNotation: IdNotationSetting;
  /** Defaults of the per-connection receipt and resend policies (connection-policy.ts). */
  smscPolicy: Required<ConnectionPolicySettings>;
  /** SMPP connections; empty means "start the built-in simulator and bind to it". */
  smscConnections: SmscConnectionConfig[];
  simulator: { port: number; delayMs: number; mix: string };
  /** Timing applied to every SMPP connection. */
  smpp: {
    responseTimeoutMs: number;
    enquireLinkSeconds: number;
    reconnectBaseMs: number;
    /** A session closed by the SMSC this soon after binding is a flap (the backoff keeps growing). */
    flapSeconds: number;
    /** Flaps in a row before the warning that names the likely causes. */
    flapWarnAfter: number;
  };
  dispatchBatch: number;
  /**
   * How often an idle dispatcher looks for due messages it was not told about: after
   * `dispatchIdlePollMs`, then twice as long after each look that found nothing, up to
   * `dispatchIdlePollMaxMs` (issue #17: an idle worker's statements are most of PostgreSQL's idle CPU).
   */
  dispatchIdlePollMs: number;
  dispatchIdlePollMaxMs: number;
  /** MESSAGE_RETENTION_MONTHS: months of messages kept (null: all); older months are dropped. */
  messageRetentionMonths: number | null;
  leaseSeconds: number;
  /** `manual`: an admin approves sender IDs; `auto`: approved on request. */
  senderIdApproval: 'manual' | 'auto';
  /** ADMIN_ALLOW_OVERDRAFT: an adjustment whose reason says overdraft may take a balance below zero. */
  adminAllowOverdraft: boolean;
  /** METRICS_TOKEN: GET /metrics needs it as a bearer token; null turns /metrics off. */
  metricsToken: string | null;
  /** Largest contact import upload (CSV/XLSX), in bytes. */
  importMaxBytes: number;
}

export interface SmscConnectionConfig {
  name: string;
  host: string;
  port: number;
  systemId: string;
  password: string;
  systemType?: string;
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

export type Lane = 'otp' | 'single' | 'bulk';
export type UnansweredPolicy = Record<Lane, 'fail' | 'resend'>;

/** Per-connection receipt and resend rules (issue #18). */
export interface ConnectionPolicySettings {
  /** A sent message whose receipt has not come after this long ends as `unknown`. */
  receiptTimeoutMinutes?: number;
  /** The same for OTP messages (priority 0), usually much shorter. */
  otpReceiptTimeoutMinutes?: number;
  /** ACCEPTD / message_state 6: final (delivered on the subscriber's behalf, SMPP 3.4) or interim. */
  acceptd?: 'final' | 'interim';
  /** UNKNOWN / message_state 7: final (`unknown`) or interim. */
  unknownState?: 'final' | 'interim';
  /** A submit written but never answered (connection lost): fail it, or resend it (possible duplicate). */
  onUnanswered?: UnansweredPolicy;
}

function unansweredSchema() {
  return z.string().transform((v, ctx): UnansweredPolicy => {
    const policy: UnansweredPolicy = { otp: 'resend', single: 'fail', bulk: 'fail' };
    for (const item of v
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean)) {
      const [lane, what] = item.split('=').map((x) => x.trim());
      if (
        (lane === 'otp' || lane === 'single' || lane === 'bulk') &&
        (what === 'fail' || what === 'resend')
      ) {
        policy[lane] = what;
      } else {
        ctx.addIssue({
          code: 'custom',
          message: `"${item}": use lane=policy pairs such as otp=resend,bulk=fail`,
        });
        return z.NEVER;
      }
    }
    return policy;
  });
}

function idNotationSchema() {
  return z.string().transform((v, ctx) => {
    const n = parseIdNotation(v);
    if (n === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'use auto, string, dec, hex, submit/receipt such as hex/dec, or 0-3 as Kannel msg-id-type',
      });
      return z.NEVER;
    }
    return n;
  });
}

const connectionSchema = z.object({
  name: z.string().min(1),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  systemId: z.string(),
  password: z.string(),
  systemType: z.string().optional(),
  binds: z.number().int().min(1).default(1),
  window: z.number().int().min(1).default(50),
  tps: z.number().int().min(0).default(0),
  prefixes: z.array(z.string()).default([]),
  bindMode: z.enum(['trx', 'tx+rx']).optional(),
  flapSeconds: z.number().min(0).optional(),
  flapWarnAfter: z.number().int().min(1).optional(),
  idNotation: z.union([z.string(), z.number().int()]).transform(String).pipe(idNotationSchema()).optional(),
  policy: z
    .object({
      receiptTimeoutMinutes: z.number().int().min(1).max(43_200).optional(),
      otpReceiptTimeoutMinutes: z.number().int().min(1).max(43_200).optional(),
      acceptd: z.enum(['final', 'interim']).optional(),
      unknownState: z.enum(['final', 'interim']).optional(),
      onUnanswered: z
        .object({
          otp: z.enum(['fail', 'resend']).default('resend'),
          single: z.enum(['fail', 'resend']).default('fail'),
          bulk: z.enum(['fail', 'resend']).default('fail'),
        })
        .optional(),
    })
    .optional(),
});

function parseConnections(e: z.infer<typeof envSchema>): SmscConnectionConfig[] {
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

export class ConfigError extends Error {}

/** Parses the environment; throws a ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const baseDir = env.INIT_CWD ?? process.cwd();
  const dataDir = path.resolve(baseDir, e.DATA_DIR ?? 'data');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    hubAllowedOrigins: [
      new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin,
      ...e.HUB_ALLOWED_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => new URL(o).origin),
    ],
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    databasePrepare: e.DATABASE_PREPARE,
    embeddedPgSettings: e.EMBEDDED_PG_SETTINGS,
    role: e.ROLE,
    workerHealthPort: e.WORKER_HEALTH_PORT,
    runJobs: e.RUN_JOBS ?? e.ROLE !== 'api',
    logLevel: e.LOG_LEVEL,
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir),
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    refreshGraceSeconds: e.REFRESH_GRACE_SECONDS,
    trialBalanceMinor: e.TRIAL_BALANCE_MINOR,
    currency: e.CURRENCY.toUpperCase(),
    defaultCountry: e.DEFAULT_COUNTRY.toUpperCase(),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT_PER_MINUTE,
    exportMaxPerAccount: e.EXPORT_MAX_PER_ACCOUNT,
    exportMaxPerNode: e.EXPORT_MAX_PER_NODE,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    registrationConfirm: e.REGISTRATION_CONFIRM ?? Boolean(e.SMTP_URL),
    captcha: e.CAPTCHA,
    captchaCost: e.CAPTCHA_COST,
    loginLockThreshold: e.LOGIN_LOCK_THRESHOLD,
    loginLockMinutes: e.LOGIN_LOCK_MINUTES,
    webDist: path.resolve(baseDir, e.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    trustProxy: e.TRUST_PROXY,
    defaultSender: e.DEFAULT_SENDER,
    messageValidityMinutes: e.MESSAGE_VALIDITY_MINUTES,
    refundStatuses: e.REFUND_STATUSES,
    smscIdNotation: e.SMSC_ID_NOTATION,
    smscPolicy: {
      receiptTimeoutMinutes: e.SMSC_RECEIPT_TIMEOUT_MINUTES,
      otpReceiptTimeoutMinutes: e.SMSC_OTP_RECEIPT_TIMEOUT_MINUTES,
      acceptd: e.SMSC_ACCEPTD,
      unknownState: e.SMSC_UNKNOWN_STATE,
      onUnanswered: e.SMSC_ON_UNANSWERED,
    },
    smscConnections: parseConnections(e),
    simulator: { port: e.SIMULATOR_PORT, delayMs: e.SIMULATOR_DELAY_MS, mix: e.SIMULATOR_MIX },
    smpp: {
      responseTimeoutMs: e.SMSC_RESPONSE_TIMEOUT_MS,
      enquireLinkSeconds: e.SMSC_ENQUIRE_LINK_SECONDS,
      reconnectBaseMs: e.SMSC_RECONNECT_BASE_MS,
      flapSeconds: e.SMSC_FLAP_SECONDS,
      flapWarnAfter: e.SMSC_FLAP_WARN_AFTER,
    },
    dispatchBatch: e.DISPATCH_BATCH,
    dispatchIdlePollMs: e.DISPATCH_IDLE_POLL_MS,
    dispatchIdlePollMaxMs: Math.max(e.DISPATCH_IDLE_POLL_MS, e.DISPATCH_IDLE_POLL_MAX_MS),
    messageRetentionMonths: e.MESSAGE_RETENTION_MONTHS ?? null,
    leaseSeconds: e.LEASE_SECONDS,
    senderIdApproval: e.SENDER_ID_APPROVAL,
    adminAllowOverdraft: e.ADMIN_ALLOW_OVERDRAFT,
    metricsToken: e.METRICS_TOKEN ?? null,
    importMaxBytes: e.IMPORT_MAX_BYTES,
  };
}

/** With no JWT_SECRET, a random one is kept in the data dir so sessions survive restarts. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
