import { v7 } from 'uuid';

/**
 * Message ids are time-ordered UUIDv7 (RFC 9562): the first 48 bits are the Unix time in
 * milliseconds, then the version (7), 12 random bits, the variant (10) and 62 random bits. Ids made
 * in one process are also strictly increasing (the `uuid` package's monotonic counter).
 *
 * `messages` is partitioned by RANGE on its id, one partition per UTC month (migration 0018): a
 * month's ids are the contiguous range [lowestMessageIdAt(month start), lowestMessageIdAt(next
 * month start)), so a lookup by id alone is pruned to one partition.
 */
export function newMessageId(): string {
  return v7();
}

/**
 * The lowest UUIDv7 of instant `at`: its 48-bit Unix milliseconds, version 7, variant 10, every
 * other bit zero. Every v7 id made at `at` or later sorts at or above it, every one made earlier
 * below it. Same as wren_uuidv7_floor() in migration 0018.
 */
export function lowestMessageIdAt(at: Date): string {
  const ms = Math.floor(at.getTime());
  if (!Number.isFinite(ms) || ms < 0 || ms > 0xffff_ffff_ffff) throw new RangeError(`no UUIDv7 for ${at}`);
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

/** The instant (whole milliseconds) a UUIDv7 was made at; null for another version. */
export function messageIdTime(id: string): Date | null {
  if (id[14] !== '7') return null;
  return new Date(parseInt(id.slice(0, 8) + id.slice(9, 13), 16));
}
