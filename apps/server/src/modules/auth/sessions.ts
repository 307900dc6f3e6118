import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { nowMs, type Clock } from '../../platform/clock';
import { afterCommit, type Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import { listenChannel, type PgListener } from '../../platform/pg-listener';

/** The PostgreSQL channel session invalidations are announced on (payload: node id and target). */
export const SESSIONS_CHANNEL = 'wren_sessions_invalidated';

/**
 * How long a node trusts that a session it checked is still active. Only the fallback bound: an
 * invalidation reaches every listening node by NOTIFY at its commit; a node whose listener is down
 * forgets everything when it drops and again when it reconnects, and hears of nothing in between,
 * so this is the most a session can outlive its revocation there.
 */
export const SESSION_CACHE_MS = 5_000;

/**
 * Which sessions an invalidation ends: one, all of a user's (but one), a member's for one account
 * (a role change or removal, issue 39), or all of an account's users'.
 */
export type SessionTarget =
  | { sessionId: string }
  | { userId: string; exceptSessionId?: string }
  | { memberId: string; accountId: string }
  | { accountId: string };

/** What a session belongs to (access-token claims, a hub socket's auth). */
export interface SessionOwner {
  sessionId: string;
  userId: string;
  accountId: string;
}

/** Whether `target` covers the session `s`. */
export function targets(target: SessionTarget, s: SessionOwner): boolean {
  if ('sessionId' in target) return s.sessionId === target.sessionId;
  if ('userId' in target) return s.userId === target.userId && s.sessionId !== target.exceptSessionId;
  if ('memberId' in target) return s.userId === target.memberId && s.accountId === target.accountId;
  return s.accountId === target.accountId;
}

/**
 * Called on this node for each invalidation that has committed (made here or heard from another
 * node), or with null when the node may have missed some (its listener connection dropped).
 */
export type InvalidationListener = (target: SessionTarget | null) => void;

/**
 * The one mechanism that ends sessions. Every action that must sign someone out (logout, password
 * change and reset, a sign-in lock, an operator's lock, a role change, a refresh token's reuse)
 * calls `invalidate`, which, in the caller's transaction, revokes the sessions (their refresh
 * tokens die with them) and announces them by NOTIFY (delivered at commit, nothing on a rollback);
 * this node forgets them at once and again after the commit, every other node when the NOTIFY
 * arrives, and listeners (the hub, which disconnects the sessions' sockets) hear of it on each node.
 */
export function createSessions(deps: { db: Db; clock: Clock; logger: Logger }) {
  const { db, clock } = deps;
  const node = randomUUID();
  /** Sessions checked active recently: until when they are trusted, and whose they are. */
  const remembered = new Map<string, { until: number; userId: string; accountId: string }>();
  /** Bumped by every invalidation: a check that started before one does not remember its answer. */
  let generation = 0;
  const listeners = new Set<InvalidationListener>();
  let listener: PgListener | null = null;

  function forget(target: SessionTarget | null) {
    generation += 1;
    if (!target) return remembered.clear();
    for (const [sessionId, s] of remembered)
      if (targets(target, { sessionId, ...s })) remembered.delete(sessionId);
  }

  function applied(target: SessionTarget | null) {
    forget(target);
    for (const l of listeners) {
      try {
        l(target);
      } catch (err) {
        deps.logger.error({ err }, 'session invalidation listener failed');
      }
    }
  }

  function revoke(trx: Db, target: SessionTarget, reason: string) {
    let q = trx
      .updateTable('sessions')
      .set({ revoked_at: new Date(), revoked_reason: reason })
      .where('revoked_at', 'is', null);
    if ('sessionId' in target) q = q.where('id', '=', target.sessionId);
    else if ('userId' in target) {
      q = q.where('user_id', '=', target.userId);
      if (target.exceptSessionId) q = q.where('id', '!=', target.exceptSessionId);
    } else if ('memberId' in target) {
      q = q.where('user_id', '=', target.memberId).where('account_id', '=', target.accountId);
    } else {
      const { accountId } = target;
      q = q.where((eb) =>
        eb.or([
          eb('account_id', '=', accountId),
          eb('user_id', 'in', (s) => s.selectFrom('users').select('id').where('account_id', '=', accountId)),
        ]),
      );
    }
    return q.executeTakeFirst();
  }

  const sessions = {
    /**
     * Ends the target's sessions with `reason` (sessions.revoked_reason). Pass the transaction the
     * change that calls for it is made in, so both commit together; returns how many ended.
     */
    async invalidate(target: SessionTarget, reason: string, trx: Db = db): Promise<number> {
      const res = await revoke(trx, target, reason);
      await sql`SELECT pg_notify(${SESSIONS_CHANNEL}, ${JSON.stringify({ node, target })})`.execute(trx);
      forget(target);
      afterCommit(trx, () => applied(target));
      return Number(res.numUpdatedRows);
    },

    /** Whether a session is still active; remembered for SESSION_CACHE_MS after a database check. */
    async isActive(claims: SessionOwner): Promise<boolean> {
      const seen = remembered.get(claims.sessionId);
      if (seen !== undefined && seen.until > nowMs(clock) && seen.userId === claims.userId) return true;
      const before = generation;
      const row = await db
        .selectFrom('sessions')
        .select('id')
        .where('id', '=', claims.sessionId)
        .where('user_id', '=', claims.userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (!row) return false;
      if (generation === before) {
        if (remembered.size > 10_000) remembered.clear();
        remembered.set(claims.sessionId, {
          until: nowMs(clock) + SESSION_CACHE_MS,
          userId: claims.userId,
          accountId: claims.accountId,
        });
      }
      return true;
    },

    /** Of these session ids, the ones still active (a batch check after a missed notification). */
    async stillActive(sessionIds: string[]): Promise<Set<string>> {
      if (sessionIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('sessions')
        .select('id')
        .where('id', 'in', sessionIds)
        .where('revoked_at', 'is', null)
        .execute();
      return new Set(rows.map((r) => r.id));
    },

    /** Hears of each invalidation on this node (see InvalidationListener); returns the unsubscribe. */
    onInvalidated(l: InvalidationListener): () => void {
      listeners.add(l);
      return () => listeners.delete(l);
    },

    /**
     * Listens for other nodes' invalidations (API nodes; no-op without a database URL: the
     * embedded database serves one node). Close it with the app.
     */
    listen(databaseUrl: string | undefined): PgListener {
      listener = listenChannel({
        databaseUrl,
        channel: SESSIONS_CHANNEL,
        logger: deps.logger,
        onNotify: (payload) => {
          let message: { node?: string; target?: SessionTarget };
          try {
            message = JSON.parse(payload) as typeof message;
          } catch {
            return applied(null);
          }
          if (message.node === node) return; // applied here after its commit already
          applied(message.target ?? null);
        },
        onGap: () => applied(null),
      });
      return listener;
    },

    /** Resolves once the listener's first LISTEN is in place (tests). */
    ready: () => listener?.ready() ?? Promise.resolve(),
  };
  return sessions;
}

export type Sessions = ReturnType<typeof createSessions>;
