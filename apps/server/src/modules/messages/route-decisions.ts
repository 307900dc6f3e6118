import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { RouteNote } from '../../gateway/sms-gateway';
import type { Db } from '../../platform/db';

/** Decisions a worker remembers the id of (forgotten all at once beyond this: they are read again). */
const CACHED_DECISIONS = 10_000;

/** The five fields of a decision as one string, as 0053 keys them (md5 of the fields joined by US). */
const keyOf = (connection: string, r: RouteNote) =>
  [connection, r.routeName, r.strategy, String(r.costMicros), r.reason].join('\u001f');

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

/**
 * The ids of routing decisions (route_decisions, 0053): a routed message's move to `sent` names its
 * decision by id, so the decision's text is stored once, not once per message. A worker keeps the
 * ids it has seen; a new decision is written (or found) in a statement of its own, before the
 * transition that names it, so an id is only ever used once committed.
 */
export function createRouteDecisions(db: Db) {
  const ids = new Map<string, number>();
  return {
    /** The id of each routed item's decision, by message id (items without a route have none). */
    async resolve(
      items: readonly { id: string; connection: string; route?: RouteNote | undefined }[],
    ): Promise<Map<string, number>> {
      if (ids.size > CACHED_DECISIONS) ids.clear();
      const out = new Map<string, number>();
      const missing = new Map<string, { connection: string; route: RouteNote }>();
      const keys: [string, string][] = [];
      for (const it of items) {
        if (!it.route) continue;
        const key = keyOf(it.connection, it.route);
        keys.push([it.id, key]);
        if (!ids.has(key)) missing.set(key, { connection: it.connection, route: it.route });
      }
      if (missing.size > 0) {
        const list = [...missing];
        const rows = await sql<{ id: number; key: string }>`
          INSERT INTO route_decisions (key, connection, route_name, strategy, cost_micros, reason)
          SELECT * FROM unnest(${list.map(([k]) => md5(k))}::text[], ${list.map(([, v]) => v.connection)}::text[],
                               ${list.map(([, v]) => v.route.routeName)}::text[],
                               ${list.map(([, v]) => v.route.strategy)}::text[],
                               ${list.map(([, v]) => v.route.costMicros)}::bigint[],
                               ${list.map(([, v]) => v.route.reason)}::text[])
          ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key
          RETURNING id, key`.execute(db);
        const byMd5 = new Map(rows.rows.map((r) => [r.key, r.id]));
        for (const [k] of list) {
          const id = byMd5.get(md5(k));
          if (id !== undefined) ids.set(k, id);
        }
      }
      for (const [messageId, key] of keys) {
        const id = ids.get(key);
        if (id !== undefined) out.set(messageId, id);
      }
      return out;
    },
  };
}

export type RouteDecisions = ReturnType<typeof createRouteDecisions>;
