import { Readable } from 'node:stream';
import { ErrorCode } from '@wren/contracts';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../app/context';
import { AppError } from '../../platform/errors';
import { CSV_BOM, csvDownloadHeaders } from '../../shared/csv';

/** Seconds a refused export is told to wait (a large export takes seconds). */
export const EXPORT_RETRY_AFTER_SECONDS = 10;

/**
 * Running CSV exports on this node, per account and in all. Each export streams from its own
 * server-side cursor on a database connection held for the stream, so they are capped: a request
 * over either cap gets 429 with Retry-After and a message saying which cap it met.
 */
export class ExportSlots {
  private readonly running = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: { perAccount: number; perNode: number }) {}

  /** Takes a slot for the account, or throws 429. The returned function frees it (once). */
  acquire(accountId: string): () => void {
    const mine = this.running.get(accountId) ?? 0;
    const headers = { 'Retry-After': String(EXPORT_RETRY_AFTER_SECONDS) };
    if (mine >= this.limits.perAccount) {
      throw new AppError(
        ErrorCode.RATE_LIMITED,
        `${mine === 1 ? 'An export is' : `${mine} exports are`} already running for your account. ` +
          'Please wait for one to finish, then try again.',
        { headers },
      );
    }
    if (this.total >= this.limits.perNode) {
      throw new AppError(
        ErrorCode.RATE_LIMITED,
        'The server is busy with other exports. Please try again in a few seconds.',
        { headers },
      );
    }
    this.running.set(accountId, mine + 1);
    this.total += 1;
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      this.total -= 1;
      const left = (this.running.get(accountId) ?? 1) - 1;
      if (left > 0) this.running.set(accountId, left);
      else this.running.delete(accountId);
    };
  }

  /** Exports running now: for the account, or on the node. */
  count(accountId?: string): number {
    return accountId === undefined ? this.total : (this.running.get(accountId) ?? 0);
  }
}

/** One set of export slots per node (its context): the SMS log's and campaigns' exports share it. */
const slotsOfNode = new WeakMap<AppContext, ExportSlots>();
export function exportSlotsOf(ctx: AppContext): ExportSlots {
  let slots = slotsOfNode.get(ctx);
  if (!slots) {
    slots = new ExportSlots({
      perAccount: ctx.config.exportMaxPerAccount,
      perNode: ctx.config.exportMaxPerNode,
    });
    slotsOfNode.set(ctx, slots);
  }
  return slots;
}

/**
 * Streams a CSV download from pages of rows under an export slot of the account (429 when none is
 * free). The first page is read before the status line goes out, so a filter the database refuses
 * is a 4xx from the error handler, not a 200 whose connection drops midway. The slot is freed when
 * the response ends (finished, failed, or the client went away), and the pages are closed then too:
 * a cursor left unread returns its connection.
 */
export async function sendCsvExport<T>(
  reply: FastifyReply,
  opts: {
    slots: ExportSlots;
    accountId: string;
    fileName: string;
    pages: AsyncIterable<T[]>;
    /** The header record; a function is called once the first page is read (it may depend on it). */
    header: string | (() => string);
    rows: (items: T[]) => string;
  },
) {
  const release = opts.slots.acquire(opts.accountId);
  reply.raw.once('close', release);
  const pages = opts.pages[Symbol.asyncIterator]();
  let first: IteratorResult<T[]>;
  try {
    first = await pages.next();
  } catch (err) {
    release();
    throw err;
  }
  async function* csv() {
    try {
      yield CSV_BOM + (typeof opts.header === 'function' ? opts.header() : opts.header);
      for (let page = first; !page.done; page = await pages.next()) {
        if (page.value.length > 0) yield opts.rows(page.value);
      }
    } finally {
      release();
      // A manual loop does not close the iterator as for-await would.
      await pages.return?.(undefined);
    }
  }
  return reply.headers(csvDownloadHeaders(opts.fileName)).send(Readable.from(csv()));
}
