import { receiptKey, type IdNotation } from '../../gateway/message-id';
import type { DeliveryReceipt } from '../../gateway/sms-gateway';
import type { Db } from '../../platform/db';
import { findParts, openKeysSince } from '../messages/receipt-port';
import {
  AMBIGUOUS,
  CONTRADICTION,
  LEARNING,
  isEvidence,
  OLD_NOTATION_ONLY,
  parkedLongEnough,
  NO_PART,
  mayWait,
  type Incoming,
  type Matched,
  type Miss,
  type Part,
} from './incoming';
import type { NotationRegistry } from './notation-registry';
import { dateContradiction } from './receipt-dates';

/**
 * The three keys a receipt id can name a part by: as written (same notation, or strings), the
 * decimal receipt of a hex answer, and the hex receipt of a decimal answer.
 */
const READINGS: readonly IdNotation[] = [
  { submit: 'string', receipt: 'string' },
  { submit: 'hex', receipt: 'dec' },
  { submit: 'dec', receipt: 'hex' },
];

/**
 * Stats that end a part under every policy (receipt-status.ts's ALWAYS_FINAL). A different final
 * receipt for a part that has one of these is not the SMSC's second word on that message (as a
 * DELIVRD after an ACCEPTD can be) but another message's receipt under the wrong reading.
 */
const SURELY_FINAL = new Set(['DELIVRD', 'UNDELIV', 'EXPIRED', 'REJECTD', 'DELETED']);

/** Open parts stored since a notation change that a new learning reads its submit side from. */
const LEARN_FROM_PARTS = 256;

/** How a receipt under a connection's learned notation contradicts it. */
const SUSPICIONS = {
  unfit: 'its id cannot be written in the learned notation',
  final: 'under the learned notation it names a part that already has another final receipt',
  dates: "under the learned notation it names a part sent far from the receipt's dates",
  reused: 'under the learned notation its id was used by an earlier part too',
} as const;
type Suspicion = keyof typeof SUSPICIONS;

interface Keyed {
  k: Incoming;
  keys: string[];
  /** The key under the notation the receipt is matched with (provisional included). */
  own: string | null;
  early: boolean;
  readable: boolean;
  /** The connection's learned notation (auto, decided): its matches are checked. */
  learned: IdNotation | undefined;
  /** The key in the notation before a change, while receipts written in it may still come. */
  previousKey: string | undefined;
  /** Parts stored from then on were answered in the new notation: no old-notation receipt names them. */
  changedSince: Date | undefined;
}

interface Judged {
  kd: Keyed;
  result: Part | string;
  suspicion?: Suspicion;
}

const partId = (p: Part) => `${p.message_id}:${p.part}`;
const distinct = (parts: Part[]) => [...new Map(parts.map((p) => [partId(p), p])).values()];
const fitsDates = (r: DeliveryReceipt) => (p: Part) => dateContradiction(r, p.created_at) === undefined;

/** The one open part a receipt names, or why there is none. */
function pick(found: Part[]): Part | string {
  // One part can be found under two readings of the same id ("5" is 5 in hex and decimal).
  const candidates = distinct(found);
  if (candidates.length === 0) return NO_PART;
  const open = candidates.filter((p) => p.stat === null);
  if (open.length === 1 && open[0]) return open[0];
  if (open.length > 1) return `${AMBIGUOUS}: ${open.length} open parts have this id`;
  // Every part with this id is final already: a duplicate receipt, recorded and ignored.
  return candidates.reduce((a, b) => (b.created_at > a.created_at ? b : a));
}

/**
 * Which part each receipt of a batch is about (gateway/message-id.ts gives the key; nothing is
 * guessed), and whether the receipts still fit the notation each connection learned.
 *
 * A learned notation is evidence, checked against every match (issue 45). A fresh receipt
 * contradicts it when, under the learned notation, its id cannot be written, or names only a part
 * that already has a different final receipt (a byte-identical one is a duplicate), or only parts
 * sent far from the receipt's dates (receipt-dates.ts), while another reading of the id names an
 * open part whose dates fit. That is what an SMSC that changed its ids looks like (one that answered
 * in hex and reported in decimal, restarted with sequential decimal ids: receipt 10 names the old,
 * finished part "a", while open part "10" waits). The connection then learns again
 * (NotationRegistry.changed, which logs a warning) and the whole batch is matched anew as while
 * learning: a receipt is given to a part only when no other reading fits another open part; the rest
 * wait for their part or are parked. A receipt is never given to a part its dates contradict: it is
 * parked as a contradiction.
 *
 * After a change, receipts of messages sent before it may still come in the old notation: for
 * PREVIOUS_NOTATION_MS a receipt that also fits an open part stored before the change under the old
 * one is ambiguous (parked),
 * and one that waited and names nothing open under the new one goes to the one open part the old
 * one gives it.
 */
