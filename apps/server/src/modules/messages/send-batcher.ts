import { ErrorCode } from '@wren/contracts';
import { type Db, transact } from '../../platform/db';
import { AppError } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import { format, type LedgerService } from '../ledger/ledger.service';
import * as repo from './messages.repository';
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
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SendHookCall = { hook: SendHook<any>; data: unknown };

interface Pending {
  job: SendJob;
  resolve: (r: { rows: MessageDtoRow[]; balanceMinor: number }) => void;
  reject: (e: unknown) => void;
}

const MAX_BATCH = 250;

/**
 * Group commit for sends: jobs that arrive while a transaction is running are written together in
 * the next one (debits per account under one row lock, one multi-row insert of messages and events).
 * Every caller is answered only after its own rows are committed, so a 202 still means durable, and
 * one account's insufficient balance refuses only its own job.
 */
export function createSendBatcher(deps: { db: Db; ledger: LedgerService; logger: Logger }) {
  let queue: Pending[] = [];
  let running = false;

  async function drain() {
    running = true;
    while (queue.length) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(MAX_BATCH);
      await commit(batch);
    }
    running = false;
  }

  async function commit(batch: Pending[]) {
    const outcome = new Map<Pending, { balanceMinor: number } | AppError>();
    try {
      const rowsById = await transact(deps.db, async (trx) => {
        const byAccount = new Map<string, Pending[]>();
        for (const p of batch) byAccount.set(p.job.accountId, [...(byAccount.get(p.job.accountId) ?? []), p]);
        const accepted: Pending[] = [];
        for (const [accountId, items] of byAccount) {
          const r = await deps.ledger.debitEach(
            trx,
            accountId,
            items.map((p) => ({
              amountMinor: p.job.totalMinor,
              kind: 'sms_debit',
              reference: p.job.reference,
              note: p.job.note,
            })),
          );
          let before = r.startMinor;
          items.forEach((p, i) => {
            if (r.accepted[i]) {
              before -= p.job.totalMinor;
              accepted.push(p);
              outcome.set(p, { balanceMinor: before });
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
        const rows = await repo.insertMessages(
          trx,
          accepted.flatMap((p) => p.job.rows),
        );
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

  return {
    submit(job: SendJob): Promise<{ rows: MessageDtoRow[]; balanceMinor: number }> {
      return new Promise((resolve, reject) => {
        queue.push({ job, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}
