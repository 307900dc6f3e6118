import type { DeliveryReceipt } from '../../gateway/sms-gateway';
import type { findParts } from '../messages/receipt-port';

/** A receipt on its way through matching: fresh from the gateway, waiting for its part, or parked. */
export interface Incoming {
  receipt: DeliveryReceipt;
  parkedId?: number;
  /** When a parked one was parked (ms): recent ones count as evidence that a notation changed. */
  parkedAt?: number;
  /** 0 on arrival; counts the rounds it waited for parts that were still being stored. */
  tries: number;
  /** When it arrived (ms): it waits for its part at most WAIT_FOR_PARTS_MS, then is parked. */
  since: number;
  /**
   * Whether it may still wait for its part, decided once per round (by `startRound`): the matcher
   * and the parking step must agree, or a receipt judged "early" by one is parked by the other when
   * the 2 s pass between the two checks (seen on a loaded machine: a duplicate receipt parked as
   * "no part" instead of being recorded as ignored).
   */
  fresh?: boolean;
  done: { resolve: () => void; reject: (e: unknown) => void };
}

export type Part = Awaited<ReturnType<typeof findParts>>[number];
export type Matched = { k: Incoming; hit: Part };
export type Miss = { k: Incoming; reason: string };

export const NO_PART = 'no part with this id yet';
export const LEARNING = 'the id notation of this connection is still being learned';
/** Reasons that start so are logged as warnings when parked. */
export const AMBIGUOUS = 'ambiguous';
export const CONTRADICTION = 'contradiction';

/**
 * How long a receipt with no part yet waits (unacknowledged) for the dispatcher to store parts: it
 * is tried again after every `parts.stored` event and every WAIT_ROUND_MS, then parked.
 */
export const WAIT_FOR_PARTS_MS = 2000;
export const WAIT_ROUND_MS = 250;

/**
 * A receipt parked this recently still counts as evidence that its connection's learned notation
 * changed: its part may be stored only after its wait was over (a loaded database), and then only a
 * retry of the parked receipt can show the contradiction.
 */
export const RECENTLY_PARKED_MS = 10 * 60 * 1000;

/**
 * After a notation change, a receipt whose own part (in the new notation) is not stored goes to the
 * one open part its id names in the notation before only once it has been parked this long: under
 * load, parts are stored seconds after their receipts come, and receipt "100" of the new run then
 * named the new run's open part "64" (0x64) in the old notation and was given that message's outcome
 * (CI: 2 of 300 messages). Its own part, once stored, takes it instead.
 */
export const PREVIOUS_FALLBACK_MS = 10_000;

/** Parked at least PREVIOUS_FALLBACK_MS ago. */
export const parkedLongEnough = (k: Incoming, now = Date.now()) =>
  k.parkedAt !== undefined && now - k.parkedAt >= PREVIOUS_FALLBACK_MS;

/** Why a receipt waits, parked, before the notation used before a change is tried for it. */
export const OLD_NOTATION_ONLY = `${AMBIGUOUS}: no part has this id yet; in the notation used before it changed it names an open part`;

/** Fresh, or parked recently enough to be evidence of a notation change. */
export const isEvidence = (k: Incoming, now = Date.now()) =>
  k.parkedId === undefined || (k.parkedAt !== undefined && now - k.parkedAt < RECENTLY_PARKED_MS);

/** Decides, for this round, which receipts may still wait for their parts. */
export function startRound(batch: Incoming[], now = Date.now()) {
  for (const k of batch) k.fresh = now - k.since < WAIT_FOR_PARTS_MS;
}

/** May this receipt still wait for its part in this round? (Decided by `startRound`.) */
export const mayWait = (k: Incoming) => k.fresh ?? Date.now() - k.since < WAIT_FOR_PARTS_MS;
