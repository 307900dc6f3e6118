import type { Config } from '../../platform/config';
import { type Db, transact } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import type { LedgerService } from '../ledger/ledger.service';
import { insertEvents } from './messages.repository';
import { notifyChanged } from './notify';
import { NOT_SENT_LOCKED } from './outcome-settlement';
import * as q from './outcomes.repository';
import { nameLastReceipts, NO_RECEIPT_ERROR } from './receipt-deadline';
import { refundMessages } from './refunds';
import { transition } from './status.repository';

interface Deps {
  db: Db;
  events: EventBus;
  ledger: LedgerService;
  config: Config;
  /** No connection's receipt deadline is shorter than this (the overdue sweep's first filter). */
  shortestReceiptTimeout: () => number;
  /** Work was put back in the queue: wakes the dispatcher's loop. */
  nudge: () => void;
}

/** The queue's upkeep: scheduled messages due, leases expired, validity and receipt deadlines passed. */
export function createQueueMaintenance(deps: Deps) {
  const { db, config, shortestReceiptTimeout, nudge } = deps;

  /**
   * Puts the messages of expired leases (a worker that died or hung) back in the queue. Every worker
   * runs it on its own timer, so a reclaim never waits on whichever node holds the maintenance job
   * (a killed node keeps that job until pg-boss expires it). Concurrent passes are safe: a message
   * moves once, and only the pass that moved it records the event.
   */
  async function reclaimLeases() {
    // One transaction, so a message of a locked account is canceled before any claim can see it back
    // in the queue (the other messages are claimable once it commits, as before).
    const reclaimed = await transact(db, async (trx) => {
      const back = await transition(trx, { to: 'queued', from: ['sending'], rows: [], due: 'lease' });
      if (back.length === 0) return back;
      await insertEvents(
        trx,
        back.map((m) => ({
          message_id: m.id,
          status: 'queued',
          detail: 'Reclaimed after a worker lease expired',
        })),
      );
      // A locked account's messages are canceled and refunded, not sent: the lock canceled what
      // waited, and these were with a worker then.
      const locked = await q.lockedAccounts(
        trx,
        back.map((m) => m.account_id),
      );
      if (locked.size === 0) return back;
      const canceled = await transition(trx, {
        to: 'canceled',
        from: ['queued'],
        rows: back.filter((m) => locked.has(m.account_id)).map((m) => m.id),
        error: NOT_SENT_LOCKED,
      });
      await refundMessages(trx, deps.ledger, canceled);
      await insertEvents(
        trx,
        canceled.map((m) => ({ message_id: m.id, status: 'canceled', detail: NOT_SENT_LOCKED })),
      );
      return back;
    });
    if (reclaimed.length > 0) nudge();
    return reclaimed;
  }

  /**
   * The maintenance pass: scheduled messages whose time came are queued, expired leases reclaimed,
   * and messages past their validity or receipt deadline finalised. The periodic job (every second,
   * for scheduled sends) leaves out the reclaim, which every worker runs on its own timer, and does
   * the deadlines only every MAINTENANCE_DEADLINES_MS: each left-out statement is one an idle worker
   * no longer sends every second (issue #17). Called without options, it does everything.
   */
  async function maintenance(pass: { reclaim?: boolean; deadlines?: boolean } = {}) {
    const promoted = await transition(db, { to: 'queued', from: ['scheduled'], rows: [], due: 'scheduled' });
    const reclaimed = pass.reclaim === false ? [] : await reclaimLeases();
    const changed = [...promoted, ...reclaimed];
    if (pass.deadlines === false) {
      notifyChanged(deps.events, changed);
      if (promoted.length || reclaimed.length) nudge();
      return;
    }
    const finals = await transact(db, async (trx) => {
      const expired = await transition(trx, {
        to: 'expired',
        from: ['queued'],
        rows: [],
        due: 'validity',
        error: 'The validity period ended before the message could be sent',
      });
      await refundMessages(trx, deps.ledger, expired);
      const silent = await transition(trx, {
        to: 'unknown',
        from: ['sent'],
        rows: [],
        due: { receiptOverdue: { shortestTimeoutMinutes: shortestReceiptTimeout() } },
        error: NO_RECEIPT_ERROR,
      });
      await nameLastReceipts(
        trx,
        silent.map((m) => m.id),
      );
      if (config.refundStatuses.includes('unknown')) await refundMessages(trx, deps.ledger, silent);
      await insertEvents(trx, [
        ...promoted.map((m) => ({ message_id: m.id, status: 'queued', detail: 'Scheduled time reached' })),
        ...expired.map((m) => ({
          message_id: m.id,
          status: 'expired',
          detail: 'Validity ended before sending',
        })),
        ...silent.map((m) => ({
          message_id: m.id,
          status: 'unknown',
          detail: 'No delivery receipt by the deadline',
        })),
      ]);
      return [...expired, ...silent];
    });
    notifyChanged(deps.events, [...changed, ...finals]);
    if (promoted.length || reclaimed.length) nudge();
  }

  return { reclaimLeases, maintenance };
}
