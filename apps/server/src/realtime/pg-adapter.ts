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
  const clients = new Set<pg.Client>();
  pool.on('connect', (client) => {
    client.on('error', onError);
    clients.add(client);
    client.on('end', () => clients.delete(client));
  });
  const adapter = createAdapter(pool, { tableName: ATTACHMENTS_TABLE, errorHandler: onError });
  return {
    adapter,
    /**
     * Ends the pool. A listener still connecting when the hub closes is checked out afterwards and
     * never released, and pool.end() would wait for it forever: after a grace period, such
     * connections are ended directly.
     */
    close: async () => {
      const ended = pool.end();
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 1000)));
      const outcome = await Promise.race([ended.then(() => 'ended' as const), grace]);
      clearTimeout(timer);
      if (outcome === 'late') {
        await Promise.all([...clients].map((c) => c.end().catch(() => undefined)));
      }
    },
  };
}
