import { smscIdKeys } from '../../gateway/message-id';
import type { DeliveryReceipt } from '../../gateway/sms-gateway';
import type { Config } from '../../platform/config';
import { type Db, transact } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import type { LedgerService } from '../ledger/ledger.service';
import { insertEvents } from '../messages/messages.repository';
import { notifyChanged } from '../messages/notify';
import { refundMessages } from '../messages/refunds';
import * as repo from './dlr.repository';
import { FINAL_STAT_STATUS, isFinalStat, messageStatusFromParts } from './receipt-status';

interface Deps {
  db: Db;
  config: Config;
  events: EventBus;
  ledger: LedgerService;
  logger: Logger;
}

interface Incoming {
  receipt: DeliveryReceipt;
  parkedId?: number;
  done: { resolve: () => void; reject: (e: unknown) => void };
}

const FLUSH_MS = 10;
const FLUSH_SIZE = 400;

/**
 * Matches delivery receipts to message parts, moves statuses forward only, refunds by policy and
 * keeps every raw receipt. Receipts are batched; each caller's promise resolves once its receipt is
 * committed, so the gateway acknowledges to the SMSC only what is stored. Receipts for unknown ids
 * are parked and matched when the parts appear.
 */
export function createDlrService(deps: Deps) {
  const { db, logger } = deps;
  let queue: Incoming[] = [];
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();
  /** Waits until submit outcomes already received are stored (the dispatcher's flush). */
  let beforeApply: () => Promise<void> = () => Promise.resolve();

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

  async function process(batch: Incoming[]) {
    if (batch.length === 0) return;
    try {
      if (batch.some((b) => b.parkedId === undefined)) await beforeApply();
      const changed = await transact(db, (trx) => apply(trx, batch));
      notifyChanged(deps.events, changed);
      batch.forEach((b) => b.done.resolve());
    } catch (err) {
      logger.error({ err }, 'receipt batch failed');
      batch.forEach((b) => b.done.reject(err));
    }
  }

  async function apply(trx: Db, batch: Incoming[]) {
    const keyed = batch.map((b) => ({ ...b, keys: smscIdKeys(b.receipt.smscId) }));
    const parts = await repo.findParts(
      trx,
      [...new Set(keyed.map((k) => k.receipt.connection))],
      [...new Set(keyed.flatMap((k) => k.keys))],
    );
    const index = new Map<string, { message_id: string; part: number }>();
    for (const p of parts) index.set(`${p.connection}\u0000${p.smsc_key}`, p);

    const events: { message_id: string; status: string; detail: string; raw: string }[] = [];
    const toPark: Parameters<typeof repo.park>[1] = [];
    const matchedParked: number[] = [];
    const missedParked: number[] = [];
    const finalCandidates = new Set<string>();

    const matched: { k: (typeof keyed)[number]; hit: { message_id: string; part: number } }[] = [];
    for (const k of keyed) {
      const r = k.receipt;
      const hit = k.keys.map((key) => index.get(`${r.connection}\u0000${key}`)).find(Boolean);
      if (!hit) {
        if (k.parkedId !== undefined) missedParked.push(k.parkedId);
        else
          toPark.push({
            connection: r.connection,
            smsc_keys: k.keys,
            stat: r.stat,
            err: r.err,
            done_at: r.doneAt,
            raw: r.raw,
          });
        continue;
      }
      if (k.parkedId !== undefined) matchedParked.push(k.parkedId);
      matched.push({ k, hit });
    }

    // One statement sets the final stat of every part that is not final yet (first receipt wins).
    const firstFinal = new Map<string, { message_id: string; part: number; stat: string }>();
    for (const { k, hit } of matched) {
      const key = `${hit.message_id}:${hit.part}`;
      if (isFinalStat(k.receipt.stat) && !firstFinal.has(key)) {
        firstFinal.set(key, { message_id: hit.message_id, part: hit.part, stat: k.receipt.stat });
      }
    }
    const changed = await repo.setPartStats(trx, [...firstFinal.values()]);
    const changedKeys = new Set(changed.map((c) => `${c.message_id}:${c.part}`));
    const applied = new Set<string>();
    for (const { k, hit } of matched) {
      const key = `${hit.message_id}:${hit.part}`;
      const final = isFinalStat(k.receipt.stat);
      const takes = final && changedKeys.has(key) && !applied.has(key);
      if (takes) {
        applied.add(key);
        finalCandidates.add(hit.message_id);
      }
      events.push({
        message_id: hit.message_id,
        status: 'receipt',
        detail: `Part ${hit.part + 1}: ${k.receipt.stat} (err ${k.receipt.err})${final && !takes ? ' — ignored, part already final' : ''}`,
        raw: k.receipt.raw,
      });
    }

    // Messages whose parts are now all final move to their final status in one statement.
    const progress = await repo.partProgress(trx, [...finalCandidates]);
    const finishing = [];
    for (const p of progress) {
      const stats = p.stats.filter((s): s is string => isFinalStat(s));
      if (stats.length < p.total) continue;
      const worst = stats.find((s) => s !== 'DELIVRD') ?? 'DELIVRD';
      const err = keyed.find((k) => k.receipt.stat === worst)?.receipt.err ?? null;
      finishing.push({ id: p.message_id, status: messageStatusFromParts(stats), stat: worst, err });
    }
    const finished = await repo.finishMessages(trx, finishing);
    const touched: { account_id: string; campaign_id: string | null }[] = finished;
    const refundable = finished.filter((m) => deps.config.refundStatuses.includes(m.status));
    for (const m of finished)
      events.push({ message_id: m.id, status: m.status, detail: `Final: ${m.smsc_stat}`, raw: '' });
    await refundMessages(trx, deps.ledger, refundable);
    await repo.park(trx, toPark);
    await repo.markParked(trx, matchedParked, missedParked);
    await insertEvents(
      trx,
      events.map((e) => ({ ...e, raw: e.raw || null })),
    );
    return touched;
  }

  return {
    /** The gateway's receipt handler: resolves once the receipt is committed. */
    handleReceipt(receipt: DeliveryReceipt): Promise<void> {
      return new Promise((resolve, reject) => {
        queue.push({ receipt, done: { resolve, reject } });
        schedule(queue.length >= FLUSH_SIZE ? 0 : FLUSH_MS);
      });
    },

    /** Receipts are matched only after `wait` resolves (the worker passes the dispatcher's flush). */
    setBeforeApply(wait: () => Promise<void>) {
      beforeApply = wait;
    },

    /** Tries parked receipts again (after new parts are stored, and periodically). */
    async matchParked() {
      const parked = await repo.openParked(db, 1000);
      if (parked.length === 0) return;
      const batch: Incoming[] = parked.map((p) => ({
        parkedId: p.id,
        receipt: {
          connection: p.connection,
          smscId: p.smsc_keys[0] ?? '',
          stat: p.stat,
          err: p.err ?? '',
          doneAt: p.done_at,
          raw: p.raw,
        },
        done: { resolve: () => undefined, reject: () => undefined },
      }));
      await (chain = chain.then(() => process(batch)));
    },

    async drain() {
      if (timer) {
        clearTimeout(timer);
        timer = null;
        const batch = queue;
        queue = [];
        chain = chain.then(() => process(batch));
      }
      await chain;
    },
  };
}

export type DlrService = ReturnType<typeof createDlrService>;
export { FINAL_STAT_STATUS };
