import { API_SCOPES, type ApiKeyDto, type ApiScope } from '@wren/contracts';
import * as repo from './api-keys.repository';
import { displayPrefix } from './key-secret';

/** A key's status at `now` (epoch ms): revoked, expired or active. */
export function statusOf(row: repo.ApiKeyRow, now: number): ApiKeyDto['status'] {
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
