import {
  DEFAULT_LOCALE,
  ErrorCode,
  LOCALES,
  PICTURE_MAX_BYTES,
  type Locale,
  type UpdateProfileInput,
  type User,
} from '@wren/contracts';
import { type Db, transact } from '../../platform/db';
import { AppError, FieldError, notFound } from '../../platform/errors';
import { toE164 } from '../../shared/phone';
import { recordAudit } from '../audit/audit.service';
import { sniffImageType } from './picture';
import type { Sessions } from '../auth/sessions';
import * as repo from './users.repository';
import { postgresTimeZone } from '../../shared/time-zones';

export function toUser(row: NonNullable<repo.ProfileRow>): User {
  return {
    id: row.id,
    accountId: row.account_id,
    username: row.username,
    name: row.name,
    email: row.email,
    phone: row.phone,
    role: row.role,
    timezone: row.timezone,
    locale: (LOCALES as readonly string[]).includes(row.locale) ? (row.locale as Locale) : DEFAULT_LOCALE,
    hasPicture: row.has_picture,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Creates an account and its first user, in the caller's transaction: registration (auth's
 * registration.ts) makes the account with its trial credit and signs the new user in. The users
 * module owns the `accounts` and `users` rows; auth creates them only through these.
 */
export function insertAccount(trx: Db, a: { name: string; currency: string }) {
  return repo.insertAccount(trx, a);
}

/** The account's first user (see insertAccount): registration's, in the same transaction. */
export function insertUser(trx: Db, u: Parameters<typeof repo.insertUser>[1]) {
  return repo.insertUser(trx, u);
}

export function createUsersService(deps: {
  db: Db;
  defaultCountry: string;
  /** Ends a user's sessions everywhere (a role change). */
  sessions: Pick<Sessions, 'invalidate'>;
}) {
  const { db } = deps;

  const normalisePhone = (phone: string) => {
    const e164 = toE164(phone, deps.defaultCountry);
    if (!e164) throw new FieldError({ phone: ['Enter a valid phone number, for example +14155550123'] });
    return e164;
  };

  const getProfile = async (userId: string, trx: Db = db): Promise<User> => {
    const row = await repo.findProfile(trx, userId);
    if (!row) throw notFound('User');
    return toUser(row);
  };

  return {
    normalisePhone,
    getProfile,

    async updateProfile(input: {
      userId: string;
      accountId: string;
      patch: UpdateProfileInput;
    }): Promise<User> {
      const patch = { ...input.patch };
      if (patch.phone !== undefined) patch.phone = normalisePhone(patch.phone);
      if (patch.timezone !== undefined) {
        const zone = await postgresTimeZone(db, patch.timezone);
        if (!zone) throw new FieldError({ timezone: ['Unknown time zone'] });
        patch.timezone = zone;
      }
      return transact(db, async (trx) => {
        if (patch.email && (await repo.emailTakenByOther(trx, patch.email, input.userId))) {
          throw new AppError(ErrorCode.EMAIL_TAKEN, 'That email address is already in use');
        }
        await repo.updateProfile(trx, input.userId, patch);
        await recordAudit(trx, {
          accountId: input.accountId,
          userId: input.userId,
          kind: 'profile.updated',
          message: 'Profile updated',
        });
        return getProfile(input.userId, trx);
      });
    },

    async setPicture(input: { userId: string; accountId: string; bytes: Uint8Array }): Promise<User> {
      if (input.bytes.length === 0) throw new AppError(ErrorCode.UNPROCESSABLE, 'The file is empty');
      if (input.bytes.length > PICTURE_MAX_BYTES) {
        throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'The picture must be 2 MB or smaller');
      }
      const type = sniffImageType(input.bytes);
      if (!type)
        throw new AppError(ErrorCode.UNSUPPORTED_MEDIA, 'The picture must be a PNG, JPEG, WebP or GIF image');
      return transact(db, async (trx) => {
        await repo.upsertPicture(trx, input.userId, type, input.bytes);
        await recordAudit(trx, {
          accountId: input.accountId,
          userId: input.userId,
          kind: 'profile.picture',
          message: 'Profile picture changed',
        });
        return getProfile(input.userId, trx);
      });
    },

    async getPicture(userId: string) {
      const pic = await repo.findPicture(db, userId);
      if (!pic) throw notFound('Picture');
      return { contentType: pic.content_type, bytes: Buffer.from(pic.bytes), updatedAt: pic.updated_at };
    },

    async deletePicture(userId: string) {
      await repo.deletePicture(db, userId);
    },

    /** `wren user:promote`: sets the role and ends the user's sessions on every node (the role is in the token). */
    async promote(username: string, role: 'user' | 'admin' = 'admin') {
      const userId = await repo.setRole(db, username, role);
      if (!userId) throw notFound(`User "${username}"`);
      await deps.sessions.invalidate({ userId }, 'role_changed');
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
