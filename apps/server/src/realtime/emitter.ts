import type { HubServerEvents } from '@wren/contracts';
import { Emitter } from '@socket.io/postgres-emitter';
import pg from 'pg';
import type { EventBus } from '../platform/events';
import type { Logger } from '../platform/logger';
import { ATTACHMENTS_TABLE } from './pg-adapter';
import { mapEventsToPushes, type PushTarget } from './pushes';

const HUB_NAMESPACE = '/';

/**
 * The emitter (0.1.1) publishes `{ uid, type, data }`, but the adapter (0.5.0) hands a notification
 * to a namespace by its top-level `nsp` and drops it without one: so every emitted push was lost.
 * This pool adds `nsp` to the NOTIFY payload. (Attachments, for payloads over 8000 bytes or binary,
 * would still lack it; hub pushes are a name and at most a campaign id.)
 */
function withNamespace(pool: pg.Pool, nsp: string) {
  return {
    query(text: string, values?: unknown[]) {
      if (text.startsWith('SELECT pg_notify(') && typeof values?.[1] === 'string') {
        const document = JSON.parse(values[1]) as Record<string, unknown>;
        return pool.query(text, [values[0], JSON.stringify({ ...document, nsp })]);
      }
      return pool.query(text, values);
    },
  };
}

export interface PushEmitter {
  /** Stops mapping events and ends the emitter's pool. */
  close(): Promise<void>;
}

/**
 * Hub pushes from a node that serves no hub (`--role worker`): the same event → push mapping as
 * the hub (pushes.ts), published with NOTIFY through the Socket.IO PostgreSQL emitter to the API
 * nodes' PostgreSQL adapters, which deliver them to their sockets. Same channel and attachments
 * table as pg-adapter.ts.
 */
export function startPushEmitter(opts: {
  databaseUrl: string;
  events: EventBus;
  logger: Logger;
}): PushEmitter {
  const logger = opts.logger.child({ module: 'hub-emitter' });
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 2 });
  pool.on('error', (err) => logger.warn({ err }, 'hub emitter: database error'));
  // A checked-out client's connection can end too (database restart): never an uncaught error.
  pool.on('connect', (client) =>
    client.on('error', (err) => logger.warn({ err }, 'hub emitter: database error')),
  );
  const emitter = new Emitter<HubServerEvents>(withNamespace(pool, HUB_NAMESPACE), HUB_NAMESPACE, {
    tableName: ATTACHMENTS_TABLE,
  });
  const pushes = mapEventsToPushes(emitter satisfies PushTarget, opts.events, logger);
  return {
    close: async () => {
      pushes.stop();
      await pool.end();
    },
  };
}
