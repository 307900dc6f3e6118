import pg from 'pg';
import type { Logger } from './logger';

export interface PgListener {
  /** Resolves once the first LISTEN is in place (or failed and a retry is set). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTENs on `channel` over a connection of its own (a pooled connection would lose it) and calls
 * `onNotify` with each payload. Notifications sent while the connection is down are lost, so
 * `onGap` runs when it drops and again once it has reconnected: a listener that caches, or waits,
 * catches up there. No-op without a database URL (the embedded database serves one node only).
 */
export function listenChannel(opts: {
  databaseUrl: string | undefined;
  channel: string;
  logger: Logger;
  onNotify: (payload: string) => void;
  onGap?: () => void;
  retryMs?: number;
}): PgListener {
  // A constant of ours, written into the statement as it is (no quoting).
  if (!/^[a-z_][a-z0-9_]*$/.test(opts.channel)) throw new Error(`Bad channel name: ${opts.channel}`);
  const gap = () => opts.onGap?.();
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let ready: Promise<void> = Promise.resolve();

  const retry = () => {
    if (closed || timer) return;
    timer = setTimeout(() => {
      timer = null;
      ready = connect();
    }, opts.retryMs ?? 1000);
    timer.unref();
  };

  async function connect(): Promise<void> {
    if (closed || !opts.databaseUrl) return;
    // A connect that hangs must not hang close(): it gives up and is retried.
    const c = new pg.Client({ connectionString: opts.databaseUrl, connectionTimeoutMillis: 5000 });
    client = c;
    let dropped = false;
    const drop = (err?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (client === c) client = null;
      if (closed) return;
      opts.logger.warn({ err, channel: opts.channel }, 'listener connection lost; reconnecting');
      gap();
      void c.end().catch(() => undefined);
      retry();
    };
    c.on('error', drop);
    c.on('end', () => drop());
    c.on('notification', (n) => {
      if (n.channel === opts.channel) opts.onNotify(n.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${opts.channel}`);
      if (closed) {
        await c.end().catch(() => undefined);
        return;
      }
      // Whatever was announced while no listener was connected.
      gap();
    } catch (err) {
      drop(err);
    }
  }

  ready = connect();
  return {
    ready: () => ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      // End the client first (a connect in progress fails at once), then let connect() finish.
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
      await ready.catch(() => undefined);
    },
  };
}
