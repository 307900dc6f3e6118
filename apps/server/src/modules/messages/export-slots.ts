import { ErrorCode } from '@wren/contracts';
import { AppError } from '../../platform/errors';

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
