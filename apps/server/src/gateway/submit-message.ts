import type smpp from 'smpp';
import { classifyStatus, statusName } from './command-status';
import type { SmppBind } from './smpp-bind';
import type { SmppConnection } from './smpp-connection';
import type { SubmitOutcome } from './sms-gateway';

/** Attempts for a later part after a throttle / transient error / unwritten PDU (earlier parts are in). */
const LATER_PART_ATTEMPTS = 4;
const RETRY_TRANSIENT_MS = 2000;
const RETRY_NOT_WRITTEN_MS = 1000;

/**
 * Send the parts of one message in order on one bind of `conn`, and map what happened to an outcome.
 * Nothing that may have been written is ever sent again: a timeout or a dropped connection after the
 * write gives 'unknown'. Only part 0 can give 'retry' or 'rejected' (nothing accepted yet); a later
 * part that still fails after a few internal attempts gives 'unknown' with the ids accepted so far.
 */
export async function submitParts(
  conn: SmppConnection,
  pdus: smpp.PduOptions[],
  priority?: number,
): Promise<SubmitOutcome> {
  const connection = conn.name;
  const total = pdus.length;
  const smscIds: string[] = [];
  const unknown = (reason: string): SubmitOutcome => ({ kind: 'unknown', connection, reason, smscIds });
  let bind: SmppBind | undefined;

  for (let i = 0; i < total; i++) {
    const fields = pdus[i];
    if (!fields) break;
    const label = total > 1 ? ` (part ${i + 1}/${total})` : '';
    for (let attempt = 1; ; attempt++) {
      const got = await conn.acquire(bind, priority);
      if (!('submit' in got)) {
        if (i === 0)
          return { kind: 'retry', reason: got.reason, retryAfterMs: got.retryAfterMs, waiting: true };
        return unknown(`${got.reason}${label}; earlier parts were accepted`);
      }
      bind = got;
      const r = await bind.submit(fields);
      if (r.kind !== 'resp' || r.status !== 0) {
        if (r.kind === 'resp' && classifyStatus(r.status) === 'throttled') conn.throttles.add();
        else conn.submitErrors.add();
      }
      if (r.kind === 'timeout') {
        return unknown(`no submit_sm_resp within ${conn.cfg.responseTimeoutMs} ms${label}`);
      }
      if (r.kind === 'closed') return unknown(`${r.reason} before submit_sm_resp${label}`);
      if (r.kind === 'invalid') {
        if (i === 0) return { kind: 'rejected', commandStatus: 0, reason: `local: ${r.reason}` };
        return unknown(`${r.reason}${label}`);
      }
      if (r.kind === 'resp' && r.status === 0) {
        smscIds.push(r.messageId);
        break;
      }
      const cls = r.kind === 'resp' ? classifyStatus(r.status) : 'not-written';
      const why = r.kind === 'resp' ? statusName(r.status) : r.reason;
      if (i === 0) {
        if (r.kind === 'resp' && cls === 'permanent') {
          return { kind: 'rejected', commandStatus: r.status, reason: why };
        }
        const retryAfterMs =
          r.kind !== 'resp' ? RETRY_NOT_WRITTEN_MS : cls === 'throttled' ? r.pauseMs : RETRY_TRANSIENT_MS;
        return { kind: 'retry', reason: why, retryAfterMs };
      }
      if (cls === 'permanent' || attempt >= LATER_PART_ATTEMPTS) {
        return unknown(`${why}${label}; earlier parts were accepted`);
      }
      // Throttled: the bind's pause delays the next acquire. Transient: back off here.
      if (cls === 'transient') await conn.delay(conn.cfg.throttlePauseMs * 2 ** (attempt - 1));
    }
  }
  return { kind: 'accepted', connection, smscIds };
}
