import { microsToCost, type OperatorMessageDto, type SmsLogQuery } from '@wren/contracts';
import type { MessageDto, MessageEventDto } from '@wren/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import type { MessagesService } from '../messages/messages.service';

interface Carried {
  id: string;
  connection: string | null;
  route_name: string | null;
  strategy: string | null;
  cost_micros: string | null;
  segments: number | null;
  reason: string | null;
  routed_at: Date | null;
}

/** Each message's connection and, when a route chose it, the route and the carrier's cost. */
async function carriedBy(db: Db, accountId: string, ids: readonly string[]): Promise<Map<string, Carried>> {
  if (ids.length === 0) return new Map();
  const rows = await sql<Carried>`
    SELECT m.id, coalesce(d.connection, m.connection) AS connection, d.route_name, d.strategy,
           d.cost_micros::text AS cost_micros, m.segments,
           d.reason, CASE WHEN d.id IS NOT NULL THEN m.submitted_at END AS routed_at
      FROM messages m
      LEFT JOIN route_decisions d ON d.id = m.route_decision
     WHERE m.account_id = ${accountId}::uuid AND m.id = ANY(${sql.val(ids)}::uuid[])`.execute(db);
  return new Map(rows.rows.map((r) => [r.id, r]));
}

function withCarrier(m: MessageDto, c: Carried | undefined): OperatorMessageDto {
  const micros = c?.cost_micros === null || c?.cost_micros === undefined ? null : Number(c.cost_micros);
  return {
    ...m,
    connection: c?.connection ?? null,
    route:
      c && c.route_name !== null && micros !== null
        ? {
            name: c.route_name,
            strategy: c.strategy ?? '',
            cost: microsToCost(micros),
            totalCostMicros: micros * (c.segments ?? 0),
          }
        : null,
  };
}

/**
 * An account's SMS log for operators (issue 38 item 5): the customer's log, read through the
 * messages service with the same filters and pages, with each message's connection, route and
 * carrier cost. Admin only (the routes say so); scoped to the account in the path.
 */
export function createOperatorLog(db: Db, messages: MessagesService) {
  return {
    async page(accountId: string, q: SmsLogQuery) {
      const page = await messages.log(accountId, q);
      const carried = await carriedBy(
        db,
        accountId,
        page.items.map((m) => m.id),
      );
      return { items: page.items.map((m) => withCarrier(m, carried.get(m.id))), nextCursor: page.nextCursor };
    },

    async detail(
      accountId: string,
      id: string,
    ): Promise<{ message: OperatorMessageDto; events: MessageEventDto[] }> {
      const d = await messages.detail(accountId, id, { admin: true });
      const c = (await carriedBy(db, accountId, [id])).get(id);
      const events = [...d.events];
      // The routing decision, named with the move to sent (messages.route_decision), in its place.
      if (c?.routed_at && c.reason) {
        const at = new Date(c.routed_at).toISOString();
        events.push({
          id: `route-${id}`,
          status: 'sent',
          detail: `Routed: ${c.reason}`,
          raw: null,
          createdAt: at,
        });
        events.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
      }
      return { message: withCarrier(d.message, c), events };
    },
  };
}
