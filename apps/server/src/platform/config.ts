import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config-error';
import { envSchema } from './env-schema';
import { parseConnections, type SmscConnectionConfig } from './smsc-connections';
import type { IdNotationSetting } from './smsc-id-notation';
import type { ConnectionPolicySettings } from './smsc-policy-settings';

/**
 * The server's configuration, derived once at start-up from the environment: the variables and
 * their defaults are in env-schema.ts, the SMPP connections in smsc-connections.ts, the receipt and
 * resend rules in smsc-policy-settings.ts, the id notation in smsc-id-notation.ts.
 */

export { ConfigError } from './config-error';
export type { SmscConnectionConfig } from './smsc-connections';
export type { ConnectionPolicySettings, Lane, UnansweredPolicy } from './smsc-policy-settings';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** Where tracked short links point: LINK_DOMAIN's origin, else PUBLIC_URL's (no trailing slash). */
  linkBase: string;
  linkRetentionDays: number;
  /** Browser origins the hub accepts: PUBLIC_URL's origin and HUB_ALLOWED_ORIGINS (same-origin always). */
  hubAllowedOrigins: string[];
  dataDir: string;
  databaseUrl: string | undefined;
  /** DATABASE_READ_URL: a streaming replica for lag-tolerant reads, and the lag it may have. */
  databaseReadUrl: string | undefined;
  databaseReadMaxLagMs: number;
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
  /** The SMPP server for customers on API nodes (issue 37, docs/smpp-server.md); ports null: off. */
  smppServer: {
    host: string;
    port: number | null;
    tlsPort: number | null;
    /** A port was set in the environment: a busy one stops the start (the defaults only warn). */
    explicit: boolean;
    tlsCertFile: string | undefined;
    tlsKeyFile: string | undefined;
    systemId: string;
    receiptTtlMinutes: number;
    retrySeconds: number;
  };
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
  /** BACKUP_DAILY_KEEP: daily backups of the embedded database kept in $DATA_DIR/backups (0: off). */
  backupDailyKeep: number;
  /** MESSAGE_RETENTION_MONTHS: months of messages kept (null: all); older months are dropped. */
  messageRetentionMonths: number | null;
  leaseSeconds: number;
  /** `manual`: an admin approves sender IDs; `auto`: approved on request. */
  senderIdApproval: 'manual' | 'auto';
  /** ADMIN_ALLOW_OVERDRAFT: an adjustment whose reason says overdraft may take a balance below zero. */
  adminAllowOverdraft: boolean;
  /** METRICS_TOKEN: GET /metrics needs it as a bearer token; null turns /metrics off. */
  metricsToken: string | null;
  /** STRIPE_SECRET_KEY + STRIPE_WEBHOOK_SECRET: Stripe Checkout top-ups; null: operator-approved requests. */
  stripe: { secretKey: string; webhookSecret: string } | null;
  /** Largest contact import upload (CSV/XLSX), in bytes. */
  importMaxBytes: number;
}

/** Parses the environment; throws a ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both (Stripe top-ups) or neither (top-ups an operator approves)',
    );
  }
  const baseDir = env.INIT_CWD ?? process.cwd();
  const dataDir = path.resolve(baseDir, e.DATA_DIR ?? 'data');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    linkBase: new URL(e.LINK_DOMAIN ?? e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin,
    linkRetentionDays: e.LINK_RETENTION_DAYS,
    hubAllowedOrigins: [
      new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin,
      ...e.HUB_ALLOWED_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => new URL(o).origin),
    ],
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    databaseReadUrl: e.DATABASE_READ_URL || undefined,
    databaseReadMaxLagMs: e.DATABASE_READ_MAX_LAG_MS,
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
    smppServer: {
      host: e.SMPP_SERVER_HOST,
      port: smppPortOf(e.SMPP_SERVER_PORT, 2775),
      tlsPort: smppPortOf(e.SMPP_SERVER_TLS_PORT, 3550),
      explicit: e.SMPP_SERVER_PORT !== undefined || e.SMPP_SERVER_TLS_PORT !== undefined,
      tlsCertFile: e.SMPP_SERVER_TLS_CERT || undefined,
      tlsKeyFile: e.SMPP_SERVER_TLS_KEY || undefined,
      systemId: e.SMPP_SERVER_SYSTEM_ID,
      receiptTtlMinutes: e.SMPP_SERVER_RECEIPT_TTL_MINUTES,
      retrySeconds: e.SMPP_SERVER_RETRY_SECONDS,
    },
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
    backupDailyKeep: e.BACKUP_DAILY_KEEP,
    leaseSeconds: e.LEASE_SECONDS,
    senderIdApproval: e.SENDER_ID_APPROVAL,
    adminAllowOverdraft: e.ADMIN_ALLOW_OVERDRAFT,
    metricsToken: e.METRICS_TOKEN ?? null,
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET }
        : null,
    importMaxBytes: e.IMPORT_MAX_BYTES,
  };
}

/** SMPP_SERVER_PORT / SMPP_SERVER_TLS_PORT: unset is the default port, `off` none. */
function smppPortOf(v: number | 'off' | undefined, fallback: number): number | null {
  if (v === 'off') return null;
  return v ?? fallback;
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
