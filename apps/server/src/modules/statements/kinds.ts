import type { StatementCategory } from '@wren/contracts';

/**
 * Ledger kinds as a statement shows them. A kind not listed here (one added later, e.g. a transfer
 * between a parent and a child account) is shown with its own name under "Other", so the totals
 * still add up.
 */
const KINDS: Record<string, { label: string; category: StatementCategory }> = {
  trial_credit: { label: 'Trial credit', category: 'topups' },
  topup: { label: 'Top-up', category: 'topups' },
  top_up: { label: 'Top-up', category: 'topups' },
  adjustment: { label: 'Adjustment', category: 'adjustments' },
  sms_debit: { label: 'SMS charge', category: 'charges' },
  sms_refund: { label: 'SMS refund', category: 'refunds' },
};

/** `some_kind.name` → "Some kind name". */
const humanise = (kind: string) => {
  const words = kind.replace(/[._-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : 'Entry';
};

export function describeKind(kind: string): { label: string; category: StatementCategory } {
  return KINDS[kind] ?? { label: humanise(kind), category: 'other' };
}

/** An entry's description: its note, else what its kind means. */
export function describeEntry(e: { kind: string; note: string | null; amountMinor: number }): string {
  if (e.note?.trim()) return e.note.trim();
  if (e.kind === 'adjustment') return e.amountMinor >= 0 ? 'Credit by Wren' : 'Debit by Wren';
  return describeKind(e.kind).label;
}
