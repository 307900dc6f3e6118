import type { OtpServiceDto } from '@wren/contracts';
import type * as repo from './otp.repository';

/** An OTP service's last 24 hours (otp.repository countsSince). */
export type OtpServiceStats = { sends: number; approved: number; blocked: number };

export function toServiceDto(row: repo.OtpServiceRow, stats: OtpServiceStats | undefined): OtpServiceDto {
  const sends = stats?.sends ?? 0;
  const approved = stats?.approved ?? 0;
  return {
    id: row.id,
    name: row.name,
    senderId: row.sender_id,
    template: row.template,
    codeLength: row.code_length,
    codeType: row.code_type,
    ttlMinutes: row.ttl_minutes,
    maxAttempts: row.max_attempts,
    sendLimit: row.send_limit,
    sendWindowMinutes: row.send_window_minutes,
    resendCooldownSeconds: row.resend_cooldown_seconds,
    allowedCountries: row.allowed_countries,
    velocityMaxSends: row.velocity_max_sends,
    velocityWindowMinutes: row.velocity_window_minutes,
    velocityRangeDigits: row.velocity_range_digits,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    stats: {
      sends24h: sends,
      approved24h: approved,
      verificationRate24h: sends ? Math.round((approved / sends) * 10_000) / 10_000 : 0,
      blocked24h: stats?.blocked ?? 0,
    },
  };
}
