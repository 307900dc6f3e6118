import { z } from 'zod';
import { idNotationSchema } from './smsc-id-notation';
import { unansweredSchema } from './smsc-policy-settings';

/** A listener port: a number (0: any free port) or `off`. */
const smppPort = z.union([z.literal('off'), z.coerce.number().int().min(0).max(65535)]);

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
  /** Origin of tracked short links (issue 41), e.g. https://wren.link; PUBLIC_URL's origin if unset. */
  LINK_DOMAIN: z.url().optional(),
  /** Days a tracked short link keeps working after its message was sent. */
  LINK_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  /** Comma list of origins (scheme://host[:port]) the hub accepts besides PUBLIC_URL's and its own. */
  HUB_ALLOWED_ORIGINS: z.string().default(''),
  DATA_DIR: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  /** A streaming replica for reads that tolerate DATABASE_READ_MAX_LAG_MS of lag (platform/read-replica.ts). */
  DATABASE_READ_URL: z.string().optional(),
  DATABASE_READ_MAX_LAG_MS: z.coerce.number().int().min(100).max(600_000).default(1000),
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
  /** The SMPP server for customers (issue 37, docs/smpp-server.md): its address, `off` for no listener. */
  SMPP_SERVER_HOST: z.string().default('127.0.0.1'),
  SMPP_SERVER_PORT: smppPort.optional(),
  SMPP_SERVER_TLS_PORT: smppPort.optional(),
  /** PEM files for SMPP over TLS; unset: a self-signed pair generated into DATA_DIR/smpp-tls. */
  SMPP_SERVER_TLS_CERT: z.string().optional(),
  SMPP_SERVER_TLS_KEY: z.string().optional(),
  /** The system_id Wren answers binds with. */
  SMPP_SERVER_SYSTEM_ID: z.string().min(1).max(15).default('Wren'),
  /** How long a receipt or inbound message waits for a receiver bind before it expires (counted). */
  SMPP_SERVER_RECEIPT_TTL_MINUTES: z.coerce.number().int().min(1).max(43_200).default(4320),
  /** Retry of an unanswered or refused deliver_sm, and the outbox sweep's period. */
  SMPP_SERVER_RETRY_SECONDS: z.coerce.number().min(0.1).max(3600).default(5),
  SIMULATOR_DELAY_MS: z.coerce.number().int().min(0).default(300),
  SIMULATOR_MIX: z.string().default('DELIVRD=92,UNDELIV=5,EXPIRED=2,REJECTD=1'),
  DISPATCH_BATCH: z.coerce.number().int().min(1).max(5000).default(500),
  DISPATCH_IDLE_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(200),
  DISPATCH_IDLE_POLL_MAX_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  // Daily backups of the embedded database to $DATA_DIR/backups, keeping this many (0: none).
  BACKUP_DAILY_KEEP: z.coerce.number().int().min(0).max(365).default(0),
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
  /** Stripe Checkout top-ups (issue 47): the secret API key; unset, top-ups are requests an operator approves. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, 'STRIPE_SECRET_KEY is a Stripe secret key (sk_test_… or sk_live_…)')
    .optional(),
  /** The signing secret of the Stripe webhook endpoint (whsec_…); required with STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'STRIPE_WEBHOOK_SECRET is a webhook signing secret (whsec_…)')
    .optional(),
  /** Bearer token for GET /metrics; unset: /metrics is off (404). */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(20 * 1024 * 1024),
});

export type Env = z.input<typeof envSchema>;

/** The environment as the schema parsed it (before config.ts derives Config from it). */
export type ParsedEnv = z.infer<typeof envSchema>;
