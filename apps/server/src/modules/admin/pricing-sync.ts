import { sql } from 'kysely';
import { type Db, afterCommit } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import { listenChannel } from '../../platform/pg-listener';

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
  return listenChannel({
    databaseUrl: opts.databaseUrl,
    channel: PRICING_CHANNEL,
    logger: opts.logger,
    onNotify: () => opts.invalidate(),
    onGap: () => opts.invalidate(),
    ...(opts.retryMs === undefined ? {} : { retryMs: opts.retryMs }),
  });
}
