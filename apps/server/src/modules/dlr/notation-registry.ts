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

interface Learning {
  evidence: NotationEvidence;
  submitSeen: Set<string>;
  receiptSeen: Set<string>;
}

/**
 * The id notation of every SMPP connection: fixed by configuration, or, for `auto`, learned from the
 * shapes of the first submit_sm_resp and receipt ids (gateway/message-id.ts) and kept in the database
 * so a restart does not learn again.
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
  let loaded: Promise<void> | null = null;

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
    const evidence = JSON.stringify(s.evidence);
    deps.logger.info(
      { connection, notation: formatIdNotation(notation), evidence: s.evidence },
      'SMSC message id notation learned',
    );
    repo.saveNotation(deps.db, connection, notation, evidence).catch((err: unknown) => {
      deps.logger.warn({ err, connection }, 'could not store the learned id notation');
    });
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
