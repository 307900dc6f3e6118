import DataLoader from 'dataloader';

/**
 * One statement for the lookups that many requests make at once: every `load(key)` made before the
 * event loop next reaches its check phase (setImmediate) is answered by one call of `loadMany`
 * with all their keys, in order. Nothing is cached: each request still reads the database as it is
 * when its own lookup runs, so an opt-out or an operator's new limit is never served stale.
 *
 * Why: on this machine a statement's round trip costs Wren more in `writev` (waking PostgreSQL's
 * process) than its query costs PostgreSQL. Under load, the requests of one turn of the event loop
 * share those writes (bench:api, one recipient per request: 39 % of Wren's busy time was in writev).
 * DataLoader's own schedule (after the current tick's promises) would batch only one request's
 * lookups; a turn of the event loop holds several requests.
 */
export function coalesced<K, V>(
  loadMany: (keys: readonly K[]) => Promise<V[]>,
  maxBatchSize = 500,
): (key: K) => Promise<V> {
  const loader = new DataLoader<K, V>(async (keys) => loadMany(keys), {
    cache: false,
    maxBatchSize,
    batchScheduleFn: (run) => setImmediate(run),
  });
  return (key) => loader.load(key);
}
