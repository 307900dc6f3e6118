import {
  addEvidence,
  canonicalId,
  decideNotation,
  emptyEvidence,
  formatIdNotation,
  provisionalNotation,
  type IdNotation,
  type IdNotationSetting,
  type NotationEvidence,
} from '../../gateway/message-id';
import type { Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import * as repo from './dlr.repository';

/** Distinct ids remembered per side while learning (enough for DIGITS_EVIDENCE, bounded). */
const MAX_SAMPLES = 256;
/**
 * After a notation changed and was learned again, receipts still written in the one before (those of
 * messages sent before the change) may come for this long: a receipt that fits an open part under
 * the previous notation too is ambiguous and parked (receipt-matching.ts). Only parts stored before
 * the change can be named so: `since` is the storing time of the earliest open part that showed the
 * new notation, and a part stored then or later was answered in the new one.
 */
const PREVIOUS_NOTATION_MS = 10 * 60 * 1000;

interface Learning {
  evidence: NotationEvidence;
  submitSeen: Set<string>;
  receiptSeen: Set<string>;
}

/**
 * The id notation of every SMPP connection: fixed by configuration, or, for `auto`, learned from the
 * shapes of the first submit_sm_resp and receipt ids (gateway/message-id.ts) and kept in the database
 * so a restart does not learn again. A learned notation is evidence, not a fact: receipt matching
 * reports when receipts contradict it (changed()), and the connection then learns again from scratch.
 */
export function createNotationRegistry(deps: {
  db: Db;
  logger: Logger;
  /** Setting of a connection by name; `auto` when not configured. */
  settingOf: (connection: string) => IdNotationSetting;
  /** Called once when a connection's notation has just been decided. */
  onDecided: (connection: string, notation: IdNotation) => void;
}) {
  const decided = new Map<string, IdNotation>();
  const learning = new Map<string, Learning>();
  /** The notation a connection had before it changed, until PREVIOUS_NOTATION_MS after the new one. */
  const previous = new Map<string, { notation: IdNotation; until: number; since: Date }>();
  let loaded: Promise<void> | null = null;
  /** Stored rows are written in order (a forget, then the notation learned again). */
  let writes: Promise<void> = Promise.resolve();
  const write = (connection: string, what: string, fn: () => Promise<void>) => {
    writes = writes.then(fn).catch((err: unknown) => {
      deps.logger.warn({ err, connection }, `could not ${what}`);
    });
  };

  function state(connection: string): Learning {
    let s = learning.get(connection);
    if (!s) {
      s = { evidence: emptyEvidence(), submitSeen: new Set(), receiptSeen: new Set() };
      learning.set(connection, s);
    }
    return s;
  }

  function decide(connection: string, s: Learning) {
    const notation = decideNotation(s.evidence);
    if (!notation) return;
    decided.set(connection, notation);
    learning.delete(connection);
    const before = previous.get(connection);
    if (before) before.until = Date.now() + PREVIOUS_NOTATION_MS;
    const evidence = JSON.stringify(s.evidence);
    deps.logger.info(
      {
        connection,
        notation: formatIdNotation(notation),
        evidence: s.evidence,
        ...(before ? { before: formatIdNotation(before.notation) } : {}),
      },
      before ? 'SMSC message id notation learned again' : 'SMSC message id notation learned',
    );
    write(connection, 'store the learned id notation', () =>
      repo.saveNotation(deps.db, connection, notation, evidence),
    );
    deps.onDecided(connection, notation);
  }

  return {
    /** Loads the notations learned earlier (once). */
    load(): Promise<void> {
      loaded ??= repo.loadNotations(deps.db).then((rows) => {
        for (const r of rows) {
          if (deps.settingOf(r.connection) === 'auto' && !decided.has(r.connection)) {
            decided.set(r.connection, { submit: r.submit_radix, receipt: r.receipt_radix });
            learning.delete(r.connection);
          }
        }
      });
      return loaded;
    },

    /**
     * The notation to match a receipt of `connection` with: the configured or learned one, else a
     * provisional one when the evidence allows exact matching, else undefined (park the receipt).
     */
    notationFor(connection: string): IdNotation | undefined {
      const setting = deps.settingOf(connection);
      if (setting !== 'auto') return setting;
      return decided.get(connection) ?? provisionalNotation(state(connection).evidence);
    },

    /**
     * While a connection's notation is still unknown: the notations a receipt that has already been
     * parked once may be read in. It matches only if exactly one open part fits any of them.
     */
    fallbackNotations(connection: string): IdNotation[] {
      if (deps.settingOf(connection) !== 'auto' || decided.has(connection)) return [];
      const e = state(connection).evidence;
      const hexAnswers: IdNotation = { submit: 'hex', receipt: 'dec' };
      const hexReceipts: IdNotation = { submit: 'dec', receipt: 'hex' };
      // Letters on one side tell which side is hex; digits only so far leave both crossings open.
      const crosses =
        e.submitHexLetters > 0
          ? [hexAnswers]
          : e.receiptHexLetters > 0
            ? [hexReceipts]
            : [hexAnswers, hexReceipts];
      return [{ submit: 'string', receipt: 'string' }, ...crosses];
    },

    /** True when the notation is configured or learned (not provisional). */
    isSettled(connection: string): boolean {
      return deps.settingOf(connection) !== 'auto' || decided.has(connection);
    },

    /** The learned notation of an `auto` connection (undefined: configured, or still learning). */
    learnedNotation(connection: string): IdNotation | undefined {
      return deps.settingOf(connection) === 'auto' ? decided.get(connection) : undefined;
    },

    /**
     * The notation a connection learned again had before, while its receipts may still come, and
     * since when parts are stored in the new one (only a part stored earlier can be named in it).
     */
    previousNotation(connection: string): { notation: IdNotation; since: Date } | undefined {
      const p = previous.get(connection);
      if (!p || !decided.has(connection)) return undefined;
      if (Date.now() > p.until) {
        previous.delete(connection);
        return undefined;
      }
      return { notation: p.notation, since: p.since };
    },

    /**
     * Receipts contradict the learned notation of `connection` (receipt-matching.ts says how): it is
     * forgotten here and in the database, a warning is logged, and the connection learns again from
     * the ids it sees from now on (receipts are matched as while learning: only a part no other
     * reading fits, the rest parked).
     */
    changed(connection: string, detail: Record<string, unknown>, since: Date) {
      const was = decided.get(connection);
      if (!was || deps.settingOf(connection) !== 'auto') return;
      decided.delete(connection);
      learning.delete(connection);
      previous.set(connection, { notation: was, until: Number.POSITIVE_INFINITY, since });
      deps.logger.warn(
        { connection, learned: formatIdNotation(was), ...detail },
        'SMSC message id notation changed: receipts contradict the learned one; learning it again',
      );
      write(connection, 'forget the learned id notation', () => repo.forgetNotation(deps.db, connection));
    },

    /** Feeds ids seen on a connection into its learning (no-op once settled). */
    observe(connection: string, side: 'submit' | 'receipt', ids: readonly string[]) {
      if (deps.settingOf(connection) !== 'auto' || decided.has(connection)) return;
      const s = state(connection);
      const seen = side === 'submit' ? s.submitSeen : s.receiptSeen;
      const fresh: string[] = [];
      for (const id of ids) {
        const c = canonicalId(id);
        if (c === '' || seen.has(c) || seen.size >= MAX_SAMPLES) continue;
        seen.add(c);
        fresh.push(c);
      }
      if (fresh.length === 0) return;
      addEvidence(s.evidence, side, fresh);
      decide(connection, s);
    },
  };
}

export type NotationRegistry = ReturnType<typeof createNotationRegistry>;
