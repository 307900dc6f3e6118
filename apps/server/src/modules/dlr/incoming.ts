import type { DeliveryReceipt } from '../../gateway/sms-gateway';
import type { findParts } from '../messages/receipt-port';

/** A receipt on its way through matching: fresh from the gateway, waiting for its part, or parked. */
export interface Incoming {
  receipt: DeliveryReceipt;
  parkedId?: number;
  /** 0 on arrival; counts the rounds it waited for parts that were still being stored. */
  tries: number;
  /** When it arrived (ms): it waits for its part at most WAIT_FOR_PARTS_MS, then is parked. */
  since: number;
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
