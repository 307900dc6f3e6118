import type { Logger } from '../platform/logger';
import { targets, type Sessions } from '../modules/auth/sessions';
import type { HubServer } from './hub-types';

/**
 * Disconnects this node's sockets whose session an invalidation ended (sessions.ts: made on this
 * node, or heard by NOTIFY from another). After a missed notification (null: the listener's
 * connection dropped) every socket's session is checked again in one query. Returns the unsubscribe.
 */
export function closeEndedSessions(
  io: HubServer,
  sessions: Pick<Sessions, 'onInvalidated' | 'stillActive'>,
  logger: Logger,
): () => void {
  return sessions.onInvalidated((target) => {
    const local = [...io.of('/').sockets.values()];
    if (target) {
      for (const socket of local) if (targets(target, socket.data.auth)) socket.disconnect(true);
      return;
    }
    sessions
      .stillActive([...new Set(local.map((s) => s.data.auth.sessionId))])
      .then((active) => {
        for (const socket of local) if (!active.has(socket.data.auth.sessionId)) socket.disconnect(true);
      })
      .catch((err: unknown) =>
        logger.warn({ err }, 'hub: could not check sessions after a missed notification'),
      );
  });
}
