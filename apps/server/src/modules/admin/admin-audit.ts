import type { AuditPage } from '@wren/contracts';
import { z } from 'zod';
import type { Db } from '../../platform/db';
import { decodeCursor, encodeCursor } from '../../shared/cursor';
import * as audit from '../audit/audit.service';
import type { Operator } from './operator';

const idCursor = z.object({ id: z.number().int().positive() });

/** The audit log as operators search it, and audit entries for what they decide elsewhere. */
export function createAdminAudit(db: Db) {
  return {
    async auditLog(q: {
      kind?: string;
      accountId?: string;
      actor?: string;
      from?: string;
      to?: string;
      cursor?: string;
      limit: number;
    }): Promise<AuditPage> {
      const before = q.cursor ? decodeCursor(q.cursor, idCursor).id : undefined;
      const rows = await audit.search(db, {
        kind: q.kind,
        accountId: q.accountId,
        actor: q.actor,
        from: q.from ? new Date(q.from) : undefined,
        to: q.to ? new Date(q.to) : undefined,
        beforeId: before,
        limit: q.limit + 1,
      });
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        items: page.map((r) => ({
          id: String(r.id),
          createdAt: r.created_at.toISOString(),
          kind: r.kind,
          message: r.message,
          ip: r.ip,
          accountId: r.account_id,
          accountName: r.account_name,
          actorUserId: r.actor_user_id,
          actorUsername: r.actor_username,
          resourceType: r.resource_type,
          resourceId: r.resource_id,
        })),
        nextCursor: rows.length > q.limit && last ? encodeCursor({ id: Number(last.id) }) : null,
      };
    },

    /** Audits something an operator did elsewhere (sender ID decisions, exports). */
    record(op: Operator, e: Omit<audit.AuditInput, 'userId' | 'actorUserId' | 'ip'>) {
      return audit.recordAudit(db, { ...e, userId: null, actorUserId: op.userId, ip: op.ip });
    },
  };
}
