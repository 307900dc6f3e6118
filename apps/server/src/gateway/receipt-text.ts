/**
 * Delivery receipt texts (SMPP 3.4 Appendix B and what SMSCs actually send):
 * `id:<id> sub:001 dlvrd:001 submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:DELIVRD err:000 text:...`
 *
 * Values are kept as written (the id with its leading zeros and case, err in its width); matching ids
 * and mapping stats is done elsewhere. Only `stat` is upper-cased.
 */
export interface ParsedReceipt {
  id: string;
  /** Upper-cased, e.g. DELIVRD; undefined when the text has none (use the message_state TLV). */
  stat?: string;
  sub?: string;
  dlvrd?: string;
  submitDate?: Date;
  doneDate?: Date;
  err?: string;
  /** Everything after `text:`, as written. */
  text?: string;
}

/** SMPP message_state TLV values (SMPP 3.4 §5.3.2.35) as receipt stat words. */
export const STAT_BY_MESSAGE_STATE: ReadonlyMap<number, string> = new Map([
  [1, 'ENROUTE'],
  [2, 'DELIVRD'],
  [3, 'EXPIRED'],
  [4, 'DELETED'],
  [5, 'UNDELIV'],
  [6, 'ACCEPTD'],
  [7, 'UNKNOWN'],
  [8, 'REJECTD'],
]);

/** Longest text looked at; real receipts are under 200 characters (message_payload allows more). */
const MAX_INPUT = 2000;

/** Field separators seen in the wild: spaces (standard), tabs, commas and semicolons. */
const SEP = '[\\s,;]';

const KEYS = {
  id: 'id',
  sub: 'sub',
  dlvrd: 'dlvrd',
  submitDate: 'submit[\\s_]*date',
  doneDate: 'done[\\s_]*date',
  stat: 'stat',
  err: 'err',
} as const;

type Key = keyof typeof KEYS;

/** Any known key followed by a colon: a value may not start with one (`id: sub:001` has an empty id). */
const ANY_KEY = `(?:${Object.values(KEYS).join('|')}|text)[ \\t]*:`;

const FIELD: Readonly<Record<Key, RegExp>> = Object.fromEntries(
  Object.entries(KEYS).map(([k, pattern]) => [
    k,
    new RegExp(`(?:^|${SEP})${pattern}[ \\t]*:[ \\t]*(?!${ANY_KEY})([^\\s,;]+)`, 'i'),
  ]),
) as Record<Key, RegExp>;

/** Where the `text:` field starts: its value is free text and may contain `stat:` or `id:`. */
const TEXT_FIELD = new RegExp(`(?:^|${SEP})text[ \\t]*:`, 'i');

const DATE = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?$/;

/**
 * Parse a receipt date in UTC: YYMMDDhhmm (the standard), YYMMDDhhmmss, or YYYYMMDDhhmmss. Two-digit
 * years are 20YY. Undefined for anything else or an impossible date.
 */
export function parseReceiptDate(s: string): Date | undefined {
  if (s.length !== 10 && s.length !== 12 && s.length !== 14) return undefined;
  const m = DATE.exec(s);
  if (!m) return undefined;
  // The 2-digit year is tried first, so 12 digits read as YYMMDDhhmmss and only 14 as YYYYMMDDhhmmss.
  const [y, mo, dd, hh, mi, ss] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v))) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const year = m[1].length === 2 ? 2000 + y : y;
  if (hh > 23 || mi > 59 || ss > 59) return undefined;
  const d = new Date(Date.UTC(year, mo - 1, dd, hh, mi, ss));
  return d.getUTCFullYear() !== year || d.getUTCMonth() !== mo - 1 || d.getUTCDate() !== dd ? undefined : d;
}

function toText(input: unknown): string | undefined {
  if (typeof input === 'string') return input;
  if (Buffer.isBuffer(input)) return input.toString('latin1');
  return undefined;
}

/**
 * Parse a delivery receipt text. Tolerant of key case, missing fields, extra spaces, `submit_date`
 * spellings, seconds in dates and fields in any order; the `text:` field is free text and never read
 * for other fields. Returns undefined (never throws) unless there is an `id:` and at least one other
 * receipt field (stat, err, dlvrd, sub or a date): a lone `id:` is not a receipt.
 */
export function parseReceiptText(input: string | Buffer): ParsedReceipt | undefined {
  const full = toText(input)?.slice(0, MAX_INPUT);
  if (!full) return undefined;
  const textMatch = TEXT_FIELD.exec(full);
  const head = textMatch ? full.slice(0, textMatch.index) : full;
  const field = (key: Key): string | undefined => FIELD[key].exec(head)?.[1];
  const id = field('id');
  if (!id) return undefined;
  const out: ParsedReceipt = { id };
  const stat = field('stat');
  const sub = field('sub');
  const dlvrd = field('dlvrd');
  const err = field('err');
  const submit = field('submitDate');
  const done = field('doneDate');
  if (stat === undefined && err === undefined && sub === undefined && dlvrd === undefined) {
    if (submit === undefined && done === undefined) return undefined;
  }
  if (stat !== undefined) out.stat = stat.toUpperCase();
  if (sub !== undefined) out.sub = sub;
  if (dlvrd !== undefined) out.dlvrd = dlvrd;
  if (err !== undefined) out.err = err;
  const submitDate = submit === undefined ? undefined : parseReceiptDate(submit);
  const doneDate = done === undefined ? undefined : parseReceiptDate(done);
  if (submitDate) out.submitDate = submitDate;
  if (doneDate) out.doneDate = doneDate;
  if (textMatch) out.text = full.slice(textMatch.index + textMatch[0].length);
  return out;
}
