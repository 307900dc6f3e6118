import { FINAL_STATUSES, type MessageDto } from '@wren/contracts';

export const FAST_REFRESH_MS = 3_000;
export const SLOW_REFRESH_MS = 30_000;
/** A message still in flight this long after it was sent is unlikely to change soon. */
const RECENT_MS = 10 * 60_000;

const isFinal = (m: MessageDto) => FINAL_STATUSES.includes(m.status);

/**
 * How often a view of these messages refreshes: every 3 s while one is on its way (queued,
 * sending or sent recently) or due within a minute; every 30 s while one is scheduled later or has
 * waited long for its receipt; not at all once every message is final.
 */
export function refreshInterval(messages: MessageDto[], now = Date.now()): number | false {
  let interval: number | false = false;
  for (const m of messages) {
    if (isFinal(m)) continue;
    if (m.status === 'scheduled') {
      const due = m.scheduledAt ? new Date(m.scheduledAt).getTime() : now;
      if (due - now <= 60_000) return FAST_REFRESH_MS;
      interval = SLOW_REFRESH_MS;
      continue;
    }
    const since = new Date(m.submittedAt ?? m.createdAt).getTime();
    if (now - since <= RECENT_MS) return FAST_REFRESH_MS;
    interval = SLOW_REFRESH_MS;
  }
  return interval;
}

/** Whether a message's status can still change. */
export const canChange = (m: MessageDto) => !isFinal(m);
