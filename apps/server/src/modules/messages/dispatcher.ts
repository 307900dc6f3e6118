import type { SmsGateway, SubmitOutcome } from '../../gateway/sms-gateway';
import { canonicalId } from '../../gateway/message-id';
import type { Config } from '../../platform/config';
import { connectionPolicy, laneOf, type ConnectionPolicy } from '../../platform/connection-policy';
import { afterCommit, type Db, transact } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import type { LedgerService } from '../ledger/ledger.service';
import { analyseSmsText } from '@wren/contracts';
import * as q from './outcomes.repository';
import { insertEvents } from './messages.repository';
import { refundMessages } from './refunds';
import { notifyChanged } from './notify';
import { transition, type Transitioned } from './status.repository';
import { createPartitionDirectory } from './partition-directory';
import { nameLastReceipts, NO_RECEIPT_ERROR } from './receipt-deadline';

/** Claims per message before it fails; the validity period is the other limit. */
const MAX_ATTEMPTS = 25;
/** The longest a message waiting for a connection (none bound, paused) steps back before a new try. */
const MAX_WAITING_BACKOFF_MS = 10_000;
/** Why a message that was with a worker when its account was locked is not sent again. */
const NOT_SENT_LOCKED = 'Not sent: the account was locked by an operator';
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
}

type Claimed = Awaited<ReturnType<typeof q.claimBatch>>[number];
type Accepted = Extract<SubmitOutcome, { kind: 'accepted' | 'unknown' }>;
/** A gateway's answer for a claimed message, and when it came (epoch ms): the message's submit time. */
interface Answered {
  m: Claimed;
  outcome: SubmitOutcome;
  at: number;
}

