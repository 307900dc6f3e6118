import { createAdapter, type PostgresAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { Logger } from '../platform/logger';
import { broadcastInTurns } from './fanout';

type BroadcastOptions = Parameters<PostgresAdapter['broadcast']>[1];

/** Created by migration 0004_socket_io.sql; the adapter does not create it. */
export const ATTACHMENTS_TABLE = 'socket_io_attachments';

/** What the hub reads off its adapter: how broadcasts went out (tests and the hub bench). */
export interface BroadcastCounts {
  /** Broadcasts delivered to this node's sockets only (no other hub node was known). */
  local: number;
  /** Broadcasts published through NOTIFY as well (another hub node was known). */
  published: number;
}

/**
 * On a single node the cluster round trip is pure cost: the cluster adapter awaits its NOTIFY
 * before it delivers to its own sockets (issue #17: p99 471 ms at 10k sockets). The adapter knows
 * its peers from their heartbeats (`serverCount()` is 1 + the hub nodes heard within the heartbeat
 * timeout), so a broadcast while it knows none is marked `local` and never leaves the process.
 * Pushes from worker-role nodes (emitter.ts) still arrive through LISTEN, and a second hub node is
 * counted as soon as its first heartbeat arrives (it announces itself when it starts), from which
 * on broadcasts fan out through PostgreSQL again. A local broadcast is written a few dozen sockets
 * per turn of the event loop (fanout.ts).
 */
function localWhenAlone(adapter: PostgresAdapter, counts: BroadcastCounts): PostgresAdapter {
  const broadcast = adapter.broadcast.bind(adapter);
  const broadcastWithAck = adapter.broadcastWithAck.bind(adapter);
  const local = (opts: BroadcastOptions): BroadcastOptions => ({
    ...opts,
    flags: { ...opts.flags, local: true },
  });
  // serverCount() of the heartbeat adapter resolves at once from its in-memory node map.
  adapter.broadcast = async (packet: unknown, opts: BroadcastOptions) => {
    if (opts.flags?.local || (await adapter.serverCount()) > 1) {
      if (!opts.flags?.local) counts.published += 1;
      return broadcast(packet, opts);
    }
    counts.local += 1;
    return broadcastInTurns(adapter, broadcast, packet, local(opts));
  };
  adapter.broadcastWithAck = (packet, opts, clientCountCallback, ack) => {
    void adapter
      .serverCount()
      .then((servers) =>
        broadcastWithAck(packet, servers > 1 ? opts : local(opts), clientCountCallback, ack),
      );
  };
  return adapter;
}

/**
 * The Socket.IO PostgreSQL adapter, so `io.to(room).emit` reaches sockets on every node: it
 * publishes with NOTIFY and holds one pooled connection on LISTEN. Its own small pool (2
 * connections: the listener, and one for NOTIFY and cleanup) is closed by `close()`. While no
 * other hub node is known, broadcasts stay on this node (see localWhenAlone).
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
  const counts: BroadcastCounts = { local: 0, published: 0 };
  const create = createAdapter(pool, { tableName: ATTACHMENTS_TABLE, errorHandler: onError });
  // Socket.IO calls it with `new`: a function (not an arrow) whose returned object is the adapter.
  const adapter = function (nsp: unknown) {
    return localWhenAlone(create(nsp), counts);
  };
  return {
    adapter,
    counts,
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
