import type { IdNotationSetting } from '../../gateway/message-id';
import type { DeliveryReceipt } from '../../gateway/sms-gateway';
import type { Config } from '../../platform/config';
import { type Db, transact } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import type { LedgerService } from '../ledger/ledger.service';
import {
  annotate,
  createPartitionDirectory,
  notifyChanged,
  type PartStat,
  recordEvents,
  refundMessages,
  settleParts,
  transition,
  type Transitioned,
  type TransitionRow,
} from '../messages/receipt-port';
import * as repo from './dlr.repository';
import {
  AMBIGUOUS,
  CONTRADICTION,
  LEARNING,
  NO_PART,
  OLD_NOTATION_ONLY,
  PREVIOUS_FALLBACK_MS,
  mayWait,
  startRound,
  WAIT_ROUND_MS,
  type Incoming,
  type Matched,
  type Miss,
} from './incoming';
import { createNotationRegistry } from './notation-registry';
import { createReceiptMatcher } from './receipt-matching';
import {
  messageOutcomeFromParts,
  normaliseStat,
  statMeaning,
  type FinalReceiptStatus,
} from './receipt-status';
import { createConnectionRegistry, type ConnectionRegistry } from '../../platform/connection-policy';

interface Deps {
  db: Db;
  config: Config;
  events: EventBus;
  ledger: LedgerService;
  logger: Logger;
  /** The connections applied now (console changes); default: the environment's. */
  connections?: ConnectionRegistry;
}

const FLUSH_MS = 10;
const FLUSH_SIZE = 400;
/** Rounds of one matchParked pass at most (each must match some of what is left). */
const PARKED_ROUNDS = 8;
const AMBIGUOUS_RETRY_MS = 250;
const AMBIGUOUS_RETRY_FOR_MS = 10 * 60 * 1000;

/**
 * Matches delivery receipts to message parts, moves statuses forward only, refunds by policy and
 * keeps every raw receipt. Receipts are batched; each caller's promise resolves once its receipt is
 * committed, so the gateway acknowledges to the SMSC only what is stored.
 *
 * A receipt is matched to a part only through the one key its connection's id notation gives
 * (gateway/message-id.ts), and only when exactly one open part has that key. A receipt whose part
 * is not stored yet waits for the next `parts.stored` event (or a second) and is tried again; one
 * still unmatched, or ambiguous, or on a connection whose notation is still being learned, is parked
 * durably with the reason and matched later. Nothing is ever guessed.
 */
