import { sql } from 'kysely';
import type { Db } from '../../platform/db';

export interface AuditInput {
  accountId: string | null;
  userId: string | null;
  kind: string;
  message: string;
  ip?: string | null;
  /** Who did it when that is not the account's own user (an operator); defaults to userId. */
  actorUserId?: string | null;
  resourceType?: string | null;
  resourceId?: string | null;
}

/** Appends one entry; the table refuses UPDATE, DELETE and TRUNCATE (migration 0012_admin.sql). */
export async function recordAudit(db: Db, e: AuditInput) {
  await db
    .insertInto('audit_log')
    .values({
      account_id: e.accountId,
      user_id: e.userId,
      kind: e.kind,
      message: e.message,
      ip: e.ip ?? null,
      actor_user_id: e.actorUserId ?? e.userId,
      resource_type: e.resourceType ?? null,
      resource_id: e.resourceId ?? null,
    })
    .execute();
}

export async function listRecent(db: Db, accountId: string, limit: number) {
  return db
    .selectFrom('audit_log')
    .select(['id', 'kind', 'message', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export interface AuditFilter {
  kind?: string;
  accountId?: string;
  /** A username (exact, any case) of the actor. */
  actor?: string;
  from?: Date;
  to?: Date;
  /** Keyset: entries with a smaller id. */
  beforeId?: number;
  limit: number;
}

/** The whole log, newest first, for operators. */
export async function search(db: Db, f: AuditFilter) {
  let q = db
    .selectFrom('audit_log as l')
    .leftJoin('accounts as a', 'a.id', 'l.account_id')
    .leftJoin('users as u', 'u.id', 'l.actor_user_id')
    .select([
      'l.id',
      'l.created_at',
      'l.kind',
      'l.message',
      'l.ip',
      'l.account_id',
      'a.name as account_name',
      'l.actor_user_id',
      'u.username as actor_username',
      'l.resource_type',
      'l.resource_id',
    ]);
  if (f.kind) {
    // "auth" matches auth.login, auth.locked …; "auth.login" matches only itself.
    q = f.kind.includes('.')
      ? q.where('l.kind', '=', f.kind)
      : q.where('l.kind', 'like', `${f.kind.replace(/[\\%_]/g, '\\$&')}.%`);
  }
  if (f.accountId) q = q.where('l.account_id', '=', f.accountId);
  if (f.actor) {
    const actor = f.actor;
    q = q.where('l.actor_user_id', 'in', (s) =>
      s
        .selectFrom('users as au')
        .select('au.id')
        .where(sql<string>`lower(au.username)`, '=', actor.toLowerCase()),
    );
  }
  if (f.from) q = q.where('l.created_at', '>=', f.from);
  if (f.to) q = q.where('l.created_at', '<', f.to);
  if (f.beforeId !== undefined) q = q.where('l.id', '<', f.beforeId);
  return q.orderBy('l.id', 'desc').limit(f.limit).execute();
}
