import { sql } from 'kysely';
import type { Db } from '../../platform/db';

const profileColumns = [
  'u.id',
  'u.account_id',
  'u.username',
  'u.name',
  'u.email',
  'u.phone',
  'u.role',
  'u.timezone',
  'u.locale',
  'u.created_at',
] as const;

export type ProfileRow = Awaited<ReturnType<typeof findProfile>> & {};

export async function findProfile(db: Db, userId: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('user_pictures as p', 'p.user_id', 'u.id')
    .select([...profileColumns, sql<boolean>`p.user_id IS NOT NULL`.as('has_picture')])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

export async function insertAccount(db: Db, a: { name: string; currency: string }) {
  return db.insertInto('accounts').values(a).returning(['id']).executeTakeFirstOrThrow();
}

export async function insertUser(
  db: Db,
  u: {
    accountId: string;
    username: string;
    name: string;
    email: string;
    phone: string;
    passwordHash: string;
  },
) {
  return db
    .insertInto('users')
    .values({
      account_id: u.accountId,
      username: u.username,
      name: u.name,
      email: u.email,
      phone: u.phone,
      password_hash: u.passwordHash,
      updated_at: new Date(),
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}

export async function updateProfile(
  db: Db,
  userId: string,
  patch: { name?: string; email?: string; phone?: string; timezone?: string; locale?: string },
) {
  await db
    .updateTable('users')
    .set({ ...patch, updated_at: new Date() })
    .where('id', '=', userId)
    .execute();
}

export async function emailTakenByOther(db: Db, email: string, userId: string) {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('id', '!=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function setRole(db: Db, username: string, role: 'user' | 'admin') {
  const r = await db
    .updateTable('users')
    .set({ role, updated_at: new Date() })
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .returning('id')
    .executeTakeFirst();
  return r?.id ?? null;
}

export async function upsertPicture(db: Db, userId: string, contentType: string, bytes: Uint8Array) {
  await db
    .insertInto('user_pictures')
    .values({ user_id: userId, content_type: contentType, bytes, updated_at: new Date() })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ content_type: contentType, bytes, updated_at: new Date() }),
    )
    .execute();
}

export async function findPicture(db: Db, userId: string) {
  return db
    .selectFrom('user_pictures')
    .select(['content_type', 'bytes', 'updated_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function deletePicture(db: Db, userId: string) {
  await db.deleteFrom('user_pictures').where('user_id', '=', userId).execute();
}
