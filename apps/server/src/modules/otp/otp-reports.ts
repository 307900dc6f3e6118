import { maskPhone, type OtpStats, type OtpVerificationPage } from '@wren/contracts';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/db';
import { FieldError } from '../../platform/errors';
import { decodeCursor, encodeCursor, timeIdCursor } from '../../shared/cursor';
import { postgresTimeZone } from '../../shared/time-zones';
import { maskRange } from './otp-number';
import { requireService } from './otp-services';
import * as repo from './otp.repository';

async function validTimezone(db: Db, tz: string | undefined): Promise<string> {
  if (!tz) return 'UTC';
  const zone = await postgresTimeZone(db, tz);
  if (!zone) throw new FieldError({ timezone: [`Unknown time zone: ${tz}`] });
  return zone;
}

/** An OTP service's report: its days, and its verifications with the ranges the guard blocks. */
export function createOtpReports(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  return {
    async stats(accountId: string, id: string, q: { timezone?: string; days: number }): Promise<OtpStats> {
      await requireService(db, accountId, id);
      const timezone = await validTimezone(db, q.timezone);
      const rows = await repo.daily(db, id, timezone, q.days, clock.now());
      return {
        timezone,
        days: rows.map((r) => ({
          ...r,
          conversion: r.sends ? Math.round((r.approved / r.sends) * 10_000) / 10_000 : 0,
        })),
      };
    },

    async verifications(
      accountId: string,
      id: string,
      q: { cursor?: string; limit: number },
    ): Promise<OtpVerificationPage> {
      const svc = await requireService(db, accountId, id);
      const after = q.cursor ? decodeCursor(q.cursor, timeIdCursor) : null;
      const rows = await repo.listVerifications(
        db,
        id,
        after ? { createdAt: new Date(after[0]), id: after[1] } : null,
        q.limit + 1,
      );
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      const blocked = q.cursor ? [] : await repo.listBlockedRanges(db, id, clock.now());
      return {
        items: page.map((r) => ({
          id: r.id,
          to: maskPhone(r.recipient),
          status: r.status,
          attempts: r.attempts,
          maxAttempts: r.max_attempts,
          messageStatus: r.message_status ?? null,
          messageId: r.message_id,
          blockedReason: r.blocked_reason,
          createdAt: r.created_at.toISOString(),
          expiresAt: r.expires_at.toISOString(),
          approvedAt: r.approved_at?.toISOString() ?? null,
        })),
        nextCursor:
          rows.length > q.limit && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null,
        blockedRanges: blocked.map((b) => ({
          range: maskRange(b.range_prefix, svc.velocity_range_digits),
          reason: b.reason,
          until: b.blocked_until.toISOString(),
        })),
      };
    },
  };
}
