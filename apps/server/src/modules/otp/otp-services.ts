import {
  analyseSmsText,
  MAX_SEGMENTS,
  renderOtpText,
  sampleOtpCode,
  type CreateOtpServiceInput,
  type UpdateOtpServiceInput,
} from '@wren/contracts';
import type { Clock } from '../../platform/clock';
import { type Db, transact } from '../../platform/db';
import { AppError, FieldError, notFound } from '../../platform/errors';
import { checkCountryCodes } from '../../shared/phone';
import { toServiceDto } from './otp-service-dto';
import * as repo from './otp.repository';

export const serviceNotFound = () => notFound('OTP service');

/** The account's OTP service; 404 for another account's or an unknown one. */
export async function requireService(db: Db, accountId: string, id: string) {
  const row = await repo.findService(db, accountId, id);
  if (!row) throw serviceNotFound();
  return row;
}

function checkTemplateLength(t: {
  template: string;
  codeLength: number;
  codeType: 'numeric' | 'alphanumeric';
  ttlMinutes: number;
  name: string;
}) {
  const text = renderOtpText(t.template, {
    code: sampleOtpCode(t.codeLength, t.codeType),
    minutes: t.ttlMinutes,
    service: t.name,
  });
  const info = analyseSmsText(text);
  if (info.segments > MAX_SEGMENTS)
    throw new FieldError({ template: [`The message is too long: ${info.segments} parts`] });
}

interface Deps {
  db: Db;
  clock: Clock;
  /**
   * In `trx`: checks the account may send from this sender and keeps the account's sender ID of
   * that value from being deleted until `trx` ends (sender-ids' `lockSenderForUse`).
   */
  lockSender: (trx: Db, input: { accountId: string; value: string }) => Promise<string>;
  changed: (accountId: string, serviceId: string) => void;
}

/** An account's OTP services: their settings, listed with their last 24 hours. */
export function createOtpServices(deps: Deps) {
  const { db, clock, changed } = deps;

  /**
   * The service's own sender (none: the account's default), checked in `trx` and held until it
   * commits, so the sender ID cannot be deleted between the check and the save.
   */
  async function holdSender(trx: Db, accountId: string, senderId: string | undefined) {
    if (!senderId) return;
    try {
      await deps.lockSender(trx, { accountId, value: senderId });
    } catch (err) {
      if (err instanceof AppError) throw new FieldError({ senderId: [err.message] });
      throw err;
    }
  }

  async function withStats(rows: repo.OtpServiceRow[]) {
    const since = new Date(clock.now().getTime() - 86_400_000);
    const counts = await repo.countsSince(
      db,
      rows.map((r) => r.id),
      since,
    );
    const byId = new Map(counts.map((c) => [c.service_id, c]));
    return rows.map((r) => toServiceDto(r, byId.get(r.id)));
  }

  async function get(accountId: string, id: string) {
    const [dto] = await withStats([await requireService(db, accountId, id)]);
    return dto;
  }

  return {
    async list(accountId: string) {
      return { items: await withStats(await repo.listServices(db, accountId)) };
    },

    get,

    async create(accountId: string, input: CreateOtpServiceInput & { name: string; template: string }) {
      const v = {
        senderId: '',
        codeLength: 6,
        codeType: 'numeric' as const,
        ttlMinutes: 10,
        maxAttempts: 5,
        sendLimit: 5,
        sendWindowMinutes: 10,
        resendCooldownSeconds: 30,
        allowedCountries: [] as string[],
        velocityMaxSends: 20,
        velocityWindowMinutes: 10,
        velocityRangeDigits: 3,
        ...input,
      };
      checkCountryCodes('allowedCountries', v.allowedCountries);
      checkTemplateLength(v);
      const row = await transact(db, async (trx) => {
        await holdSender(trx, accountId, v.senderId);
        return repo.insertService(trx, {
          account_id: accountId,
          name: v.name,
          sender_id: v.senderId,
          template: v.template,
          code_length: v.codeLength,
          code_type: v.codeType,
          ttl_minutes: v.ttlMinutes,
          max_attempts: v.maxAttempts,
          send_limit: v.sendLimit,
          send_window_minutes: v.sendWindowMinutes,
          resend_cooldown_seconds: v.resendCooldownSeconds,
          allowed_countries: [...new Set(v.allowedCountries)],
          velocity_max_sends: v.velocityMaxSends,
          velocity_window_minutes: v.velocityWindowMinutes,
          velocity_range_digits: v.velocityRangeDigits,
          updated_at: new Date(),
        });
      });
      changed(accountId, row.id);
      return toServiceDto(row, undefined);
    },

    async update(accountId: string, id: string, p: UpdateOtpServiceInput) {
      const current = await requireService(db, accountId, id);
      checkCountryCodes('allowedCountries', p.allowedCountries);
      checkTemplateLength({
        template: p.template ?? current.template,
        codeLength: p.codeLength ?? current.code_length,
        codeType: p.codeType ?? current.code_type,
        ttlMinutes: p.ttlMinutes ?? current.ttl_minutes,
        name: p.name ?? current.name,
      });
      const row = await transact(db, async (trx) => {
        await holdSender(trx, accountId, p.senderId);
        return repo.updateService(trx, accountId, id, {
          name: p.name,
          sender_id: p.senderId,
          template: p.template,
          code_length: p.codeLength,
          code_type: p.codeType,
          ttl_minutes: p.ttlMinutes,
          max_attempts: p.maxAttempts,
          send_limit: p.sendLimit,
          send_window_minutes: p.sendWindowMinutes,
          resend_cooldown_seconds: p.resendCooldownSeconds,
          allowed_countries: p.allowedCountries ? [...new Set(p.allowedCountries)] : undefined,
          velocity_max_sends: p.velocityMaxSends,
          velocity_window_minutes: p.velocityWindowMinutes,
          velocity_range_digits: p.velocityRangeDigits,
        });
      });
      if (!row) throw serviceNotFound();
      changed(accountId, id);
      return get(accountId, id);
    },

    async remove(accountId: string, id: string) {
      if (!(await repo.deleteService(db, accountId, id))) throw serviceNotFound();
      changed(accountId, id);
    },
  };
}
