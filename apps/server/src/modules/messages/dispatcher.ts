import { createRouteDecisions } from './route-decisions';
import { createConnectionRegistry, type ConnectionRegistry } from '../../platform/connection-policy';
import type { SmsGateway, SubmitOutcome } from '../../gateway/sms-gateway';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import type { LedgerService } from '../ledger/ledger.service';
import { analyseSmsText } from '@wren/contracts';
import { dispatchPolicies } from './dispatch-policies';
import { notifyChanged } from './notify';
import type { Answered, Claimed } from './outcome-sorting';
import { createOutcomeSettlement } from './outcome-settlement';
import * as q from './outcomes.repository';
import { createPartitionDirectory } from './partition-directory';
import { createQueueMaintenance } from './queue-maintenance';

const FLUSH_MS = 15;
const FLUSH_SIZE = 300;
/** Most outcomes settled in one transaction; a longer backlog is settled in several. */
const FLUSH_MAX = 2000;
const FLUSH_RETRY_MS = 1000;
/** OTP and single sends (priority ≤ this) may use the share of the dispatch batch kept from bulk. */
const URGENT_PRIORITY = 1;
/** While bulk fills its share, a worker looks for urgent messages at least this often. */
const URGENT_PROBE_MS = 50;

interface Deps {
  db: Db;
  gateway: SmsGateway;
  events: EventBus;
  ledger: LedgerService;
  config: Config;
  logger: Logger;
  workerId: string;
  /** The connections applied now (console changes); default: the environment's. */
  connections?: ConnectionRegistry;
}

/**
 * Claims queued messages in batches (FOR UPDATE SKIP LOCKED + lease), submits them through the
 * gateway, and settles the outcomes in batched transactions. `maintenance` (scheduled messages, expiry,
 * lease reclaim) runs as a pg-boss job (platform/worker-jobs.ts).
 */
