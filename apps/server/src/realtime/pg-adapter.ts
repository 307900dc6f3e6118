import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { Logger } from '../platform/logger';

/** Created by migration 0004_socket_io.sql; the adapter does not create it. */
export const ATTACHMENTS_TABLE = 'socket_io_attachments';

/**
 * The Socket.IO PostgreSQL adapter, so `io.to(room).emit` reaches sockets on every node: it
 * publishes with NOTIFY and holds one pooled connection on LISTEN. Its own small pool (2
 * connections: the listener, and one for NOTIFY and cleanup) is closed by `close()`.
 */
export function createPgAdapter(databaseUrl: string, logger: Logger) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const onError = (err: Error) => logger.warn({ err }, 'hub adapter: database error');
  pool.on('error', onError);
  // The listener connection stays checked out, where the pool no longer handles its errors.
  pool.on('connect', (client) => client.on('error', onError));
  const adapter = createAdapter(pool, { tableName: ATTACHMENTS_TABLE, errorHandler: onError });
  return {
    adapter,
    close: () => pool.end(),
  };
}
