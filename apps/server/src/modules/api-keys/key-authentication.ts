import type { ApiScope } from '@wren/contracts';
import type { Db } from '../../platform/db';
import type { ApiKeyPrincipal } from '../../platform/http/principals';
import type { Logger } from '../../platform/logger';
import { ApiKeyError } from './api-key-error';
import * as repo from './api-keys.repository';
import { compileAllowlist } from './ip-allowlist';
import { displayPrefix, hashSecret, looksLikeKey, prefixOf, sameHash } from './key-secret';
import { createRateLimiter, type RateDecision, type SharedCounter } from './rate-limiter';

/** How long a node trusts a key it looked up: a revoke or rotate elsewhere is seen within this. */
export const KEY_CACHE_MS = 5_000;
/** How often a node shares its rate-limit counts (the cluster-wide overshoot is bounded by it). */
const RATE_SYNC_MS = 250;

export type { ApiKeyPrincipal };

interface CachedKey {
  row: (repo.ApiKeyRow & { account_locked_at?: Date | null }) | null;
  /** With no live key of this prefix: the secret a rotation retired, if it was one. */
  retired?: { secret_hash: Buffer; retired_at: Date };
  allowed: (ip: string) => boolean;
  until: number;
}

interface Deps {
  db: Db;
  logger: Logger;
  now: () => number;
  defaultRateLimitPerMinute: number;
  /** Counts one answered request of a key (key-usage). */
  recordUsage: (keyId: string, status: number, errorCode: string | null, ip: string | null) => void;
}

/**
 * The per-request authentication of /v1: prefix lookup cached for KEY_CACHE_MS, hash compare,
 * expiry, IP allowlist, scope, and the per-key rate limit shared across nodes.
 */
export function createKeyAuthentication(deps: Deps) {
  const { db, now, recordUsage } = deps;
  const cache = new Map<string, CachedKey>();
  const limiter = createRateLimiter(now);
  let ratePurgedAt = 0;
  const counter: SharedCounter = {
    add: (rows) => repo.addRateWindows(db, rows),
    read: (keyId, start) => repo.readRateWindow(db, keyId, start),
  };

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

  /** Shares this node's rate-limit counts with the cluster (every RATE_SYNC_MS once started). */
  async function syncRateLimits() {
    try {
      await limiter.sync(counter);
      if (now() - ratePurgedAt > 60_000) {
        ratePurgedAt = now();
        await repo.purgeRateWindows(db);
      }
    } catch (err) {
      deps.logger.warn({ err }, 'rate-limit counter sync failed; retried at the next interval');
    }
  }

  return {
    /** Drops a key from this node's cache and rate limiter (after an edit, revoke or rotate). */
    forget,

    /** Forgets this node's cached keys of an account (its lock takes effect here at once). */
    forgetAccount: (accountId: string) => {
      for (const [prefix, entry] of cache) if (entry.row?.account_id === accountId) cache.delete(prefix);
    },

    /** Whether a bearer token is an API key (rather than a session's access token). */
    looksLikeKey,

    /**
     * Authenticates one /v1 request. Order: the key exists and its hash matches (401), it is not
     * revoked or expired (401), the caller's IP is allowed (403), the scope is granted (403), the
     * rate limit has room (429). Returns the principal and the rate-limit decision (for headers).
     */
    authenticate: async (
      secret: string,
      ip: string,
      scope: ApiScope | undefined,
    ): Promise<{ principal: ApiKeyPrincipal; rate: RateDecision }> => {
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
        recordUsage(row.id, 403, 'ip_not_allowed', ip);
        throw new ApiKeyError('ip_not_allowed', `Requests from ${ip} are not allowed for this key`);
      }
      if (scope && !row.scopes.includes(scope)) {
        recordUsage(row.id, 403, 'scope_missing', ip);
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
        recordUsage(row.id, 429, 'rate_limited', ip);
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

    syncRateLimits,

    /** Starts the rate-limit sync (every RATE_SYNC_MS); returns a function that stops it. */
    startSyncing() {
      const rateTimer = setInterval(() => void syncRateLimits(), RATE_SYNC_MS);
      rateTimer.unref();
      return () => clearInterval(rateTimer);
    },
  };
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers). */
export function rateHeaders(rate: RateDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(rate.limit),
    'RateLimit-Remaining': String(rate.remaining),
    'RateLimit-Reset': String(rate.resetSeconds),
  };
}
