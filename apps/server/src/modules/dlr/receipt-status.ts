/** Receipt `stat` values that end a part, and the message status each maps to. */
export const FINAL_STAT_STATUS: Record<string, string> = {
  DELIVRD: 'delivered',
  UNDELIV: 'undelivered',
  EXPIRED: 'expired',
  REJECTD: 'rejected',
  DELETED: 'undelivered',
  UNKNOWN: 'undelivered',
};

export const isFinalStat = (stat: string | null | undefined) => !!stat && stat in FINAL_STAT_STATUS;

/** A message is delivered only when every part is; otherwise the first failing part decides. */
export function messageStatusFromParts(stats: string[]): string {
  const failing = stats.find((s) => s !== 'DELIVRD');
  return FINAL_STAT_STATUS[failing ?? 'DELIVRD'] ?? 'undelivered';
}
