import {
  API_SCOPES,
  type ApiKeyCreated,
  type ApiKeyDto,
  type ApiKeyInput,
  apiKeyInputSchema,
  type ApiKeyReport,
  type ApiKeyUpdate,
  apiKeyUpdateSchema,
  type ApiScope,
  ErrorCode,
} from '@wren/contracts';
import type { Clock } from '../../platform/clock';
import { nowMs } from '../../platform/clock';
import type { Db } from '../../platform/db';
import { AppError, FieldError, notFound } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { parseInput } from '../../shared/parse-input';
import { ApiKeyError } from './api-key-error';
import * as repo from './api-keys.repository';
import { canonicalEntry, compileAllowlist } from './ip-allowlist';
import { displayPrefix, hashSecret, looksLikeKey, newSecret, prefixOf, sameHash } from './key-secret';
import { assertWebhookUrl } from '../webhooks/url-guard';
import { createRateLimiter, type RateDecision, type SharedCounter } from './rate-limiter';

/** How long a node trusts a key it looked up: a revoke or rotate elsewhere is seen within this. */
export const KEY_CACHE_MS = 5_000;
const FLUSH_MS = 5_000;
/** How often a node shares its rate-limit counts (the cluster-wide overshoot is bounded by it). */
const RATE_SYNC_MS = 250;

/** The caller behind a /v1 request. */
export interface ApiKeyPrincipal {
  keyId: string;
  accountId: string;
  userId: string;
  prefix: string;
  scopes: readonly ApiScope[];
  webhookUrl: string | null;
}

interface CachedKey {
  row: (repo.ApiKeyRow & { account_locked_at?: Date | null }) | null;
  /** With no live key of this prefix: the secret a rotation retired, if it was one. */
  retired?: { secret_hash: Buffer; retired_at: Date };
  allowed: (ip: string) => boolean;
  until: number;
}

function statusOf(row: repo.ApiKeyRow, now: number): ApiKeyDto['status'] {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && row.expires_at.getTime() <= now) return 'expired';
  return 'active';
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toApiKeyDto(row: repo.ApiKeyRow, requests24h: number, now: number): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    prefix: displayPrefix(row.prefix),
    scopes: row.scopes.filter((s): s is ApiScope => (API_SCOPES as readonly string[]).includes(s)),
    ipAllowlist: row.ip_allowlist,
    expiresAt: iso(row.expires_at),
    rateLimitPerMinute: row.rate_limit_per_minute,
    webhookUrl: row.webhook_url,
    status: statusOf(row, now),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    revokedAt: iso(row.revoked_at),
    lastUsedAt: iso(row.last_used_at),
    lastUsedIp: row.last_used_ip,
    requests24h,
  };
}

function canonicalAllowlist(list: readonly string[]) {
  const out: string[] = [];
  const bad: string[] = [];
  for (const e of list) {
    const c = canonicalEntry(e);
    if (c) out.push(c);
    else bad.push(e);
  }
  if (bad.length) {
    throw new FieldError({
      ipAllowlist: [
        `Not an IP address or CIDR: ${bad.slice(0, 3).join(', ')} (e.g. 203.0.113.0/24 or 2001:db8::/32)`,
      ],
    });
  }
  return [...new Set(out)];
}

/**
 * API keys: create (the secret is returned once), list, edit, revoke, rotate, report; and the
 * per-request authentication of /v1 (prefix lookup cached for KEY_CACHE_MS, hash compare, expiry,
 * IP allowlist, scope, per-key rate limit). Usage counters are kept in memory and flushed.
 */
