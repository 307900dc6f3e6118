import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL for the fault run: Wren's nodes connect through it, and the
 * schedule cuts every connection (as a network partition or a failover does) or stalls them (bytes
 * held, not dropped, as a congested link does). `upstream` can move (PostgreSQL restarted on another
 * port).
 */
export interface PgProxy {
  port: number;
  setUpstream(port: number): void;
  /** Destroys every open connection, both sides. */
  cut(): number;
  /** Holds all traffic for `ms` (new connections wait too). */
  stall(ms: number): void;
  close(): Promise<void>;
}

export async function startPgProxy(upstreamPort: number): Promise<PgProxy> {
  let upstream = upstreamPort;
  const pairs = new Set<[Socket, Socket]>();
  let stalledUntil = 0;
  const whenFlowing = (fn: () => void) => {
    const wait = stalledUntil - Date.now();
    if (wait > 0) setTimeout(fn, wait);
    else fn();
  };

  const server: Server = createServer((client) => {
    client.pause();
    whenFlowing(() => {
      const db = connect({ host: '127.0.0.1', port: upstream });
      const pair: [Socket, Socket] = [client, db];
      pairs.add(pair);
      const end = () => {
        pairs.delete(pair);
        client.destroy();
        db.destroy();
      };
      client.on('error', end).on('close', end);
      db.on('error', end).on('close', end);
      const pipe = (from: Socket, to: Socket) =>
        from.on('data', (chunk: Buffer) => {
          const wait = stalledUntil - Date.now();
          if (wait <= 0) {
            if (!to.write(chunk)) from.pause();
            return;
          }
          from.pause();
          setTimeout(() => {
            to.write(chunk);
            from.resume();
          }, wait);
        });
      pipe(client, db);
      pipe(db, client);
      db.on('drain', () => client.resume());
      client.on('drain', () => db.resume());
      client.resume();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    setUpstream: (p) => (upstream = p),
    cut() {
      const n = pairs.size;
      for (const [a, b] of [...pairs]) {
        a.destroy();
        b.destroy();
      }
      pairs.clear();
      return n;
    },
    stall(ms) {
      stalledUntil = Math.max(stalledUntil, Date.now() + ms);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [a, b] of pairs) {
          a.destroy();
          b.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
