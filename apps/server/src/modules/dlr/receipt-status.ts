import type { MessageStatus } from '@wren/contracts';

/** Receipt `stat` values that end a part, and the message status each maps to. */
const FINAL_STAT_STATUS = new Map<string, FinalReceiptStatus>([
  ['DELIVRD', 'delivered'],
  ['UNDELIV', 'undelivered'],
  ['EXPIRED', 'expired'],
  ['REJECTD', 'rejected'],
  ['DELETED', 'undelivered'],
  ['UNKNOWN', 'undelivered'],
]);

/** The message statuses a delivery receipt can end in. */
export type FinalReceiptStatus = Extract<MessageStatus, 'delivered' | 'undelivered' | 'expired' | 'rejected'>;

/** The final stats, once (SQL uses this list too). */
export const FINAL_STATS: readonly string[] = [...FINAL_STAT_STATUS.keys()];

export const isFinalStat = (stat: string | null | undefined): stat is string =>
  stat !== null && stat !== undefined && FINAL_STAT_STATUS.has(stat);

/** The message status a final stat maps to. */
export function statusOfStat(stat: string): FinalReceiptStatus {
  return FINAL_STAT_STATUS.get(stat) ?? 'undelivered';
}

/**
 * A message is delivered only when every part is; otherwise the first failing part decides, and its
 * stat and error are the message's.
 */
export function messageOutcomeFromParts(parts: { stat: string; err: string | null }[]): {
  status: FinalReceiptStatus;
  stat: string;
  err: string | null;
} {
  const worst = parts.find((p) => p.stat !== 'DELIVRD') ?? parts[0];
  if (!worst) return { status: 'undelivered', stat: 'UNKNOWN', err: null };
  return { status: statusOfStat(worst.stat), stat: worst.stat, err: worst.err };
}
