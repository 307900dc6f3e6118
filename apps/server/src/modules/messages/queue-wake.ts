import { sql } from 'kysely';
import type { Db } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import { listenChannel } from '../../platform/pg-listener';

/** The channel on which API nodes tell worker nodes that messages are ready (payload: a priority). */
export const QUEUED_CHANNEL = 'wren_queued';

/**
 * On an API-only node (`--role api`): messages it queues are announced to the worker nodes with one
 * NOTIFY per turn of the event loop (carrying the most urgent priority queued in it), so a worker's
 * dispatcher claims them at once instead of at its next idle poll (200 ms), which is most of an
 * OTP's latency budget. A node with its own dispatcher wakes it in-process (the 'messages.queued'
 * event) and announces nothing. Lost announcements cost only that poll.
 */
export function startQueueWakePublisher(deps: { db: Db; events: EventBus; logger: Logger }) {
  let pending: number | null = null;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const priority = pending;
    pending = null;
    if (priority === null) return;
    sql`SELECT pg_notify(${QUEUED_CHANNEL}, ${String(priority)})`
      .execute(deps.db)
      .catch((err: unknown) => deps.logger.debug({ err }, 'queue wake: NOTIFY failed; workers poll'));
  };
  return deps.events.subscribe('messages.queued', (e) => {
    const p = e.priority ?? Number.MAX_SAFE_INTEGER;
    pending = pending === null ? p : Math.min(pending, p);
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  });
}

/** On a worker node: wakes its dispatcher on each announcement (and after a gap in listening). */
export function listenQueueWake(opts: {
  databaseUrl: string | undefined;
  logger: Logger;
  wake: (priority?: number) => void;
}) {
  return listenChannel({
    databaseUrl: opts.databaseUrl,
    channel: QUEUED_CHANNEL,
    logger: opts.logger,
    onNotify: (payload) => {
      const priority = Number(payload);
      opts.wake(Number.isFinite(priority) ? priority : undefined);
    },
    // Announcements missed while disconnected: treat as urgent work possibly waiting.
    onGap: () => opts.wake(0),
  });
}
