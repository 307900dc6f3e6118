import type { PrefixRate } from '@wren/contracts';
import type { ShapingCursor } from '../../db/schema-campaigns';
import { FieldError } from '../../platform/errors';

/**
 * Delivery shaping (issue 41 item 3): when each message of a shaped campaign may go.
 *
 * - Batches: `batchSize` messages, then a pause of `batchPauseSeconds`, then the next batch. With a
 *   campaign rate too, the k-th message goes at `k × 60 / rate` seconds plus one pause per batch
 *   before it: the pause comes after a batch has gone at the rate, not instead of the rate.
 * - Prefix rates: numbers under a prefix (the longest that matches) go at that prefix's own rate,
 *   each prefix on its own cursor, so a slow network does not hold the others back.
 *
 * The schedule is a pure function of a message's position and the cursor kept on the campaign's row
 * (bulk_campaigns.shaping), written in the materialiser's transaction with the messages it timed, so
 * a crash keeps both or neither. When the schedule has fallen behind the clock (a pause, a resume, a
 * node down) it starts again from now instead of sending the backlog at once.
 */

export interface Shaping {
  batchSize: number | null;
  batchPauseSeconds: number | null;
  ratePerMinute: number | null;
  /** Digits without the +, longest first. */
  prefixRates: readonly PrefixRate[];
}

/** How far ahead of the clock the materialiser gives messages a time (and queues them). */
export const SHAPING_LOOKAHEAD_MS = 60_000;
/** A schedule this far behind the clock starts again from now. */
const BEHIND_MS = 1_000;

/** The rates as stored: digits without the +, longest prefix first; a prefix given twice is refused. */
export function normalisePrefixRates(rates: readonly PrefixRate[] | undefined): PrefixRate[] {
  const out = (rates ?? []).map((r) => ({ prefix: r.prefix.replace(/^\+/, ''), perMinute: r.perMinute }));
  const seen = new Set<string>();
  for (const [i, r] of out.entries()) {
    if (seen.has(r.prefix))
      throw new FieldError({ [`prefixRates.${i}.prefix`]: [`+${r.prefix} is given twice`] });
    seen.add(r.prefix);
  }
  return out.sort((a, b) => b.prefix.length - a.prefix.length);
}

/** Batches need both a size and a pause. */
export function checkBatches(batchSize: number | undefined, pause: number | undefined): void {
  if ((batchSize === undefined) !== (pause === undefined))
    throw new FieldError(
      batchSize === undefined
        ? { batchSize: ['Give the batch size with the pause between batches'] }
        : { batchPauseSeconds: ['Give the pause between batches with the batch size'] },
    );
}

/** The rated prefix a number (E.164 digits, no +) falls under, or null. `rates` longest first. */
export function prefixOf(rates: readonly PrefixRate[], digits: string): PrefixRate | null {
  for (const r of rates) if (digits.startsWith(r.prefix)) return r;
  return null;
}

/** Recipients per rated prefix (the scan's count, for the projected finish). */
export function countPrefixes(
  rates: readonly PrefixRate[],
  phones: Iterable<string>,
  into: Record<string, number>,
): void {
  for (const phone of phones) {
    const r = prefixOf(rates, phone);
    if (r) into[r.prefix] = (into[r.prefix] ?? 0) + 1;
  }
}

const batched = (s: Shaping): s is Shaping & { batchSize: number; batchPauseSeconds: number } =>
  s.batchSize !== null && s.batchPauseSeconds !== null;

/** Milliseconds after the schedule's start that message `k` (0-based, in order) may go. */
export function offsetOf(s: Shaping, k: number): number {
  if (!batched(s)) return 0;
  const pauses = Math.floor(k / s.batchSize) * s.batchPauseSeconds * 1000;
  return pauses + (s.ratePerMinute ? (k * 60_000) / s.ratePerMinute : 0);
}

/**
 * The cursor to time messages from position `k0` on at `now`: a new or fallen-behind schedule
 * starts at now (message k0 goes at once); each rated prefix's cursor is brought up to now too.
 */
export function currentCursor(
  s: Shaping,
  cursor: ShapingCursor | null,
  k0: number,
  now: number,
): ShapingCursor {
  let start = cursor?.start ?? null;
  if (start === null || start + offsetOf(s, k0) < now - BEHIND_MS) start = now - offsetOf(s, k0);
  const prefixes: ShapingCursor['prefixes'] = {};
  for (const r of s.prefixRates) {
    const c = cursor?.prefixes[r.prefix];
    prefixes[r.prefix] = { at: Math.max(c?.at ?? now, now), n: c?.n ?? 0 };
  }
  return { start, prefixes };
}

/**
 * How many messages from position `k0` on the batch schedule lets go within the look-ahead (at most
 * `max`): those are given a time and queued now, the rest wait for a later pass. No batches: `max`.
 */
export function roomAhead(s: Shaping, cursor: ShapingCursor, k0: number, now: number, max: number): number {
  if (!batched(s) || max <= 0) return Math.max(0, max);
  const horizon = now + SHAPING_LOOKAHEAD_MS;
  if (cursor.start + offsetOf(s, k0) > horizon) return 0;
  // The offset grows with k: the last position within the horizon, by bisection.
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (cursor.start + offsetOf(s, k0 + mid - 1) <= horizon) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * When each of `phones` (in order, from position `k0`) may go, as epoch ms, and the cursor after
 * them (`cursor` is updated in place). The later of its batch time and its prefix's next slot.
 */
export function timeMessages(
  s: Shaping,
  cursor: ShapingCursor,
  k0: number,
  phones: readonly string[],
): number[] {
  return phones.map((phone, i) => {
    let at = cursor.start + offsetOf(s, k0 + i);
    const r = prefixOf(s.prefixRates, phone);
    if (r) {
      const c = cursor.prefixes[r.prefix];
      at = Math.max(at, c.at);
      c.at = at + 60_000 / r.perMinute;
      c.n += 1;
    }
    return at;
  });
}

export const isShaped = (s: Shaping) => batched(s) || s.prefixRates.length > 0;

/**
 * When the last of a sending campaign's messages should go (epoch ms), from its shaping: the batch
 * schedule's last position, the slowest prefix's cursor plus its recipients left, or the campaign
 * rate alone. `left` is the number not yet given a time; null when nothing shapes it.
 */
export function shapedFinish(
  s: Shaping,
  cursor: ShapingCursor | null,
  counts: Record<string, number> | null,
  k0: number,
  left: number,
  now: number,
): number | null {
  let finish: number | null = null;
  const later = (t: number) => (finish = finish === null ? t : Math.max(finish, t));
  const c = currentCursor(s, cursor, k0, now);
  if (batched(s)) later(left > 0 ? c.start + offsetOf(s, k0 + left - 1) : now);
  else if (s.ratePerMinute && left > 0) later(now + ((left - 1) * 60_000) / s.ratePerMinute);
  for (const r of s.prefixRates) {
    const p = c.prefixes[r.prefix];
    const rest = Math.max(0, (counts?.[r.prefix] ?? 0) - p.n);
    if (rest > 0) later(p.at + ((rest - 1) * 60_000) / r.perMinute);
  }
  return finish;
}
