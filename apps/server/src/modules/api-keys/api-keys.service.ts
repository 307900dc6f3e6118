import {
  type ApiKeyCreated,
  type ApiKeyInput,
  apiKeyInputSchema,
  type ApiKeyReport,
  type ApiKeyUpdate,
  apiKeyUpdateSchema,
  ErrorCode,
} from '@wren/contracts';
import type { Clock } from '../../platform/clock';
import { nowMs } from '../../platform/clock';
import type { Db } from '../../platform/db';
import { AppError, notFound } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { parseInput } from '../../shared/parse-input';
import { assertWebhookUrl } from '../webhooks/url-guard';
import { statusOf, toApiKeyDto } from './api-key-dto';
import { canonicalAllowlist, checkExpiry } from './api-key-input';
import * as repo from './api-keys.repository';
import { createKeyAuthentication } from './key-authentication';
import { displayPrefix, newSecret } from './key-secret';
import { createKeyUsage } from './key-usage';

// The module's public face for the platform's context and the /v1 guard.
export { rateHeaders, type ApiKeyPrincipal } from './key-authentication';

const FLUSH_MS = 5_000;

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
  const usage = createKeyUsage({ db, logger: deps.logger, now });
  const auth = createKeyAuthentication({
    db,
    logger: deps.logger,
    now,
    defaultRateLimitPerMinute: deps.defaultRateLimitPerMinute,
    recordUsage: usage.recordUsage,
  });
  const { forget } = auth;

  async function getRow(accountId: string, id: string) {
    const row = await repo.findKey(db, accountId, id);
    if (!row) throw notFound('API key');
    return row;
  }

  async function dtoOf(row: repo.ApiKeyRow) {
    const counts = await repo.requestsLastDay(db, [row.id]);
    return toApiKeyDto(row, counts.get(row.id) ?? 0, now());
  }

  const service = {
    async create(input: { accountId: string; userId: string; body: ApiKeyInput }): Promise<ApiKeyCreated> {
      const body = parseInput(apiKeyInputSchema, input.body);
      checkExpiry(body.expiresAt, now());
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
      if (body.expiresAt !== undefined) checkExpiry(body.expiresAt, now());
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
    forgetAccount: auth.forgetAccount,
    /** Whether a bearer token is an API key (rather than a session's access token). */
    looksLikeKey: auth.looksLikeKey,
    authenticate: auth.authenticate,
    recordUsage: usage.recordUsage,
    flushUsage: usage.flushUsage,
    syncRateLimits: auth.syncRateLimits,

    /** Starts the periodic usage flush; returns a function that stops it and flushes once more. */
    startFlushing() {
      const timer = setInterval(() => void service.flushUsage(), FLUSH_MS);
      timer.unref();
      const stopSyncing = auth.startSyncing();
      return async () => {
        clearInterval(timer);
        stopSyncing();
        await service.flushUsage();
      };
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

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
