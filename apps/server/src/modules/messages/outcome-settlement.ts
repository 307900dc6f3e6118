import { canonicalId } from '../../gateway/message-id';
import { afterCommit, type Db, transact } from '../../platform/db';
import type { EventBus } from '../../platform/events';
import type { LedgerService } from '../ledger/ledger.service';
import type { DispatchPolicies } from './dispatch-policies';
import { insertEvents } from './messages.repository';
import { notifyChanged } from './notify';
import { sortOutcomes, type Accepted, type Answered, type Claimed } from './outcome-sorting';
import * as q from './outcomes.repository';
import type { createPartitionDirectory } from './partition-directory';
import { refundMessages } from './refunds';
import type { RouteDecisions } from './route-decisions';
import { transition, type Transitioned } from './status.repository';

/** The history's line for a route's decision (operators see it; customers do not: message-history.ts). */
/** Claims per message before it fails; the validity period is the other limit. */
const MAX_ATTEMPTS = 25;
/** The longest a message waiting for a connection (none bound, paused) steps back before a new try. */
const MAX_WAITING_BACKOFF_MS = 10_000;
/** Why a message that was with a worker when its account was locked is not sent again. */
export const NOT_SENT_LOCKED = 'Not sent: the account was locked by an operator';

interface Deps {
  db: Db;
  events: EventBus;
  ledger: LedgerService;
  workerId: string;
  partitions: ReturnType<typeof createPartitionDirectory>;
  policies: DispatchPolicies;
  decisions: RouteDecisions;
  /** New work: wakes the dispatcher's loop now. */
  nudge: () => void;
  /** Wakes the dispatcher's loop in `ms` (a requeued message's due time). */
  nudgeIn: (ms: number) => void;
}

/**
 * Stores a batch of the gateway's answers: accepted messages sent (with their parts), retries and
 * resends back to the queue, failures and rejections refunded, with their history events.
 */
export function createOutcomeSettlement(deps: Deps) {
  const { db, workerId, partitions, nudge, nudgeIn } = deps;
  const { policyOf, receiptTimeout } = deps.policies;

  /** Accepted messages of one connection to `sent`, with every part under its SMSC id (one statement). */
  async function markSent(
    trx: Db,
    connection: string,
    items: { m: Claimed; outcome: Accepted; at: number }[],
    decisions: ReadonlyMap<string, number>,
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
      // A route's decision, by id, with the move: its connection, cost and why (route-decisions.ts).
      decisions,
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
    // The ids of the routing decisions, found or written before the statements that name them.
    const decisions = await deps.decisions.resolve(
      [...sorted.accepted].flatMap(([connection, items]) =>
        items.map(({ m, outcome }) => ({ id: m.id, connection, route: outcome.route })),
      ),
    );
    // The usual flush: every message accepted whole on one connection. Its one statement needs no
    // transaction around it (BEGIN and COMMIT were two of its four round trips).
    const only = sorted.accepted.size === 1 ? [...sorted.accepted][0] : undefined;
    if (
      only &&
      sorted.retry.length + sorted.resend.length + sorted.failed.length + sorted.rejected.length === 0 &&
      only[1].every(({ outcome }) => outcome.kind === 'accepted')
    ) {
      const [connection, items] = only;
      const { sent, smscIds } = await markSent(db, connection, items, decisions);
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
        const { sent, mine, smscIds } = await markSent(trx, connection, items, decisions);
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

  return flush;
}
