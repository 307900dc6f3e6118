/**
 * Whether a receipt's dates allow it to be about a part (issue 45). A receipt says when its message
 * was submitted (`submit date:`) and when it ended (`done date:`); a part knows when it was stored,
 * which is when the SMSC answered its submit_sm (message_parts.created_at). A receipt is never
 * applied to a part sent after the receipt's done date, or far from its submit date: such a match is
 * another message's id, met again (an SMSC's counter that started over, or a changed id notation).
 *
 * Tolerance: SMPP dates are minute precision (up to 60 s early) and written by the SMSC's clock,
 * which may be off by minutes, and some SMSCs write their local time rather than UTC: every offset
 * from UTC−12 to UTC+14 occurs. CLOCK_TOLERANCE_MS (15 hours either way) covers all of them with an
 * hour to spare, so a correct match is never refused; what it catches is a part sent the day before
 * or earlier. Within those 15 hours the dates cannot tell two messages apart; the id notation's own
 * checks (receipt-matching.ts) do.
 */

export const CLOCK_TOLERANCE_MS = 15 * 60 * 60 * 1000;

export interface ReceiptDates {
  submitDate?: Date | null;
  doneAt: Date | null;
}

/** Why a receipt cannot be about a part stored at `createdAt`, or undefined when its dates allow it. */
export function dateContradiction(r: ReceiptDates, createdAt: Date): string | undefined {
  const sent = createdAt.getTime();
  if (r.submitDate && Math.abs(r.submitDate.getTime() - sent) > CLOCK_TOLERANCE_MS) {
    return `its submit date ${r.submitDate.toISOString()} is far from the part's submit time ${createdAt.toISOString()}`;
  }
  if (r.doneAt && sent - r.doneAt.getTime() > CLOCK_TOLERANCE_MS) {
    return `the part was sent at ${createdAt.toISOString()}, after its done date ${r.doneAt.toISOString()}`;
  }
  return undefined;
}