export function createDlrService(deps: Deps) {
  const { db, logger, config } = deps;
  const partitions = createPartitionDirectory(db);
  const connections = deps.connections ?? createConnectionRegistry(config);
  const policyOf = (connection: string) => connections.policyOf(connection);
  const settingOf = (connection: string): IdNotationSetting => policyOf(connection).idNotation;
  const notations = createNotationRegistry({
    db,
    logger,
    settingOf,
    onDecided: () => {
      // Receipts parked while the notation was unknown can be matched now.
      setTimeout(() => void matchParked().catch(() => undefined), 0);
    },
  });
  const matcher = createReceiptMatcher({
    notations,
    endsPart: (r) => statMeaning(r, policyOf(r.connection)).kind === 'final',
  });

  let queue: Incoming[] = [];
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();
  let waiting: Incoming[] = [];
  let waitTimer: NodeJS.Timeout | null = null;
  let draining = false;
  /** When this process last parked an ambiguous receipt (0: none open that a match could resolve). */
  let ambiguousAt = 0;
  let retryTimer: NodeJS.Timeout | null = null;

  /**
   * A receipt parked as ambiguous (two open parts have its id) is resolved once one of them gets its
   * own receipt: after a batch settled parts, the parked ones are tried again (at most every
   * AMBIGUOUS_RETRY_MS, for AMBIGUOUS_RETRY_FOR_MS after the last one was parked).
   */
  function retryAmbiguous() {
    if (ambiguousAt === 0 || retryTimer) return;
    if (Date.now() - ambiguousAt > AMBIGUOUS_RETRY_FOR_MS) {
      ambiguousAt = 0;
      return;
    }
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void matchParked().catch(() => undefined);
    }, AMBIGUOUS_RETRY_MS);
    retryTimer.unref();
  }

  /** When the last receipt was parked to be tried in the notation before a change (0: none). */
  let oldNotationAt = 0;
  let oldNotationTimer: NodeJS.Timeout | null = null;
  /** Tries parked receipts again once those parked for the old notation have waited long enough. */
  function retryOldNotation() {
    oldNotationAt = Date.now();
    if (oldNotationTimer) return;
    const fire = () => {
      oldNotationTimer = null;
      void matchParked().catch(() => undefined);
      const due = oldNotationAt + PREVIOUS_FALLBACK_MS - Date.now();
      if (due > 0) arm(due + 100);
    };
    const arm = (ms: number) => {
      oldNotationTimer = setTimeout(fire, ms);
      oldNotationTimer.unref();
    };
    arm(PREVIOUS_FALLBACK_MS + 100);
  }

  function schedule(ms: number) {
    if (timer && ms > 0) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      const batch = queue;
      queue = [];
      chain = chain.then(() => process(batch));
    }, ms);
  }

  /** Receipts that waited for parts go round again (their promise is still open). */
  function releaseWaiting() {
    if (waitTimer) clearTimeout(waitTimer);
    waitTimer = null;
    if (waiting.length === 0) return;
    const again = waiting;
    waiting = [];
    queue.push(...again);
    schedule(0);
  }

  deps.events.subscribe('parts.stored', ({ connection, smscIds }) => {
    notations.observe(connection, 'submit', smscIds);
    releaseWaiting();
    // A receipt parked because its part was not stored within its wait can be matched now.
    retryAmbiguous();
  });

  async function process(batch: Incoming[]) {
    if (batch.length === 0) return;
    try {
      await notations.load();
      const { touched, wait } = await transact(db, (trx) => apply(trx, batch));
      notifyChanged(deps.events, touched);
      if (touched.length > 0) retryAmbiguous();
      const waitingNow = new Set(wait);
      for (const b of batch) if (!waitingNow.has(b)) b.done.resolve();
      if (wait.length) {
        waiting.push(...wait.map((w) => ({ ...w, tries: w.tries + 1 })));
        waitTimer ??= setTimeout(releaseWaiting, WAIT_ROUND_MS);
      }
    } catch (err) {
      logger.error({ err }, 'receipt batch failed');
      batch.forEach((b) => b.done.reject(err));
    }
  }

  async function apply(trx: Db, batch: Incoming[]) {
    startRound(batch);
    for (const { receipt: r, parkedId, tries } of batch) {
      if (parkedId === undefined && tries === 0) notations.observe(r.connection, 'receipt', [r.smscId]);
    }
    const { matched, misses } = await matcher.match(trx, batch);
    const { touched, events } = await settleMatched(trx, matched);
    const wait = await parkMisses(trx, misses, matched);
    await recordEvents(trx, events);
    return { touched, wait };
  }

  /** Sets part stats (first final receipt per part wins) and ends messages whose parts are all final. */
  async function settleMatched(trx: Db, matched: Matched[]) {
    const meaning = ({ k }: { k: Incoming }) => statMeaning(k.receipt, policyOf(k.receipt.connection));
    const firstFinal = new Map<string, PartStat>();
    for (const m of matched) {
      const key = `${m.hit.message_id}:${m.hit.part}`;
      if (meaning(m).kind === 'final' && !firstFinal.has(key)) {
        firstFinal.set(key, {
          message_id: m.hit.message_id,
          part: m.hit.part,
          stat: normaliseStat(m.k.receipt.stat),
          err: m.k.receipt.err,
          // Kept on the part, not the message (0026: the message's final version then fits its page).
          raw: m.k.receipt.raw,
        });
      }
    }
    // Parts set now, and the parts of their messages as they are after it (one statement).
    const progress = await settleParts(trx, [...firstFinal.values()]);
    const changedKeys = new Set(progress.flatMap((p) => p.changed.map((part) => `${p.message_id}:${part}`)));
    const events: {
      message_id: string;
      status: string;
      detail: string;
      raw: string | null;
      ends?: boolean;
    }[] = [];
    const unclear: { id: string; error: string }[] = [];
    const applied = new Set<string>();
    for (const m of matched) {
      const { k, hit } = m;
      const key = `${hit.message_id}:${hit.part}`;
      const means = meaning(m);
      const takes = means.kind === 'final' && changedKeys.has(key) && !applied.has(key);
      if (takes) applied.add(key);
      const note =
        means.kind === 'final' && !takes
          ? ' — ignored, part already final'
          : means.kind === 'interim'
            ? ' — interim'
            : means.kind === 'unclear'
              ? ' — receipt unclear: this stat is not known'
              : '';
      if (means.kind === 'unclear') {
        unclear.push({
          id: hit.message_id,
          error: `Receipt unclear: stat ${means.stat} (err ${k.receipt.err})`,
        });
      }
      events.push({
        message_id: hit.message_id,
        status: 'receipt',
        detail: `Part ${hit.part + 1}: ${k.receipt.stat} (err ${k.receipt.err})${note}`,
        raw: k.receipt.raw,
        ends: takes,
      });
    }
    await annotate(trx, unclear);

    // Messages whose parts are now all final: grouped by their final status, one statement each.
    const byStatus = new Map<FinalReceiptStatus, TransitionRow[]>();
    /** One-part messages ended by a single receipt: the message keeps it, no event row is written. */
    const quiet = new Set<string>();
    for (const p of progress) {
      const done = p.stats.flatMap((stat, i) => (stat !== null ? [{ stat, err: p.errs[i] ?? null }] : []));
      if (done.length < p.stats.length) continue;
      const outcome = messageOutcomeFromParts(done, policyOf(p.connection));
      const list = byStatus.get(outcome.status) ?? [];
      const single = p.stats.length === 1;
      list.push({
        id: p.message_id,
        smscStat: outcome.stat,
        smscErr: outcome.err,
        error: outcome.error ?? null,
      });
      byStatus.set(outcome.status, list);
      if (single) quiet.add(p.message_id);
    }
    const touched: Transitioned[] = [];
    for (const [status, rows] of byStatus) {
      const finished = await transition(trx, { to: status, from: ['sent'], rows, partitions });
      touched.push(...finished);
      if (config.refundStatuses.includes(status)) await refundMessages(trx, deps.ledger, finished);
    }
    const moved = new Set(touched.map((m) => m.id));
    const kept = events
      .filter((e) => !(e.ends && quiet.has(e.message_id) && moved.has(e.message_id)))
      .map(({ ends: _ends, ...e }) => e);
    return { touched, events: kept };
  }

  /**
   * Receipts that matched nothing: a fresh one whose part (or notation) may still be on its way
   * waits once (its promise stays open); the rest are parked with the reason, or count a miss if already parked.
   */
  async function parkMisses(trx: Db, misses: Miss[], matched: { k: Incoming }[]) {
    const wait: Incoming[] = [];
    const toPark: Parameters<typeof repo.park>[1] = [];
    const missedParked: number[] = [];
    for (const { k, reason } of misses) {
      if (k.parkedId !== undefined) {
        missedParked.push(k.parkedId);
      } else if (!draining && (reason === NO_PART || reason === LEARNING) && mayWait(k)) {
        // The dispatcher may be storing the part (and with it the evidence of the notation) now.
        wait.push(k);
      } else {
        if (reason.startsWith(AMBIGUOUS)) ambiguousAt = Date.now();
        if (reason === OLD_NOTATION_ONLY) retryOldNotation();
        if (reason.startsWith(AMBIGUOUS) || reason.startsWith(CONTRADICTION)) {
          logger.warn(
            { connection: k.receipt.connection, smscId: k.receipt.smscId, reason },
            'receipt parked',
          );
        }
        const r = k.receipt;
        toPark.push({
          connection: r.connection,
          smsc_keys: [r.smscId.trim()],
          stat: r.stat,
          err: r.err,
          done_at: r.doneAt,
          submit_at: r.submitDate ?? null,
          raw: r.raw,
          reason,
        });
      }
    }
    const matchedParked = matched.flatMap(({ k }) => (k.parkedId !== undefined ? [k.parkedId] : []));
    await repo.park(trx, toPark);
    await repo.markParked(trx, matchedParked, missedParked);
    return wait;
  }

  /**
   * Tries parked receipts again (once a connection's notation is decided). Each round reads what is
   * parked inside the receipt chain, after the batches before it: a batch judged before the decision
   * and parked just after it is read too (read outside the chain, it was missed and stayed parked).
   */
  async function matchParked() {
    // Again while a round matches some and leaves others: a parked receipt may be ambiguous only
    // because another parked one's part is still open (after a notation change, receipt 16 fits
    // part 16 and, in the previous notation, part 10, whose own receipt is parked too).
    let left = Infinity;
    const round = async () => {
      const parked = await repo.openParked(db, 1000);
      if (parked.length === 0) ambiguousAt = 0;
      if (parked.length === 0 || parked.length >= left) return false;
      left = parked.length;
      const batch: Incoming[] = parked.map((p) => ({
        parkedId: p.id,
        parkedAt: p.created_at.getTime(),
        tries: 1,
        since: 0,
        receipt: {
          connection: p.connection,
          smscId: p.smsc_keys[0] ?? '',
          stat: p.stat,
          err: p.err ?? '',
          doneAt: p.done_at,
          submitDate: p.submit_at,
          raw: p.raw,
        },
        done: { resolve: () => undefined, reject: () => undefined },
      }));
      await process(batch);
      return true;
    };
    for (let i = 0; i < PARKED_ROUNDS; i++) {
      const again = chain.then(round);
      chain = again.then(
        () => undefined,
        () => undefined,
      );
      if (!(await again)) return;
    }
  }

  return {
    /** The gateway's receipt handler: resolves once the receipt is committed (matched or parked). */
    handleReceipt(receipt: DeliveryReceipt): Promise<void> {
      return new Promise((resolve, reject) => {
        queue.push({ receipt, tries: 0, since: Date.now(), done: { resolve, reject } });
        schedule(queue.length >= FLUSH_SIZE ? 0 : FLUSH_MS);
      });
    },

    matchParked,

    /** The notation a connection's receipts are matched with now (status and tests). */
    notationFor: (connection: string) => notations.notationFor(connection),

    /** Processes everything received so far (receipts waiting for parts included). */
    async drain() {
      draining = true; // what still has no part is parked now, not kept waiting
      for (let round = 0; round < 2; round++) {
        releaseWaiting();
        if (timer) {
          clearTimeout(timer);
          timer = null;
          const batch = queue;
          queue = [];
          chain = chain.then(() => process(batch));
        }
        await chain;
      }
      draining = false;
    },
  };
}

export type DlrService = ReturnType<typeof createDlrService>;
