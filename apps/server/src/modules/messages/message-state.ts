import { FINAL_STATUSES, MESSAGE_STATUSES, type MessageStatus } from '@wren/contracts';

/**
 * The message state machine, declared once (ARCHITECTURE.md §5). A status only moves along these
 * arrows; every writer of `messages.status` goes through `transition()` (status.repository.ts), which
 * takes its `from` states from here, so a late or duplicate event can never move a message back.
 */
export const TRANSITIONS = {
  // Scheduled for later: joins the queue at its time, or is canceled by the user.
  scheduled: ['queued', 'canceled'],
  // Waiting to be sent: claimed by a worker, or it ran out of validity or attempts first.
  queued: ['sending', 'expired', 'failed', 'canceled'],
  // Held by a worker: the SMSC accepted it, refused it, or it goes back to the queue (retry, lease).
  sending: ['sent', 'queued', 'rejected', 'failed'],
  // Accepted by the SMSC: its receipt ends it, or `unknown` when the receipt is unclear or never came.
  sent: ['delivered', 'undelivered', 'expired', 'rejected', 'unknown'],
  delivered: [],
  undelivered: [],
  expired: [],
  rejected: [],
  failed: [],
  canceled: [],
  unknown: [],
} as const satisfies { [S in MessageStatus]: readonly MessageStatus[] };

type Table = typeof TRANSITIONS;

/** The statuses from which `To` may be reached. */
export type FromOf<To extends MessageStatus> = {
  [S in MessageStatus]: To extends Table[S][number] ? S : never;
}[MessageStatus];

export function canTransition(from: MessageStatus, to: MessageStatus): boolean {
  return (TRANSITIONS[from] as readonly MessageStatus[]).includes(to);
}

/** Every status from which `to` may be reached, per the table. */
export function fromStatesOf<To extends MessageStatus>(to: To): FromOf<To>[] {
  return MESSAGE_STATUSES.filter((s) => canTransition(s, to)) as FromOf<To>[];
}

export const isFinalStatus = (s: MessageStatus): boolean => FINAL_STATUSES.includes(s);
