import type { Db } from '../../platform/db';

export interface AuditInput {
  accountId: string | null;
  userId: string | null;
  kind: string;
  message: string;
  ip?: string | null;
}

export async function recordAudit(db: Db, e: AuditInput) {
  await db
    .insertInto('audit_log')
    .values({
      account_id: e.accountId,
      user_id: e.userId,
      kind: e.kind,
      message: e.message,
      ip: e.ip ?? null,
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
