import {
  checkSenderId,
  SENDER_ID_MAX_ALPHANUMERIC,
  SENDER_ID_MAX_DIGITS,
  type SenderIdDto,
  type SenderIdKind,
  type SenderIdStatus,
} from '@wren/contracts';
import { translate } from '@/lib/i18n';

export interface SenderIdHint {
  /** What the value reads as so far; null while empty. */
  kind: SenderIdKind | null;
  /** Characters (alphanumeric) or digits (numeric) used. */
  used: number;
  /** The limit for that kind. */
  max: number;
  /** The hint line under the field. */
  text: string;
  /** Why the value cannot be requested; null when it can (or while empty). */
  problem: string | null;
  /** The problem is worth showing while typing: typing more cannot fix it. */
  showNow: boolean;
}

const NUMERIC = /^\+?\d+$/;

/** The live hint under the sender ID field: its kind, the length against the limit, and any problem. */
export function senderIdHint(input: string): SenderIdHint {
  const raw = input.trim();
  if (!raw) {
    return {
      kind: null,
      used: 0,
      max: SENDER_ID_MAX_ALPHANUMERIC,
      text: translate(
        'Up to {{max}} letters and digits (e.g. WrenShop), or a number of 3–{{digits}} digits',
        { max: SENDER_ID_MAX_ALPHANUMERIC, digits: SENDER_ID_MAX_DIGITS },
      ),
      problem: null,
      showNow: false,
    };
  }
  const check = checkSenderId(raw);
  const problem = check.ok ? null : check.message;
  // "needs at least 3 digits" and "at least one letter" go away as the user types on.
  const showNow = problem !== null && !problem.includes('at least');
  const compact = raw.replace(/[\s-]/g, '');
  if (NUMERIC.test(compact)) {
    const used = compact.replace('+', '').length;
    return {
      kind: 'numeric',
      used,
      max: SENDER_ID_MAX_DIGITS,
      text: translate('Numeric sender · {{used}} / {{max}} digits', { used, max: SENDER_ID_MAX_DIGITS }),
      problem,
      showNow,
    };
  }
  const used = [...raw].length;
  return {
    kind: 'alphanumeric',
    used,
    max: SENDER_ID_MAX_ALPHANUMERIC,
    text: translate('Alphanumeric sender · {{used}} / {{max}} characters', {
      used,
      max: SENDER_ID_MAX_ALPHANUMERIC,
    }),
    problem,
    showNow,
  };
}

/**
 * The character rules of {@link checkSenderId} (the server's), in words for the form. Phones show an
 * alphanumeric sender only when it uses the SMS alphabet (GSM 03.38), so emoji and most accents fail.
 */
export const senderIdRules = (): string[] => [
  translate(
    "Name: up to {{max}} characters with at least one letter. Letters A–Z, digits, spaces and common punctuation (. , - _ & ' ! ? and similar) are fine; emoji, € and letters outside the SMS alphabet are not.",
    { max: SENDER_ID_MAX_ALPHANUMERIC },
  ),
  translate('Number: 3–{{max}} digits; a leading +, spaces and dashes are ignored.', {
    max: SENDER_ID_MAX_DIGITS,
  }),
];

export const STATUS_META: Record<SenderIdStatus, { label: string; color: string }> = {
  requested: { label: 'Pending review', color: 'yellow' },
  approved: { label: 'Approved', color: 'green' },
  rejected: { label: 'Rejected', color: 'red' },
};

const STATUS_ORDER: Record<SenderIdStatus, number> = { approved: 0, requested: 1, rejected: 2 };

/** The default first, then approved, pending and rejected ones, newest first within each. */
export function sortSenderIds(items: readonly SenderIdDto[]): SenderIdDto[] {
  return [...items].sort(
    (a, b) =>
      Number(b.isDefault) - Number(a.isDefault) ||
      STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
      b.createdAt.localeCompare(a.createdAt),
  );
}

/**
 * The sender ID that becomes the account's default when `deleting` (the default) is deleted: the
 * server's rule (the oldest approved one by request time, then id); null when none is left, and
 * messages that name no sender then go from the platform's sender.
 */
export function nextDefault(items: readonly SenderIdDto[], deleting: SenderIdDto): SenderIdDto | null {
  const candidates = items
    .filter((s) => s.status === 'approved' && s.id !== deleting.id)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return candidates[0] ?? null;
}
