import type smpp from 'smpp';
import type { Scheduler } from './scheduler.js';
import type { Conn } from './sessions.js';

/** MO deliver_sm requests waiting for their deliver_sm_resp, failed on a timeout or at shutdown. */
export class MoRequests {
  private readonly waiters = new Set<(err: Error) => void>();

  constructor(
    private readonly scheduler: Scheduler,
    /** Called for each deliver_sm written. */
    private readonly sent: () => void,
  ) {}

  /** Write one deliver_sm; resolves with the command_status of its response. */
  request(conn: Conn, fields: smpp.PduOptions, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (err: Error): void => {
        if (settled) return;
        settled = true;
        this.waiters.delete(fail);
        reject(err);
      };
      this.waiters.add(fail);
      const ok = conn.session.deliver_sm(fields, (resp) => {
        if (settled) return;
        settled = true;
        this.waiters.delete(fail);
        resolve(resp.command_status);
      });
      if (!ok) return fail(new Error('receiver connection is not writable'));
      this.sent();
      this.scheduler.after(timeoutMs, () => fail(new Error('deliver_sm_resp timeout')));
    });
  }

  failAll(err: Error): void {
    for (const fail of [...this.waiters]) fail(err);
  }
}
