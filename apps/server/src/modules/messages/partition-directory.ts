import type { Db } from '../../platform/db';
import { messageIdTime } from '../../shared/message-uuid';
import { listMonthPartitions, partitionName } from './partitions';

/**
 * WHICH MONTHLY PARTITION OF `messages` HOLDS A MESSAGE (migration 0018).
 *
 * A message's id is a UUIDv7: its first 48 bits are the time it was made, and each monthly
 * partition `messages_pYYYYMM` holds the ids of its UTC month. A statement that names the partition
 * instead of `messages` is planned once per connection (a generic plan: nothing left to prune),
 * while one on `messages` with the ids as an array is planned on every call, with every partition to
 * consider. The dispatcher's and the receipts' status moves are such statements: on 29 partitions a
 * `sent` move of 28 messages took 1.5–1.9 ms a call on `messages` and 0.25 ms on its month's
 * partition (PostgreSQL 15, no rows moved: planning and executor start-up only).
 *
 * `of(ids)` names the partition only when it is sure the rows are there: every id is a v7 UUID of
 * the same month, and that month's partition exists (PostgreSQL refuses to create a partition while
 * the DEFAULT partition, `messages_legacy`, holds rows of its range, so rows of an existing month
 * are always in it). Otherwise (v4 ids of old rows, a batch across a month's end, a month without
 * a partition yet) the answer is undefined: use `messages`. The list of partitions is read on first
 * use and again when a month is missing from it, at most once a minute, in the background: `of` is
 * asked inside the status moves' transactions, which must never wait for a second pooled connection
 * (enough transactions waiting so would hold every connection of the pool). Until the list is read,
 * the answer is undefined.
 */
export interface PartitionDirectory {
  of(ids: readonly string[]): string | undefined;
  /** Reads the list of partitions now (tests; `of` reads it by itself in the background). */
  refresh(): Promise<void>;
}

const REFRESH_MS = 60_000;

/** `messages_pYYYYMM` for a v7 UUID (by its time, UTC), or undefined for any other id. */
export function monthPartitionOf(id: string): string | undefined {
  const at = messageIdTime(id); // the version digit and the hex time read the same in any case
  return at && Number.isFinite(at.getTime()) ? partitionName(at) : undefined;
}

export function createPartitionDirectory(db: Db, now: () => number = Date.now): PartitionDirectory {
  let names: Set<string> | null = null;
  let loadedAt = 0;
  let loading: Promise<void> | null = null;

  const load = () =>
    (loading ??= listMonthPartitions(db)
      .then((list) => {
        names = new Set(list.map((p) => p.name));
        loadedAt = now();
      })
      .finally(() => {
        loading = null;
      }));

  return {
    of(ids) {
      const first = ids[0];
      if (first === undefined) return undefined;
      const name = monthPartitionOf(first);
      if (name === undefined) return undefined;
      for (const id of ids) if (monthPartitionOf(id) !== name) return undefined;
      if (loading === null && (names === null || (!names.has(name) && now() - loadedAt >= REFRESH_MS))) {
        loadedAt = now(); // a failed read is tried again a minute later, not on every call
        void load().catch(() => undefined);
      }
      return names?.has(name) ? name : undefined;
    },
    refresh: () => load(),
  };
}
