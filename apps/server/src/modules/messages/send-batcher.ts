import { ErrorCode } from '@wren/contracts';
import type { RawBuilder } from 'kysely';
import { type Db, transact } from '../../platform/db';
import { AppError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { accountLockedError, format, type LedgerService } from '../ledger/ledger.service';
import * as repo from './message-inserts.repository';
import type { MessageDtoRow } from './messages.repository';

export interface SendJob {
  accountId: string;
  reference: string;
  note: string;
  totalMinor: number;
  rows: repo.NewMessage[];
  /** Another module's records that must commit with this send, or not at all (see SendHook). */
  hook?: SendHookCall;
}

/**
 * Writes of another module that belong to a send (e.g. the /v1 API's message links and idempotency
 * answer): run inside the send's transaction after its messages are inserted, once per commit for
 * every accepted job that carries the same hook. If they fail, the whole batch rolls back and every
 * caller in it gets the error: nothing is sent, so a retry cannot send twice.
 */
export interface SendHook<T> {
  write(trx: Db, items: { rows: MessageDtoRow[]; data: T }[]): Promise<void>;
  /**
   * The same writes as one data-modifying statement without RETURNING, to run as a CTE of the
   * one-statement send (see insertMessagesPaid), for writes that need only the rows as the send
   * builds them, not as the database returns them; if the debit refuses, the statement is undone
   * with the send. `null` (or no `statement`): these items need the inserted rows, and the batch
   * runs as a transaction that calls `write`.
   */
  statement?(items: { rows: readonly repo.NewMessage[]; data: T }[]): RawBuilder<unknown> | null;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SendHookCall = { hook: SendHook<any>; data: unknown };

interface Pending {
  job: SendJob;
  resolve: (r: { rows: MessageDtoRow[]; balanceMinor: number }) => void;
  reject: (e: unknown) => void;
}

const MAX_BATCH = 250;
/** Recipients per transaction: a bulk request's rows are split so two transactions can overlap. */
const MAX_BATCH_ROWS = 2_000;
/** Transactions in flight at once. */
const MAX_IN_FLIGHT = 2;
/** Rows waiting before a second transaction starts beside a running one. */
const OVERLAP_MIN_ROWS = 200;

/** Thrown inside an optimistic transaction when a job is refused: it rolls back and runs in order. */
class RefusedInBatch extends Error {}

/**
 * Group commit for sends: jobs that arrive while transactions are running are written together in
 * the next one (debits per account under one row lock, one multi-row insert of messages).
 * Every caller is answered only after its own rows are committed, so a 202 still means durable, and
 * one account's insufficient balance refuses only its own job.
 *
 * Two transactions run at once, each of at most MAX_BATCH_ROWS recipients, so PostgreSQL inserts one
 * batch while Wren reads the next requests and answers the last ones (one at a time, the two took
 * turns and neither used its core fully: bench:api, 100 recipients per request). Each transaction
 * inserts its messages first and takes the accounts' balance locks last (in account order, so two
 * batches never wait on each other in a circle): the lock is held only for the debit and the commit,
 * and two batches of one account overlap. If a debit then refuses a job (its balance ran out), the
 * transaction rolls back and the batch runs again debiting first, so a refused job writes nothing.
 *
 * The usual batch (one account; no other module's writes, or writes that need only the rows as
 * built, such as the /v1 API's records of a send without an Idempotency-Key) is one statement
 * instead, with no BEGIN or COMMIT: the debit and the inserts, which run only if it debited. Each
 * answer of a transaction's four round trips waited for a turn of the busy event loop, so the
 * transaction stayed open for tens of ms (bench:pipeline, pg_stat_activity: idle in transaction after the insert 72 ms and after the
 * debit 97 ms on average, up to 224 ms), holding the account's row lock.
 */
export function createSendBatcher(deps: { db: Db; ledger: LedgerService; logger: Logger }) {
  let queue: Pending[] = [];
  let inFlight = 0;

  /** The next batch: up to MAX_BATCH jobs and MAX_BATCH_ROWS recipients (at least one job). */
  function take() {
    let n = 0;
    let rows = 0;
    while (n < queue.length && n < MAX_BATCH) {
      const size = queue[n].job.rows.length;
      if (n > 0 && rows + size > MAX_BATCH_ROWS) break;
      rows += size;
      n += 1;
    }
    const batch = queue.slice(0, n);
    queue = queue.slice(n);
    return batch;
  }

  function pump() {
    while (inFlight < MAX_IN_FLIGHT && queue.length) {
      // A second transaction only for enough rows: small sends (singles, OTPs) are cheaper in
      // PostgreSQL grouped into one commit than spread over two (bench:api, one recipient per
      // request: 183 µs of PostgreSQL per request grouped, 226 µs in two).
      if (inFlight > 0 && queue.reduce((n, p) => n + p.job.rows.length, 0) < OVERLAP_MIN_ROWS) return;
      const batch = take();
      inFlight += 1;
      void commit(batch).finally(() => {
        inFlight -= 1;
        pump();
      });
    }
  }

  async function commit(batch: Pending[]) {
    try {
      let result: Awaited<ReturnType<typeof attempt>>;
      try {
        result = await attempt(batch, true);
      } catch (err) {
        if (!(err instanceof RefusedInBatch)) throw err;
        result = await attempt(batch, false);
      }
      const { outcome, rowsById } = result;
      for (const p of batch) {
        const o = outcome.get(p);
        if (o instanceof AppError || !o) p.reject(o ?? new Error('send not processed'));
        else p.resolve({ rows: p.job.rows.map((r) => rowsById.get(r.id)!), balanceMinor: o.balanceMinor });
      }
    } catch (err) {
      deps.logger.error({ err, jobs: batch.length }, 'send batch failed');
      batch.forEach((p) => p.reject(err));
    }
  }

  /**
   * One transaction for the batch. `insertFirst`: every job's messages are inserted, then debited;
   * a refused job throws RefusedInBatch (nothing is kept). Otherwise the debits come first and only
   * the accepted jobs' messages are inserted.
   */
  async function attempt(batch: Pending[], insertFirst: boolean) {
    const outcome = new Map<Pending, { balanceMinor: number } | AppError>();
    const byAccount = new Map<string, Pending[]>();
    for (const p of batch) byAccount.set(p.job.accountId, [...(byAccount.get(p.job.accountId) ?? []), p]);
    // In account order, so two batches never wait on each other's locks in a circle.
    const accounts = [...byAccount.keys()].sort();
    const charges = (items: Pending[]) =>
      items.map((p) => ({
        amountMinor: p.job.totalMinor,
        kind: 'sms_debit',
        reference: p.job.reference,
        note: p.job.note,
      }));
    /** Jobs debited together from `startMinor`: each one's balance right after it. */
    const acceptAll = (items: Pending[], startMinor: number) => {
      let before = startMinor;
      for (const p of items) {
        before -= p.job.totalMinor;
        outcome.set(p, { balanceMinor: before });
      }
    };
    const [only] = accounts;
    const hookStatements = insertFirst && accounts.length === 1 ? statementsOf(batch) : null;
    if (only && hookStatements) {
      // One account, and the other modules' writes (if any) need only the rows as built: the debit,
      // its entries, the inserts and those writes are one statement with no transaction around it
      // (see insertMessagesPaid).
      const payment = deps.ledger.debitAllCtes(only, charges(batch));
      const paid = await repo.insertMessagesPaid(
        deps.db,
        batch.flatMap((p) => p.job.rows),
        payment.ctes,
        hookStatements,
      );
      if (!paid) throw new RefusedInBatch();
      payment.debited();
      acceptAll(batch, paid.startMinor);
      return { outcome, rowsById: new Map(paid.rows.map((r) => [r.id, r])) };
    }
    const rowsById = await transact(deps.db, async (trx) => {
      const accepted: Pending[] = [];
      let rows: MessageDtoRow[];
      if (insertFirst) {
        // Several accounts, or another module's writes: the insert, then each account's
        // all-or-nothing debit (one statement each, in account order), then the hooks. The accounts'
        // row locks are taken last, so they are held for the debits, the hooks and the commit only.
        const [inserted, debits] = await Promise.all([
          repo.insertMessages(
            trx,
            batch.flatMap((p) => p.job.rows),
          ),
          Promise.all(accounts.map((a) => deps.ledger.debitAll(trx, a, charges(byAccount.get(a)!)))),
        ]);
        accounts.forEach((accountId, i) => {
          const debit = debits[i];
          if (!debit) throw new RefusedInBatch();
          accepted.push(...byAccount.get(accountId)!);
          acceptAll(byAccount.get(accountId)!, debit.startMinor);
        });
        rows = inserted;
      } else {
        for (const accountId of accounts) {
          const items = byAccount.get(accountId)!;
          const r = await deps.ledger.debitEach(trx, accountId, charges(items));
          let before = r.startMinor;
          items.forEach((p, i) => {
            if (r.accepted[i]) {
              before -= p.job.totalMinor;
              accepted.push(p);
              outcome.set(p, { balanceMinor: before });
            } else if (r.locked) {
              outcome.set(p, accountLockedError());
            } else {
              outcome.set(
                p,
                new AppError(
                  ErrorCode.INSUFFICIENT_BALANCE,
                  `Insufficient balance: this costs ${format(p.job.totalMinor, r.currency)} and your balance is ${format(before, r.currency)}.`,
                ),
              );
            }
          });
        }
        rows = await repo.insertMessages(
          trx,
          accepted.flatMap((p) => p.job.rows),
        );
      }
      const byId = new Map(rows.map((r) => [r.id, r]));
      const hooks = new Map<SendHook<unknown>, { rows: MessageDtoRow[]; data: unknown }[]>();
      for (const p of accepted) {
        if (!p.job.hook) continue;
        const items = hooks.get(p.job.hook.hook) ?? [];
        items.push({ rows: p.job.rows.map((r) => byId.get(r.id)!), data: p.job.hook.data });
        hooks.set(p.job.hook.hook, items);
      }
      for (const [hook, items] of hooks) await hook.write(trx, items);
      return byId;
    });
    return { outcome, rowsById };
  }

  /**
   * The batch's hook writes as statements (one per hook, for all its jobs), or null when a hook has
   * no statement form for its items.
   */
  function statementsOf(batch: Pending[]): RawBuilder<unknown>[] | null {
    const byHook = new Map<SendHook<unknown>, { rows: readonly repo.NewMessage[]; data: unknown }[]>();
    for (const p of batch) {
      if (!p.job.hook) continue;
      const items = byHook.get(p.job.hook.hook) ?? [];
      items.push({ rows: p.job.rows, data: p.job.hook.data });
      byHook.set(p.job.hook.hook, items);
    }
    const statements: RawBuilder<unknown>[] = [];
    for (const [hook, items] of byHook) {
      const statement = hook.statement?.(items);
      if (!statement) return null;
      statements.push(statement);
    }
    return statements;
  }

  return {
    submit(job: SendJob): Promise<{ rows: MessageDtoRow[]; balanceMinor: number }> {
      return new Promise((resolve, reject) => {
        queue.push({ job, resolve, reject });
        pump();
      });
    },
  };
}