export function createApiKeysService(deps: {
  db: Db;
  clock: Clock;
  logger: Logger;
  defaultRateLimitPerMinute: number;
  /** WEBHOOK_ALLOW_PRIVATE: a key's webhook URL may name a private or loopback address. */
  allowPrivateWebhooks?: boolean;
}) {
  const { db, clock } = deps;
  const now = () => nowMs(clock);
  const cache = new Map<string, CachedKey>();
  const limiter = createRateLimiter(now);
  let ratePurgedAt = 0;
  const counter: SharedCounter = {
    add: (rows) => repo.addRateWindows(db, rows),
    read: (keyId, start) => repo.readRateWindow(db, keyId, start),
  };

  // Usage counters, flushed every FLUSH_MS (and on close).
  let usage = new Map<string, repo.UsageDelta>();
  let errors = new Map<string, { keyId: string; day: string; code: string; requests: number }>();
  let touched = new Map<string, { keyId: string; at: Date; ip: string | null }>();

  async function loadKey(prefix: string): Promise<CachedKey> {
    const hit = cache.get(prefix);
    const t = now();
    if (hit && hit.until > t) return hit;
    const row = (await repo.findByPrefix(db, prefix)) ?? null;
    const retired = row ? undefined : await repo.findRetiredByPrefix(db, prefix);
    const entry = {
      row,
      ...(retired && { retired }),
      allowed: compileAllowlist(row?.ip_allowlist ?? []),
      until: t + KEY_CACHE_MS,
    };
    if (cache.size > 10_000) cache.clear();
    cache.set(prefix, entry);
    return entry;
  }

  const forget = (row: { prefix: string; id: string }) => {
    cache.delete(row.prefix);
    limiter.reset(row.id);
  };

  async function getRow(accountId: string, id: string) {
    const row = await repo.findKey(db, accountId, id);
    if (!row) throw notFound('API key');
    return row;
  }

  async function dtoOf(row: repo.ApiKeyRow) {
    const counts = await repo.requestsLastDay(db, [row.id]);
    return toApiKeyDto(row, counts.get(row.id) ?? 0, now());
  }

  function checkExpiry(expiresAt: string | null | undefined) {
    if (expiresAt && new Date(expiresAt).getTime() <= now()) {
      throw new FieldError({ expiresAt: ['Choose a time in the future'] });
    }
  }

  const service = {
    async create(input: { accountId: string; userId: string; body: ApiKeyInput }): Promise<ApiKeyCreated> {
      const body = parseInput(apiKeyInputSchema, input.body);
      checkExpiry(body.expiresAt);
      assertWebhookUrl('webhookUrl', body.webhookUrl, deps.allowPrivateWebhooks ?? false);
      const { secret, prefix, hash } = newSecret();
      const row = await repo.insertKey(db, {
        account_id: input.accountId,
        created_by: input.userId,
        name: body.name,
        prefix,
        secret_hash: hash,
        scopes: [...new Set(body.scopes)],
        ip_allowlist: canonicalAllowlist(body.ipAllowlist),
        expires_at: body.expiresAt ? new Date(body.expiresAt) : null,
        rate_limit_per_minute: body.rateLimitPerMinute,
        webhook_url: body.webhookUrl,
        updated_at: new Date(),
      });
      return { key: toApiKeyDto(row, 0, now()), secret };
    },

    async list(accountId: string) {
      await service.flushUsage(); // this node's counts of the last few seconds, so the list is current
      const rows = await repo.listKeys(db, accountId);
      const counts = await repo.requestsLastDay(
        db,
        rows.map((r) => r.id),
      );
      return { items: rows.map((r) => toApiKeyDto(r, counts.get(r.id) ?? 0, now())) };
    },

    async get(accountId: string, id: string) {
      await service.flushUsage(); // as the list: the key's last use and counts are current
      return dtoOf(await getRow(accountId, id));
    },

    async update(accountId: string, id: string, patch: ApiKeyUpdate) {
      const body = parseInput(apiKeyUpdateSchema, patch);
      const current = await getRow(accountId, id);
      if (current.revoked_at) {
        throw new AppError(ErrorCode.CONFLICT, 'This key is revoked; create a new key instead');
      }
      if (body.expiresAt !== undefined) checkExpiry(body.expiresAt);
      assertWebhookUrl('webhookUrl', body.webhookUrl, deps.allowPrivateWebhooks ?? false);
      const row = await repo.updateKey(db, accountId, id, {
        ...(body.name !== undefined && { name: body.name }),
        ...(body.scopes !== undefined && { scopes: [...new Set(body.scopes)] }),
        ...(body.ipAllowlist !== undefined && { ip_allowlist: canonicalAllowlist(body.ipAllowlist) }),
        ...(body.expiresAt !== undefined && { expires_at: body.expiresAt ? new Date(body.expiresAt) : null }),
        ...(body.rateLimitPerMinute !== undefined && { rate_limit_per_minute: body.rateLimitPerMinute }),
        ...(body.webhookUrl !== undefined && { webhook_url: body.webhookUrl }),
      });
      if (!row) throw notFound('API key');
      forget(row);
      return dtoOf(row);
    },

    /** Revokes at once on this node; other nodes stop accepting it within KEY_CACHE_MS. */
    async revoke(accountId: string, id: string) {
      const current = await getRow(accountId, id);
      const row = current.revoked_at
        ? current
        : await repo.updateKey(db, accountId, id, { revoked_at: new Date() });
      if (!row) throw notFound('API key');
      forget(row);
      return dtoOf(row);
    },

    /** A new secret for the same key (settings and history kept); the old secret stops working. */
    async rotate(accountId: string, id: string): Promise<ApiKeyCreated> {
      const current = await getRow(accountId, id);
      if (current.revoked_at) {
        throw new AppError(ErrorCode.CONFLICT, 'This key is revoked; create a new key instead');
      }
      const { secret, prefix, hash } = newSecret();
      const row = await repo.rotateSecret(db, accountId, current, { prefix, secret_hash: hash });
      if (!row) throw notFound('API key');
      forget(current);
      return { key: await dtoOf(row), secret };
    },

    async report(accountId: string, id: string, days: number): Promise<Omit<ApiKeyReport, 'deliveries'>> {
      await service.flushUsage();
      const row = await getRow(accountId, id);
      const [usageRows, top, totals, currency] = await Promise.all([
        repo.usageByDay(db, id, days),
        repo.topErrors(db, id, days),
        repo.messageTotals(db, accountId, id, days),
        db.selectFrom('accounts').select('currency').where('id', '=', accountId).executeTakeFirstOrThrow(),
      ]);
      const byDay = new Map<string, { ok: number; clientErrors: number; serverErrors: number }>();
      for (let i = days - 1; i >= 0; i--) {
        const d = new Date(now() - i * 86_400_000).toISOString().slice(0, 10);
        byDay.set(d, { ok: 0, clientErrors: 0, serverErrors: 0 });
      }
      for (const u of usageRows) {
        const slot = byDay.get(u.day);
        if (!slot) continue;
        if (u.status_class >= 5) slot.serverErrors += u.n;
        else if (u.status_class === 4) slot.clientErrors += u.n;
        else slot.ok += u.n;
      }
      return {
        key: await dtoOf(row),
        days: [...byDay].map(([day, v]) => ({ day, ...v })),
        messages: {
          count: totals.count,
          costMinor: totals.cost,
          currency: totals.currency ?? currency.currency,
        },
        topErrors: top.map((t) => ({ code: t.code, count: t.count })),
      };
    },

    /** Forgets this node's cached keys of an account (its lock takes effect here at once). */
    forgetAccount(accountId: string) {
      for (const [prefix, entry] of cache) if (entry.row?.account_id === accountId) cache.delete(prefix);
    },

    /** Whether a bearer token is an API key (rather than a session's access token). */
    looksLikeKey,

    /**
     * Authenticates one /v1 request. Order: the key exists and its hash matches (401), it is not
     * revoked or expired (401), the caller's IP is allowed (403), the scope is granted (403), the
     * rate limit has room (429). Returns the principal and the rate-limit decision (for headers).
     */
    async authenticate(
      secret: string,
      ip: string,
      scope: ApiScope | undefined,
    ): Promise<{ principal: ApiKeyPrincipal; rate: RateDecision }> {
      if (!looksLikeKey(secret)) throw new ApiKeyError('key_invalid', 'This API key is not valid');
      const entry = await loadKey(prefixOf(secret));
      const row = entry.row;
      if (!row || !sameHash(hashSecret(secret), row.secret_hash)) {
        const retired = entry.retired;
        if (retired && sameHash(hashSecret(secret), retired.secret_hash)) {
          throw new ApiKeyError(
            'key_revoked',
            `This API key was rotated on ${retired.retired_at.toISOString()}; use its new secret`,
          );
        }
        throw new ApiKeyError('key_invalid', 'This API key is not valid');
      }
      if (row.revoked_at) throw new ApiKeyError('key_revoked', 'This API key has been revoked');
      if (row.expires_at && row.expires_at.getTime() <= now()) {
        throw new ApiKeyError('key_expired', 'This API key has expired');
      }
      if (!row.created_by) throw new ApiKeyError('key_revoked', 'The user who created this key is gone');
      if (row.account_locked_at) {
        throw new ApiKeyError(
          'account_locked',
          'This account is locked; contact support to have it unlocked',
        );
      }
      if (!entry.allowed(ip)) {
        service.recordUsage(row.id, 403, 'ip_not_allowed', ip);
        throw new ApiKeyError('ip_not_allowed', `Requests from ${ip} are not allowed for this key`);
      }
      if (scope && !row.scopes.includes(scope)) {
        service.recordUsage(row.id, 403, 'scope_missing', ip);
        throw new ApiKeyError('scope_missing', `This key lacks the "${scope}" scope`);
      }
      // Once per key and minute on this node: the other nodes' count so far (rate-limiter.ts).
      if (limiter.needsPrime(row.id)) {
        await limiter.prime(row.id, counter).catch((err: unknown) => {
          deps.logger.warn({ err }, 'rate-limit counter unavailable; limiting on this node only');
        });
      }
      const rate = limiter.take(row.id, row.rate_limit_per_minute ?? deps.defaultRateLimitPerMinute);
      if (!rate.allowed) {
        service.recordUsage(row.id, 429, 'rate_limited', ip);
        throw new ApiKeyError(
          'rate_limited',
          `Rate limit of ${rate.limit} requests per minute reached; retry in ${rate.resetSeconds} s`,
          { 'Retry-After': String(rate.resetSeconds), ...rateHeaders(rate) },
        );
      }
      return {
        principal: {
          keyId: row.id,
          accountId: row.account_id,
          userId: row.created_by,
          prefix: displayPrefix(row.prefix),
          scopes: row.scopes as ApiScope[],
          webhookUrl: row.webhook_url,
        },
        rate,
      };
    },

    /** Counts one answered request of a key (flushed to the hourly usage table). */
    recordUsage(keyId: string, status: number, errorCode: string | null, ip: string | null) {
      const t = new Date(now());
      const hour = new Date(t.getTime() - (t.getTime() % 3_600_000));
      const statusClass = Math.floor(status / 100);
      const k = `${keyId}|${hour.getTime()}|${statusClass}`;
      const u = usage.get(k);
      if (u) u.requests += 1;
      else usage.set(k, { keyId, hour, statusClass, requests: 1 });
      if (errorCode) {
        const day = t.toISOString().slice(0, 10);
        const ek = `${keyId}|${day}|${errorCode}`;
        const e = errors.get(ek);
        if (e) e.requests += 1;
        else errors.set(ek, { keyId, day, code: errorCode, requests: 1 });
      }
      touched.set(keyId, { keyId, at: t, ip });
    },

    async flushUsage() {
      const [u, e, t] = [usage, errors, touched];
      usage = new Map();
      errors = new Map();
      touched = new Map();
      try {
        await repo.addUsage(db, [...u.values()]);
        await repo.addErrors(db, [...e.values()]);
        await repo.touchKeys(db, [...t.values()]);
      } catch (err) {
        deps.logger.warn({ err }, 'API key usage flush failed; counts of this interval are lost');
      }
    },

    /** Starts the periodic usage flush; returns a function that stops it and flushes once more. */
    startFlushing() {
      const timer = setInterval(() => void service.flushUsage(), FLUSH_MS);
      timer.unref();
      const rateTimer = setInterval(() => void service.syncRateLimits(), RATE_SYNC_MS);
      rateTimer.unref();
      return async () => {
        clearInterval(timer);
        clearInterval(rateTimer);
        await service.flushUsage();
      };
    },

    /** Shares this node's rate-limit counts with the cluster (every RATE_SYNC_MS once started). */
    async syncRateLimits() {
      try {
        await limiter.sync(counter);
        if (now() - ratePurgedAt > 60_000) {
          ratePurgedAt = now();
          await repo.purgeRateWindows(db);
        }
      } catch (err) {
        deps.logger.warn({ err }, 'rate-limit counter sync failed; retried at the next interval');
      }
    },

    async lastCall(accountId: string) {
      await service.flushUsage();
      const row = await repo.lastCall(db, accountId);
      return row?.last_used_at
        ? { at: row.last_used_at.toISOString(), ip: row.last_used_ip, keyPrefix: displayPrefix(row.prefix) }
        : null;
    },

    async prefixes(accountId: string) {
      const rows = await repo.listKeys(db, accountId);
      return rows.filter((r) => statusOf(r, now()) === 'active').map((r) => displayPrefix(r.prefix));
    },
  };
  return service;
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateHeaders(rate: RateDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(rate.limit),
    'RateLimit-Remaining': String(rate.remaining),
    'RateLimit-Reset': String(rate.resetSeconds),
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