/** Outcomes by what happens to the message, narrowed on `kind`. */
function sortOutcomes(batch: readonly Answered[], policyOf: (connection: string) => ConnectionPolicy) {
  const accepted = new Map<string, { m: Claimed; outcome: Accepted; at: number }[]>();
  const accept = (item: { m: Claimed; outcome: Accepted; at: number }) => {
    const list = accepted.get(item.outcome.connection);
    if (list) list.push(item);
    else accepted.set(item.outcome.connection, [item]);
  };
  const retry: { m: Claimed; outcome: Extract<SubmitOutcome, { kind: 'retry' }> }[] = [];
  /** Written but never answered, on a lane whose policy is to send again (possible duplicate). */
  const resend: { m: Claimed; reason: string }[] = [];
  const failed: { m: Claimed; error: string }[] = [];
  const rejected: { m: Claimed; error: string }[] = [];
  for (const { m, outcome, at } of batch) {
    switch (outcome.kind) {
      case 'accepted':
        accept({ m, outcome, at });
        break;
      case 'unknown':
        if (outcome.smscIds.length > 0) {
          accept({ m, outcome, at });
        } else if (policyOf(outcome.connection).onUnanswered[laneOf(m.priority)] === 'resend') {
          resend.push({ m, reason: outcome.reason });
        } else {
          failed.push({
            m,
            error: `No answer from the SMSC (${outcome.reason}); not resent, to avoid a duplicate`,
          });
        }
        break;
      case 'retry':
        retry.push({ m, outcome });
        break;
      case 'rejected':
        rejected.push({ m, error: `Rejected by the SMSC: ${outcome.reason}` });
        break;
    }
  }
  return { accepted, retry, resend, failed, rejected };
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
  const policies = new Map<string, ConnectionPolicy>();
  const policyOf = (connection: string) => {
    let p = policies.get(connection);
    if (!p) policies.set(connection, (p = connectionPolicy(config, connection)));
    return p;
  };
  const receiptTimeout = (connection: string, m: Claimed) => {
    const p = policyOf(connection);
    return laneOf(m.priority) === 'otp' ? p.otpReceiptTimeoutMinutes : p.receiptTimeoutMinutes;
  };
  /** No connection's receipt deadline is shorter than this (the overdue sweep's first filter). */
  const shortestReceiptTimeout = Math.min(
    ...[
      config.smscPolicy,
      ...config.smscConnections.map((c) => ({ ...config.smscPolicy, ...c.policy })),
    ].flatMap((p) => [p.receiptTimeoutMinutes ?? Infinity, p.otpReceiptTimeoutMinutes ?? Infinity]),
  );
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

  /** Accepted messages of one connection to `sent`, with every part under its SMSC id (one statement). */
  async function markSent(
    trx: Db,
    connection: string,
    items: { m: Claimed; outcome: Accepted; at: number }[],
  ) {
    const sent = await transition(trx, {
      to: 'sent',
      from: ['sending'],
      heldBy: workerId,
      connection,
      partitions,
      rows: items.map(({ m, at }) => ({
        id: m.id,
        receiptTimeoutMinutes: receiptTimeout(connection, m),
        submittedAt: new Date(at),
      })),
      parts: items.flatMap(({ m, outcome }) =>
        outcome.smscIds.map((sid, part) => ({
          connection,
          smsc_key: canonicalId(sid),
          message_id: m.id,
          part,
        })),
      ),
    });
    const ok = new Set(sent.map((s) => s.id));
    const mine = items.filter(({ m }) => ok.has(m.id));
    return { sent, mine, smscIds: mine.flatMap(({ outcome }) => outcome.smscIds) };
  }

  async function flush(batch: Answered[]) {
    if (batch.length === 0) return;
    const sorted = sortOutcomes(batch, policyOf);
    // The usual flush: every message accepted whole on one connection. Its one statement needs no
    // transaction around it (BEGIN and COMMIT were two of its four round trips).
    const only = sorted.accepted.size === 1 ? [...sorted.accepted][0] : undefined;
    if (
      only &&
      sorted.retry.length + sorted.resend.length + sorted.failed.length + sorted.rejected.length === 0 &&
      only[1].every(({ outcome }) => outcome.kind === 'accepted')
    ) {
      const [connection, items] = only;
      const { sent, smscIds } = await markSent(db, connection, items);
      if (smscIds.length) deps.events.publish('parts.stored', { connection, smscIds });
      notifyChanged(deps.events, sent);
      return;
    }
    const stored: { connection: string; smscIds: string[] }[] = [];
    const changed = await transact(db, async (trx) => {
      const touched: Transitioned[] = [];
      const events: { message_id: string; status: string; detail: string }[] = [];
      // Accepted (fully, or partly with an unknown tail): sent, with every part under its SMSC id.
      for (const [connection, items] of sorted.accepted) {
        const { sent, mine, smscIds } = await markSent(trx, connection, items);
        if (smscIds.length) stored.push({ connection, smscIds });
        // The happy path writes no event; a partial submit is worth one.
        for (const { m, outcome } of mine) {
          if (outcome.kind === 'unknown') {
            events.push({
              message_id: m.id,
              status: 'sent',
              detail: `Partly submitted via ${connection} (${outcome.smscIds.length} part(s)): ${outcome.reason}`,
            });
          }
        }
        touched.push(...sent);
      }
      // A locked account's messages are not sent again (the lock canceled what waited; these were
      // with this worker then): failed and refunded instead of back to the queue.
      const locked = await q.lockedAccounts(
        trx,
        [...sorted.retry, ...sorted.resend].map(({ m }) => m.account_id),
      );
      // Safe to send again later: back to the queue with backoff, or failed after too many tries.
      let dueIn = Infinity;
      for (const { m, outcome } of sorted.retry) {
        if (locked.has(m.account_id)) {
          sorted.failed.push({ m, error: NOT_SENT_LOCKED });
          continue;
        }
        // Waiting for a connection (none bound, paused, no free slot) spends no attempt: an SMSC down
        // or paused for longer than 25 tries is waited for until the message's validity ends.
        const outOfTries = !outcome.waiting && m.attempts >= MAX_ATTEMPTS;
        if (outOfTries || m.validity_until.getTime() < Date.now()) {
          sorted.failed.push({ m, error: `Could not be sent: ${outcome.reason}` });
          continue;
        }
        // The gateway paces the bind itself (a throttled bind stays paused), so the message only needs
        // to step back briefly: its suggested delay, capped, with jitter. Waiting for a connection,
        // the gateway's own suggestion (5 s when none is bound) is kept.
        const cap = outcome.waiting ? MAX_WAITING_BACKOFF_MS : 2000;
        const backoff = Math.min(cap, Math.max(100, outcome.retryAfterMs)) * (1 + Math.random() * 0.2);
        const r = await transition(trx, {
          to: 'queued',
          from: ['sending'],
          heldBy: workerId,
          rows: [m.id],
          retryInMs: Math.round(backoff),
          giveBackAttempt: outcome.waiting === true,
        });
        if (r.length) {
          events.push({ message_id: m.id, status: 'queued', detail: `Will retry: ${outcome.reason}` });
          dueIn = Math.min(dueIn, Math.round(backoff));
        }
      }
      if (dueIn < Infinity) afterCommit(trx, () => nudgeIn(dueIn));
      // Unanswered on a lane that resends: back to the queue at once (at-least-once, noted in history).
      for (const { m, reason } of sorted.resend) {
        if (locked.has(m.account_id)) {
          sorted.failed.push({ m, error: NOT_SENT_LOCKED });
          continue;
        }
        if (m.attempts >= MAX_ATTEMPTS || m.validity_until.getTime() < Date.now()) {
          sorted.failed.push({
            m,
            error: `No answer from the SMSC (${reason}) after ${m.attempts} attempts`,
          });
          continue;
        }
        const r = await transition(trx, { to: 'queued', from: ['sending'], heldBy: workerId, rows: [m.id] });
        if (r.length) {
          events.push({
            message_id: m.id,
            status: 'queued',
            detail: `No answer from the SMSC (${reason}); sent again — the handset may receive it twice`,
          });
          afterCommit(trx, nudge);
        }
      }
      // Never (knowingly) submitted: failed or rejected, and refunded.
      for (const [to, list] of [
        ['failed', sorted.failed],
        ['rejected', sorted.rejected],
      ] as const) {
        if (list.length === 0) continue;
        const r = await transition(trx, {
          to,
          from: ['sending'],
          heldBy: workerId,
          rows: list.map(({ m, error }) => ({ id: m.id, error })),
        });
        await refundMessages(trx, deps.ledger, r);
        const done = new Set(r.map((x) => x.id));
        for (const { m, error } of list)
          if (done.has(m.id)) events.push({ message_id: m.id, status: to, detail: error });
        touched.push(...r);
      }
      await insertEvents(trx, events);
      for (const s of stored) afterCommit(trx, () => deps.events.publish('parts.stored', s));
      return touched;
    });
    notifyChanged(deps.events, changed);
  }

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
        due: { receiptOverdue: { shortestTimeoutMinutes: shortestReceiptTimeout } },
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