export function createReceiptMatcher(deps: {
  notations: NotationRegistry;
  /** True when the receipt's stat ends a part on its connection (statMeaning's `final`). */
  endsPart: (r: DeliveryReceipt) => boolean;
}) {
  const { notations } = deps;

  function keyOf(k: Incoming): Keyed {
    const r = k.receipt;
    const notation = notations.notationFor(r.connection);
    // A provisional notation (digits only on both sides so far) is a guess: the ids may as well
    // be hex answers with decimal receipts. It matches only when no other reading fits another
    // open part too (pick() refuses two candidates), so a receipt is never given to the
    // message whose id happens to spell it in the other notation.
    const readings = notation
      ? notations.isSettled(r.connection)
        ? [notation]
        : [notation, ...notations.fallbackNotations(r.connection)]
      : k.parkedId !== undefined
        ? notations.fallbackNotations(r.connection)
        : [];
    const keys = [...new Set(readings.flatMap((n) => receiptKey(r.smscId, n) ?? []))];
    // While the notation is provisional, the other readings are only tried once the receipt has
    // waited for its parts: a receipt that arrives before its own part is stored would otherwise
    // find another message's open part under the other reading ("22" read as hex is 34) and give
    // that message its outcome, leaving its own in `sent` for good (seen with sequential decimal
    // ids when receipts outran the stored outcomes).
    const own = notation ? (receiptKey(r.smscId, notation) ?? null) : null;
    const early = own !== null && mayWait(k);
    const learned = notations.learnedNotation(r.connection);
    const previous = learned ? notations.previousNotation(r.connection) : undefined;
    const previousKey = previous ? receiptKey(r.smscId, previous.notation) : undefined;
    return {
      k,
      keys,
      own,
      early: early && readings.length > 1,
      readable: readings.length > 0,
      learned,
      previousKey: previousKey !== undefined && !keys.includes(previousKey) ? previousKey : undefined,
      changedSince: previous?.since,
    };
  }

  /** Stored parts by connection and key. */
  async function lookup(trx: Db, keyed: Keyed[], keys: string[]) {
    const parts = await findParts(trx, [...new Set(keyed.map(({ k }) => k.receipt.connection))], keys);
    const byKey = new Map<string, Part[]>();
    for (const p of parts) {
      const id = `${p.connection}\u0000${p.smsc_key}`;
      byKey.set(id, [...(byKey.get(id) ?? []), p]);
    }
    return (connection: string, key: string) => byKey.get(`${connection}\u0000${key}`) ?? [];
  }

  function judge(kd: Keyed, partsOf: (key: string) => Part[]): Omit<Judged, 'kd'> {
    const { k, keys, own, early, learned, previousKey, changedSince } = kd;
    const r = k.receipt;
    if (!kd.readable) return { result: LEARNING };
    if (keys.length === 0) {
      return {
        result: 'the id does not fit the connection id notation',
        ...(learned && { suspicion: 'unfit' }),
      };
    }
    const found = distinct(keys.flatMap(partsOf));
    const fits = found.filter(fitsDates(r));
    // Waits while its own key has no open part (a finished one may be an older message's), unless a
    // part already has this very receipt (a duplicate: recorded at once).
    if (early && own !== null && !partsOf(own).some((p) => p.stat === null || p.raw === r.raw)) {
      return { result: NO_PART };
    }
    if (found[0] && fits.length === 0) {
      const why = dateContradiction(r, found[0].created_at) ?? '';
      return { result: `${CONTRADICTION}: ${why}`, ...(learned && { suspicion: 'dates' }) };
    }
    const hit = pick(fits);
    if (previousKey !== undefined && (typeof hit !== 'string' || hit === NO_PART)) {
      // Only a part stored before the change: one stored since was answered in the new notation
      // (after a switch to sequential ids, receipt 16 reads "10" in the old one, the id of a NEW part
      // whose own receipt may not be in yet).
      const before = partsOf(previousKey).filter(
        (p) =>
          p.stat === null &&
          fitsDates(r)(p) &&
          (changedSince === undefined || p.created_at < changedSince) &&
          (typeof hit === 'string' || partId(p) !== partId(hit)),
      );
      if (before.length > 0) {
        // Open under the new notation too: either may be right.
        if (typeof hit !== 'string' && hit.stat === null) {
          return {
            result: `${AMBIGUOUS}: the id also fits an open part in the notation used before it changed`,
          };
        }
        // Nothing open under the new one: a receipt of a message sent before the change, once it
        // has waited (a fresh one may be early for a part being stored).
        if (mayWait(k)) return { result: NO_PART };
        // Its own part may still be being stored: parked first, and tried in the old notation later.
        if (!parkedLongEnough(k)) return { result: OLD_NOTATION_ONLY };
        if (before.length === 1 && before[0]) return { result: before[0] };
        return {
          result: `${AMBIGUOUS}: ${before.length} open parts have this id in the notation used before`,
        };
      }
    }
    if (
      learned &&
      typeof hit !== 'string' &&
      hit.stat !== null &&
      deps.endsPart(r) &&
      fits.every((p) => p.raw !== r.raw) &&
      fits.some((p) => SURELY_FINAL.has(p.stat ?? ''))
    ) {
      // A fresh one waits first: its own part may be being stored under another reading (the SMSC
      // changed its ids, and receipt 20 read as hex/dec names the old, finished part "14").
      if (mayWait(k)) return { result: NO_PART, suspicion: 'final' };
      // Still nothing open under another reading: parked, never recorded on the finished part. Under
      // load its own part can take longer to be stored than the wait (CI: 32 of 300 receipts were
      // recorded as duplicates of the old run's parts and their own messages stayed `sent`); parked,
      // it is matched once the connection learns its notation again.
      return { result: `${AMBIGUOUS}: ${SUSPICIONS.final}`, suspicion: 'final' };
    }
    // An id used again on the connection (an older part has it too): the SMSC's counter may have
    // wrapped, or it restarted in another notation and this receipt is another open part's (receipt
    // 16 read as hex/dec names the new part "10", whose own receipt is still on its way).
    // Not again while the notation before a change is still current: the new ids reuse the old ones.
    if (learned && !changedSince && typeof hit !== 'string' && hit.stat === null && fits.length > 1) {
      return { result: hit, suspicion: 'reused' };
    }
    return { result: hit };
  }

  /** The batch's connections whose learned notation fresh receipts contradict, with a sample. */
  async function contradicted(trx: Db, judged: Judged[]) {
    const suspects = judged.filter((j) => j.suspicion && isEvidence(j.kd.k));
    const changes = new Map<string, { detail: Record<string, unknown>; since: Date }>();
    if (suspects.length === 0) return changes;
    const otherKeys = ({ kd }: Judged) =>
      READINGS.flatMap((n) => receiptKey(kd.k.receipt.smscId, n) ?? []).filter(
        (key) => !kd.keys.includes(key),
      );
    const partsOf = await lookup(
      trx,
      suspects.map((j) => j.kd),
      [...new Set(suspects.flatMap(otherKeys))],
    );
    for (const j of suspects) {
      const r = j.kd.k.receipt;
      const open = distinct(otherKeys(j).flatMap((key) => partsOf(r.connection, key))).filter(
        (p) => p.stat === null && fitsDates(r)(p),
      );
      if (open.length === 0) continue;
      // The earliest part that showed the new notation: the change came before it was stored.
      const earliest = open.reduce((a, b) => (b.created_at < a.created_at ? b : a)).created_at;
      const seen = changes.get(r.connection);
      if (seen) {
        seen.detail.receipts = Number(seen.detail.receipts) + 1;
        if (earliest < seen.since) seen.since = earliest;
        continue;
      }
      changes.set(r.connection, {
        detail: {
          receipts: 1,
          smscId: r.smscId,
          why: SUSPICIONS[j.suspicion ?? 'final'],
          learnedKey: j.kd.keys[0] ?? null,
          openPartUnder: open[0]?.smsc_key,
        },
        since: earliest,
      });
    }
    return changes;
  }

  async function attempt(trx: Db, batch: Incoming[], detect: boolean) {
    const keyed = batch.map(keyOf);
    const partsOf = await lookup(trx, keyed, [
      ...new Set(keyed.flatMap((kd) => (kd.previousKey ? [...kd.keys, kd.previousKey] : kd.keys))),
    ]);
    const judged: Judged[] = keyed.map((kd) => ({
      kd,
      ...judge(kd, (key) => partsOf(kd.k.receipt.connection, key)),
    }));
    const changes = detect ? await contradicted(trx, judged) : new Map<string, never>();
    const matched: Matched[] = [];
    const misses: Miss[] = [];
    for (const { kd, result } of judged) {
      if (typeof result === 'string') misses.push({ k: kd.k, reason: result });
      else matched.push({ k: kd.k, hit: result });
    }
    return { matched, misses, changes };
  }

  return {
    /**
     * Matches a batch (reads only). A connection whose learned notation the batch contradicts learns
     * again first, and the batch is then matched under the learning rules.
     */
    async match(trx: Db, batch: Incoming[]): Promise<{ matched: Matched[]; misses: Miss[] }> {
      const first = await attempt(trx, batch, true);
      if (first.changes.size === 0) return first;
      for (const [connection, { detail, since }] of first.changes) {
        notations.changed(connection, detail, since);
        // The new learning starts from the ids of this batch's fresh (or recently parked) receipts.
        const fresh = batch.filter((k) => k.receipt.connection === connection && isEvidence(k));
        notations.observe(
          connection,
          'receipt',
          fresh.map((k) => k.receipt.smscId),
        );
        // And from the parts answered in the new notation already: when the change shows only after
        // the last submit (receipts come late), no new part is stored to learn the submit side from,
        // and the connection stayed undecided, every receipt parked.
        notations.observe(
          connection,
          'submit',
          await openKeysSince(trx, connection, since, LEARN_FROM_PARTS),
        );
      }
      return attempt(trx, batch, false);
    },
  };
}
