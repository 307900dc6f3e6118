import type { SmsGateway, SubmitOutcome } from '../../gateway/sms-gateway';
import { smscIdKeys } from '../../gateway/message-id';
import type { Config } from '../../platform/config';
import { type Db, transact } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import type { LedgerService } from '../ledger/ledger.service';
import { analyseSmsText } from '@wren/contracts';
import * as q from './outcomes.repository';
import { insertEvents } from './messages.repository';
import { refundMessages } from './refunds';
import { notifyChanged } from './notify';

/** Claims per message before it fails; the validity period is the other limit. */
const MAX_ATTEMPTS = 25;
const FLUSH_MS = 15;
const FLUSH_SIZE = 300;
/** Most outcomes settled in one transaction; a longer backlog is settled in several. */
const FLUSH_MAX = 2000;
const FLUSH_RETRY_MS = 1000;
const IDLE_POLL_MS = 200;
const MAINTENANCE_MS = 1000;

interface Deps {
  db: Db;
  gateway: SmsGateway;
  events: EventBus;
  ledger: LedgerService;
  config: Config;
  logger: Logger;
  workerId: string;
  /** Called after new parts are stored, so parked receipts can be matched. */
  onPartsStored?: () => Promise<void>;
}

type Claimed = Awaited<ReturnType<typeof q.claimBatch>>[number];

/**
 * Claims queued messages in batches (FOR UPDATE SKIP LOCKED + lease), submits them through the
 * gateway, and settles the outcomes in batched transactions. Scheduled messages, expiry and lease
 * reclaim run here too, every second.
 */
