import { randomFillSync } from 'node:crypto';
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
  const random = randomBytes16();
  const now = Date.now();
  // The `uuid` package's own monotonic rule (v7.js updateV7State), kept here because it applies it
  // only when it draws the random bytes itself: a new millisecond starts a random 31-bit counter,
  // and ids within one millisecond count up from it (into the next millisecond if it wraps).
  if (now > state.msecs) {
    state.msecs = now;
    state.seq = ((random[6] & 0x7f) << 24) | (random[7] << 16) | (random[8] << 8) | random[9];
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs += 1;
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
}

const state = { msecs: -Infinity, seq: 0 };

/**
 * The random bytes of an id, cut from a pool filled 256 ids at a time: `uuid` asks the system for
 * 16 bytes per id (crypto.getRandomValues), 2.4 µs of a 100-recipient send's 39 µs per recipient
 * (bench:api). The bytes are the same CSPRNG's, each used once.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;
function randomBytes16(): Uint8Array {
  if (used + 16 > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
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