export function createDispatcher(deps: Deps) {
  const { db, gateway, config, logger, workerId } = deps;
  const partitions = createPartitionDirectory(db);
  const maxInFlight = config.dispatchBatch;
  /**
   * Without a wake (queued event, requeue), an idle dispatcher still looks this often (due times,
   * announcements lost between nodes), backing off to the max while its looks find nothing.
   */
  const idlePollMs = config.dispatchIdlePollMs;
  const idlePollMaxMs = config.dispatchIdlePollMaxMs;
  /** Looks in a row that found nothing (none since the last wake or claim). */
  let emptyLooks = 0;
  /**
   * A fifth of the batch is kept from bulk, so an OTP or single send queued behind a campaign's drain
   * is claimed at once instead of after the next flush of bulk outcomes.
   */
  const urgentReserve = Math.floor(maxInFlight / 5);
  const policies = dispatchPolicies(deps.connections ?? createConnectionRegistry(config));
  let running = false;
  /** Submits the gateway has not answered yet. */
  let inFlight = 0;
  /**
   * Claims whose outcome is not stored yet (in the gateway, or answered and pending a flush). New
   * claims wait for room under `dispatchBatch`, so a worker that dies can have sent at most that many
   * messages the database does not know were sent: the bound on duplicates after a crash.
   */
  let unsettled = 0;
  /** Of those, bulk ones (limited to the batch less the urgent reserve). */
  let bulkUnsettled = 0;
  /** An urgent message may be waiting (a queued event said so); cleared by a claim that found all. */
  let urgentHint = false;
  let lastUrgentProbe = 0;
  const pending: Answered[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let wakeSleeper: (() => void) | null = null;
  let loopDone: Promise<void> = Promise.resolve();
  const unsubscribe: (() => void)[] = [];

  /** Announcements of new work (queued, requeued, promoted) so far: a claim notes it before it runs. */
  let wakes = 0;
  /** The loop sleeps until room is freed (its share is full), not until new work is announced. */
  let sleepingForRoom = false;
  const nudge = () => {
    wakes += 1;
    emptyLooks = 0;
    wakeSleeper?.();
    wakeSleeper = null;
  };
  /** Wakes the loop when a message requeued with a due time is due: no idle poll has to find it. */
  const nudgeIn = (ms: number) => {
    const t = setTimeout(() => {
      if (running) nudge();
    }, ms);
    t.unref();
  };
  /** Outcomes were stored, so claims have room again: wakes the loop only if it waits for room. */
  const roomFreed = () => {
    if (!sleepingForRoom) return;
    wakeSleeper?.();
    wakeSleeper = null;
  };
  /** Messages were queued (here, or on an API node that announced them): claim now. */
  const wake = (priority?: number) => {
    if ((priority ?? Infinity) <= URGENT_PRIORITY) urgentHint = true;
    nudge();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wakeSleeper = () => {
        clearTimeout(t);
        resolve();
      };
    });

  const isBulk = (m: Claimed) => m.priority > URGENT_PRIORITY;
  const flush = createOutcomeSettlement({
    db,
    events: deps.events,
    ledger: deps.ledger,
    workerId,
    partitions,
    policies,
    decisions: createRouteDecisions(db),
    nudge,
    nudgeIn,
  });
  const { reclaimLeases, maintenance } = createQueueMaintenance({
    db,
    events: deps.events,
    ledger: deps.ledger,
    config,
    shortestReceiptTimeout: policies.shortestReceiptTimeout,
    nudge,
  });

  function submit(m: Claimed) {
    inFlight += 1;
    unsettled += 1;
    if (isBulk(m)) bulkUnsettled += 1;
    const parts = analyseSmsText(m.body).parts;
    gateway
      .submit({
        id: m.id,
        from: m.sender,
        to: m.recipient,
        encoding: m.encoding,
        parts,
        priority: m.priority,
        accountId: m.account_id,
      })
      .catch((err: unknown): SubmitOutcome => ({ kind: 'retry', reason: String(err), retryAfterMs: 1000 }))
      .then(
        (outcome) => {
          inFlight -= 1;
          pending.push({ m, outcome, at: Date.now() });
          if (pending.length >= FLUSH_SIZE) scheduleFlush(0);
          else scheduleFlush(FLUSH_MS);
        },
        () => undefined,
      );
  }

  function scheduleFlush(ms: number) {
    if (flushTimer && ms > 0) return;
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = setTimeout(() => {
      flushTimer = null;
      flushing = flushing.then(flushAll);
    }, ms);
  }

  /**
   * Settles everything pending, FLUSH_MAX at a time. A failed transaction puts its outcomes back and
   * tries again shortly: they are the only record of what the SMSC accepted, so dropping them would
   * let the lease run out and the messages be sent twice.
   */
  async function flushAll() {
    while (pending.length > 0) {
      const batch = pending.splice(0, FLUSH_MAX);
      try {
        await flush(batch);
        unsettled -= batch.length;
        bulkUnsettled -= batch.filter(({ m }) => isBulk(m)).length;
        roomFreed();
      } catch (err) {
        logger.error({ err, outcomes: batch.length }, 'dispatcher flush failed; will retry');
        pending.unshift(...batch);
        if (running) scheduleFlush(FLUSH_RETRY_MS);
        return;
      }
    }
  }

  function flushNow(): Promise<void> {
    if (pending.length === 0) return flushing;
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    flushing = flushing.then(flushAll);
    return flushing;
  }

  let reclaimTimer: NodeJS.Timeout | null = null;
  let reclaiming = false;
  function startReclaimTimer() {
    // A quarter of the lease: an expired lease is reclaimed at most lease × 1.25 after its last claim.
    const every = Math.max(1000, (config.leaseSeconds * 1000) / 4);
    reclaimTimer = setInterval(() => {
      if (reclaiming || !running) return;
      reclaiming = true;
      reclaimLeases()
        .then((r) => notifyChanged(deps.events, r))
        .catch((err: unknown) => logger.warn({ err }, 'lease reclaim failed; next pass retries'))
        .finally(() => {
          reclaiming = false;
        });
    }, every);
    reclaimTimer.unref();
  }

  /** Sleeps `ms`, or until woken; not at all if new work was announced since `seen`. */
  async function rest(ms: number, seen: number, forRoom: boolean) {
    if (wakes !== seen) return;
    sleepingForRoom = forRoom;
    try {
      await sleep(ms);
    } finally {
      sleepingForRoom = false;
    }
  }

  async function loop() {
    while (running) {
      try {
        const seen = wakes;
        const room = Math.min(maxInFlight - unsettled, maxInFlight - urgentReserve - bulkUnsettled);
        let claimed: Claimed[] = [];
        let asked = 0;
        if (room > 0) {
          // Most urgent first, so urgent messages take this room before bulk does.
          asked = room;
          // A look after looks that found nothing (an idle poll, no wake since) first asks whether
          // anything is due, in one statement instead of the claim's three.
          if (emptyLooks === 0 || (await q.anyDue(db)))
            claimed = await q.claimBatch(db, workerId, room, config.leaseSeconds);
        } else if (
          maxInFlight > unsettled &&
          (urgentHint || Date.now() - lastUrgentProbe >= URGENT_PROBE_MS)
        ) {
          // Bulk has its share: only urgent messages may take the rest.
          const urgentRoom = maxInFlight - unsettled;
          urgentHint = false;
          lastUrgentProbe = Date.now();
          claimed = await q.claimBatch(db, workerId, urgentRoom, config.leaseSeconds, URGENT_PRIORITY);
          if (claimed.length === urgentRoom) urgentHint = true;
        }
        for (const m of claimed) submit(m);
        if (claimed.length > 0) emptyLooks = 0;
        if (room <= 0) {
          // Bulk's share is full: wait for stored outcomes (or new urgent work, or the urgent probe).
          await rest(Math.min(idlePollMs, URGENT_PROBE_MS), seen, true);
        } else if (claimed.length < asked) {
          // The queue had no more due messages: wait for new work to be announced, or the idle poll
          // (due times, retries). Outcomes stored meanwhile do not wake it: at one message per
          // request this saves a claim that would find nothing, for every message. Looks that find
          // nothing back off: an idle worker costs PostgreSQL a look per second, not five.
          if (claimed.length === 0) emptyLooks += 1;
          await rest(Math.min(idlePollMaxMs, idlePollMs * 2 ** Math.max(0, emptyLooks - 1)), seen, false);
        } else if (unsettled >= maxInFlight) {
          await rest(5, seen, true);
        }
      } catch (err) {
        if (!running) break;
        logger.error({ err }, 'dispatcher loop error');
        await sleep(1000);
      }
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      unsubscribe.push(deps.events.subscribe('messages.queued', (e) => wake(e.priority)));
      startReclaimTimer();
      loopDone = loop();
    },
    /** Stops claiming, waits for in-flight submits to come back, and settles them. */
    async stop() {
      running = false;
      nudge();
      if (reclaimTimer) clearInterval(reclaimTimer);
      reclaimTimer = null;
      unsubscribe.forEach((u) => u());
      await loopDone;
      const deadline = Date.now() + 15_000;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
      await flushing;
      await flushAll();
    },
    /**
     * Resolves once the outcomes that came back so far are stored. Receipt processing waits on it:
     * an SMSC usually sends a receipt right after submit_sm_resp, and matching it against parts
     * committed a moment later beats parking it and matching it again.
     */
    flushNow,
    /** Runs the scheduled/expiry/lease pass now (tests and admin use). */
    maintenance,
    /** Runs the lease reclaim now (it also runs on this worker's own timer). */
    reclaimLeases,
    wake,
    stats: () => ({ inFlight, unsettled, bulkUnsettled, pending: pending.length }),
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