export function createDispatcher(deps: Deps) {
  const { db, gateway, config, logger, workerId } = deps;
  const maxInFlight = config.dispatchBatch;
  let running = false;
  let inFlight = 0;
  const pending: { m: Claimed; outcome: SubmitOutcome }[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();
  let wake: (() => void) | null = null;
  let loopDone: Promise<void> = Promise.resolve();
  const unsubscribe: (() => void)[] = [];

  const nudge = () => {
    wake?.();
    wake = null;
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });

  function submit(m: Claimed) {
    inFlight += 1;
    const parts = analyseSmsText(m.body).parts;
    gateway
      .submit({ id: m.id, from: m.sender, to: m.recipient, encoding: m.encoding, parts })
      .catch((err: unknown): SubmitOutcome => ({ kind: 'retry', reason: String(err), retryAfterMs: 1000 }))
      .then(
        (outcome) => {
          inFlight -= 1;
          pending.push({ m, outcome });
          if (pending.length >= FLUSH_SIZE) scheduleFlush(0);
          else scheduleFlush(FLUSH_MS);
          nudge();
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

  async function flush(batch: { m: Claimed; outcome: SubmitOutcome }[]) {
    if (batch.length === 0) return;
    const accepted = batch.filter(
      (b) => b.outcome.kind === 'accepted' || (b.outcome.kind === 'unknown' && b.outcome.smscIds.length > 0),
    );
    let storedParts = false;
    const changed = await transact(db, async (trx) => {
      const touched: { account_id: string; campaign_id: string | null }[] = [];
      const events: { message_id: string; status: string; detail: string }[] = [];
      // Accepted (fully, or partly with an unknown tail): sent, with every part's lookup keys.
      const byConnection = new Map<string, typeof accepted>();
      for (const b of accepted) {
        const conn = (b.outcome as { connection: string }).connection;
        byConnection.set(conn, [...(byConnection.get(conn) ?? []), b]);
      }
      for (const [connection, items] of byConnection) {
        const sent = await q.settle(
          trx,
          workerId,
          items.map((b) => b.m.id),
          { status: 'sent', connection, error: null },
        );
        const ok = new Set(sent.map((s) => s.id));
        const parts = items
          .filter((b) => ok.has(b.m.id))
          .flatMap((b) =>
            (b.outcome as { smscIds: string[] }).smscIds.flatMap((sid, part) =>
              smscIdKeys(sid).map((key) => ({ connection, smsc_key: key, message_id: b.m.id, part })),
            ),
          );
        await q.insertParts(trx, parts);
        storedParts ||= parts.length > 0;
        for (const b of items) {
          if (!ok.has(b.m.id)) continue;
          const o = b.outcome as { kind: string; smscIds: string[]; reason?: string };
          events.push({
            message_id: b.m.id,
            status: 'sent',
            detail:
              o.kind === 'accepted'
                ? `Submitted via ${connection}, SMSC id ${o.smscIds.join(', ')}`
                : `Partly submitted via ${connection} (${o.smscIds.length} part(s)): ${o.reason ?? ''}`,
          });
        }
        touched.push(...sent);
      }
      // Safe to send again later: back to the queue with backoff, or failed after too many tries.
      const retries = batch.filter((b) => b.outcome.kind === 'retry');
      const giveUp = retries.filter(
        (b) => b.m.attempts >= MAX_ATTEMPTS || b.m.validity_until.getTime() < Date.now(),
      );
      const again = retries.filter((b) => !giveUp.includes(b));
      for (const b of again) {
        const o = b.outcome as { reason: string; retryAfterMs: number };
        // The gateway paces the bind itself (a throttled bind stays paused), so the message only needs
        // to step back briefly: its suggested delay, capped, with jitter.
        const backoff = Math.min(2000, Math.max(100, o.retryAfterMs)) * (1 + Math.random() * 0.2);
        const r = await q.settle(trx, workerId, [b.m.id], {
          status: 'queued',
          retryInMs: Math.round(backoff),
        });
        if (r.length)
          events.push({ message_id: b.m.id, status: 'queued', detail: `Will retry: ${o.reason}` });
      }
      // Never (knowingly) submitted: failed or rejected, and refunded.
      const failures = [
        ...giveUp.map((b) => ({
          b,
          status: 'failed',
          error: `Could not be sent: ${(b.outcome as { reason: string }).reason}`,
        })),
        ...batch
          .filter((b) => b.outcome.kind === 'rejected')
          .map((b) => ({
            b,
            status: 'rejected',
            error: `Rejected by the SMSC: ${(b.outcome as { reason: string }).reason}`,
          })),
        ...batch
          .filter((b) => b.outcome.kind === 'unknown' && b.outcome.smscIds.length === 0)
          .map((b) => ({
            b,
            status: 'failed',
            error: `No answer from the SMSC (${(b.outcome as { reason: string }).reason}); not resent, to avoid a duplicate`,
          })),
      ];
      for (const f of failures) {
        const r = await q.settle(trx, workerId, [f.b.m.id], { status: f.status, error: f.error });
        await refundMessages(trx, deps.ledger, r);
        if (r.length) events.push({ message_id: f.b.m.id, status: f.status, detail: f.error });
        touched.push(...r);
      }
      await insertEvents(trx, events);
      return touched;
    });
    notifyChanged(deps.events, changed);
    // Not awaited: receipt processing waits on this flush (flushNow), so waiting on it here could
    // deadlock.
    if (storedParts) {
      deps.onPartsStored?.().catch((err: unknown) => logger.warn({ err }, 'parked receipt match failed'));
    }
  }

  async function maintenance() {
    const promoted = await q.promoteScheduled(db);
    const reclaimed = await q.reclaimExpiredLeases(db);
    const changed = [...promoted, ...reclaimed];
    const finals = await transact(db, async (trx) => {
      const expired = await q.expireQueued(trx);
      await refundMessages(trx, deps.ledger, expired);
      const silent = await q.expireSilentSent(trx, 360);
      if (config.refundStatuses.includes('expired')) await refundMessages(trx, deps.ledger, silent);
      await insertEvents(trx, [
        ...promoted.map((m) => ({ message_id: m.id, status: 'queued', detail: 'Scheduled time reached' })),
        ...reclaimed.map((m) => ({
          message_id: m.id,
          status: 'queued',
          detail: 'Reclaimed after a worker lease expired',
        })),
        ...expired.map((m) => ({
          message_id: m.id,
          status: 'expired',
          detail: 'Validity ended before sending',
        })),
        ...silent.map((m) => ({ message_id: m.id, status: 'expired', detail: 'No delivery receipt' })),
      ]);
      return [...expired, ...silent];
    });
    notifyChanged(deps.events, [...changed, ...finals]);
    if (promoted.length || reclaimed.length) nudge();
  }

  async function loop() {
    let lastMaintenance = 0;
    while (running) {
      try {
        if (Date.now() - lastMaintenance >= MAINTENANCE_MS) {
          lastMaintenance = Date.now();
          await maintenance();
        }
        const room = maxInFlight - inFlight;
        const claimed = room > 0 ? await q.claimBatch(db, workerId, room, config.leaseSeconds) : [];
        for (const m of claimed) submit(m);
        if (claimed.length === 0 || inFlight >= maxInFlight)
          await sleep(claimed.length === 0 ? IDLE_POLL_MS : 5);
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
      unsubscribe.push(deps.events.subscribe('messages.queued', nudge));
      loopDone = loop();
    },
    /** Stops claiming, waits for in-flight submits to come back, and settles them. */
    async stop() {
      running = false;
      nudge();
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
    stats: () => ({ inFlight, pending: pending.length }),
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
