import { sql } from 'kysely';
import pg from 'pg';
import { type Db, afterCommit } from '../../platform/db';
import type { Logger } from '../../platform/logger';

/** The PostgreSQL channel an operator's price change is announced on. */
export const PRICING_CHANNEL = 'wren_pricing_changed';

/**
 * Call inside the transaction that changes prices, the default plan or an account's plan. At its
 * commit PostgreSQL delivers a NOTIFY to every node listening (startPricingSync), and this node
 * drops its cache at once (before the response), so the next send anywhere is priced at the new
 * price instead of after the pricing cache's 60 s. A rollback announces nothing.
 */
export async function pricingChanged(trx: Db, invalidateHere: () => void) {
  await sql`SELECT pg_notify(${PRICING_CHANNEL}, '')`.execute(trx);
  afterCommit(trx, invalidateHere);
}

/**
 * Listens for PRICING_CHANNEL on a connection of its own and calls `invalidate` on each
 * notification. While the connection is down, notifications can be missed: it invalidates again
 * when it has reconnected (and when it drops), so a cache never outlives a missed change.
 * No-op without a database URL (the embedded database serves one node only).
 */
export function startPricingSync(opts: {
  databaseUrl: string | undefined;
  logger: Logger;
  invalidate: () => void;
  retryMs?: number;
}) {
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
    const c = new pg.Client({ connectionString: opts.databaseUrl });
    client = c;
    let dropped = false;
    const drop = (err?: unknown) => {
      if (dropped) return;
      dropped = true;
      if (client === c) client = null;
      if (closed) return;
      opts.logger.warn({ err }, 'pricing sync: listener connection lost; reconnecting');
      opts.invalidate();
      void c.end().catch(() => undefined);
      retry();
    };
    c.on('error', drop);
    c.on('end', () => drop());
    c.on('notification', (n) => {
      if (n.channel === PRICING_CHANNEL) opts.invalidate();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${PRICING_CHANNEL}`);
      if (closed) {
        await c.end().catch(() => undefined);
        return;
      }
      // Changes made while no listener was connected.
      opts.invalidate();
    } catch (err) {
      drop(err);
    }
  }

  ready = connect();
  return {
    /** Resolves once the first LISTEN is in place (or failed and a retry is set). */
    ready: () => ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await ready.catch(() => undefined);
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
