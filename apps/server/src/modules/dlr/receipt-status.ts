import type { MessageStatus } from '@wren/contracts';
import type { ConnectionPolicy } from '../../platform/connection-policy';

/** The message statuses a delivery receipt can end in. */
export type FinalReceiptStatus = Extract<
  MessageStatus,
  'delivered' | 'undelivered' | 'expired' | 'rejected' | 'unknown'
>;

/** Receipt `stat` words that end a part in every SMSC's dialect, and the status each maps to. */
const ALWAYS_FINAL = new Map<string, FinalReceiptStatus>([
  ['DELIVRD', 'delivered'],
  ['UNDELIV', 'undelivered'],
  ['EXPIRED', 'expired'],
  ['REJECTD', 'rejected'],
  ['DELETED', 'undelivered'],
]);

/** Long spellings some SMSCs write instead of the 7-letter SMPP 3.4 words. */
const SYNONYMS = new Map<string, string>([
  ['DELIVERED', 'DELIVRD'],
  ['UNDELIVERABLE', 'UNDELIV'],
  ['UNDELIVERED', 'UNDELIV'],
  ['REJECTED', 'REJECTD'],
  ['ACCEPTED', 'ACCEPTD'],
  ['ENROUTE', 'ENROUTE'],
  ['EXPIRE', 'EXPIRED'],
  ['DELETE', 'DELETED'],
]);

/** Normalises a stat word: upper case, trimmed, long spellings to the SMPP 3.4 word. */
export function normaliseStat(stat: string): string {
  const s = stat.trim().toUpperCase();
  return SYNONYMS.get(s) ?? s;
}

/** Every stat word that ends a part under the strictest policy (SQL and tests use it). */
export const FINAL_STATS: readonly string[] = [...ALWAYS_FINAL.keys(), 'ACCEPTD', 'UNKNOWN'];

/** What a receipt's stat means on a connection. */
export type StatMeaning =
  | {
      kind: 'final';
      status: FinalReceiptStatus;
      /** Set when the receipt's fields contradict each other: what it said, for the message's error. */
      contradiction?: string;
    }
  | { kind: 'interim' }
  /** A word no dialect uses: kept as it came; the message is marked "receipt unclear". */
  | { kind: 'unclear'; stat: string };

/** What statMeaning reads of a receipt: its stat word and its error code (text `err:` or TLV). */
export interface ReceiptFields {
  stat: string;
  err?: string | null;
}

const DEFAULT_POLICY: Pick<ConnectionPolicy, 'acceptd' | 'unknownState'> = {
  acceptd: 'final',
  unknownState: 'final',
};

/**
 * An error code that says something went wrong: digits (or hex digits, as some SMSCs write them)
 * that are not all zero. An empty or missing code, `000`, `0` and text such as `-` are no error.
 */
export const isErrorCode = (err: string | null | undefined): boolean => {
  const e = (err ?? '').trim();
  return /^[0-9a-f]+$/i.test(e) && !/^0+$/.test(e);
};

/**
 * The meaning of a receipt under a connection's policy. SMPP 3.4 makes ACCEPTED (6) and UNKNOWN (7)
 * final; some SMSCs send them as interim notes, so each connection may say so. A word that no
 * dialect uses is `unclear`: the message is marked "receipt unclear" (it does not end, so a later
 * clear receipt still counts; the connection's receipt deadline ends it as `unknown` otherwise).
 *
 * A receipt that contradicts itself is never `delivered`. The rule: a "delivered-like" stat
 * (DELIVRD, or ACCEPTD) that carries a non-zero error code (`err:001`, or a network_error_code TLV
 * when the text has no err) ends the part as `unknown`, under either SMSC_ACCEPTD policy: an error
 * is an outcome, not a progress note (Kannel's opensmppbox reports an expired message as
 * `stat:ACCEPTD` / message_state 6 with `dlvrd:000 err:001`, and sends nothing after it). The
 * `dlvrd:` count alone decides nothing: SMSCs write `sub:001 dlvrd:000 … stat:DELIVRD err:000` for
 * delivered messages, `sub:000 dlvrd:000` as placeholders, and `dlvrd:000 … stat:ACCEPTD err:000` as
 * their ordinary acceptance note, so it is kept in the raw text only. The part keeps its stat and
 * error as they came, so the same rule reads them again when a multipart message ends.
 */
export function statMeaning(
  receipt: string | ReceiptFields,
  policy: Pick<ConnectionPolicy, 'acceptd' | 'unknownState'> = DEFAULT_POLICY,
): StatMeaning {
  const { stat: rawStat, err } = typeof receipt === 'string' ? { stat: receipt, err: null } : receipt;
  const stat = normaliseStat(rawStat);
  if ((stat === 'DELIVRD' || stat === 'ACCEPTD') && isErrorCode(err)) {
    return {
      kind: 'final',
      status: 'unknown',
      contradiction: `Receipt contradicts itself: ${stat} with err:${(err ?? '').trim()}; not counted as delivered, the outcome is unknown`,
    };
  }
  const status = ALWAYS_FINAL.get(stat);
  if (status) return { kind: 'final', status };
  if (stat === 'ENROUTE' || stat === 'BUFFERED' || stat === 'SCHEDULED') return { kind: 'interim' };
  if (stat === 'ACCEPTD')
    return policy.acceptd === 'final' ? { kind: 'final', status: 'delivered' } : { kind: 'interim' };
  if (stat === 'UNKNOWN') {
    return policy.unknownState === 'final' ? { kind: 'final', status: 'unknown' } : { kind: 'interim' };
  }
  return { kind: 'unclear', stat: rawStat.trim() || '(empty)' };
}

/** True for a stat that ends a part under the default (SMPP 3.4) policy. Own keys only. */
export const isFinalStat = (stat: string | null | undefined): stat is string =>
  stat !== null && stat !== undefined && statMeaning(stat).kind === 'final';

/** The message status a final stat maps to under a policy. */
export function statusOfStat(
  stat: string,
  policy?: Pick<ConnectionPolicy, 'acceptd' | 'unknownState'>,
): FinalReceiptStatus {
  const m = statMeaning(stat, policy);
  return m.kind === 'final' ? m.status : 'unknown';
}

/**
 * A message is delivered only when every part is; otherwise the first failing part decides, and its
 * stat and error are the message's.
 */
export function messageOutcomeFromParts(
  parts: { stat: string; err: string | null }[],
  policy?: Pick<ConnectionPolicy, 'acceptd' | 'unknownState'>,
): { status: FinalReceiptStatus; stat: string; err: string | null; error?: string } {
  const meanings = parts.map((p) => ({ p, m: statMeaning(p, policy) }));
  const worst = meanings.find(({ m }) => m.kind !== 'final' || m.status !== 'delivered') ?? meanings[0];
  if (!worst) return { status: 'unknown', stat: 'UNKNOWN', err: null };
  const status = worst.m.kind === 'final' ? worst.m.status : 'unknown';
  const error = worst.m.kind === 'final' ? worst.m.contradiction : undefined;
  const named = error && parts.length > 1 ? `Part ${parts.indexOf(worst.p) + 1}: ${error}` : error;
  return { status, stat: worst.p.stat, err: worst.p.err, ...(named ? { error: named } : {}) };
}
