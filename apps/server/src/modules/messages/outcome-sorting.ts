import type { RoutedOutcome } from '../../gateway/sms-gateway';
import { laneOf, type ConnectionPolicy } from '../../platform/connection-policy';
import type * as q from './outcomes.repository';

/** A message the dispatcher claimed (outcomes.repository claimBatch). */
export type Claimed = Awaited<ReturnType<typeof q.claimBatch>>[number];
export type Accepted = Extract<RoutedOutcome, { kind: 'accepted' | 'unknown' }>;
/** A gateway's answer for a claimed message, and when it came (epoch ms): the message's submit time. */
export interface Answered {
  m: Claimed;
  outcome: RoutedOutcome;
  at: number;
}

/** Outcomes by what happens to the message, narrowed on `kind`. */
export function sortOutcomes(batch: readonly Answered[], policyOf: (connection: string) => ConnectionPolicy) {
  const accepted = new Map<string, { m: Claimed; outcome: Accepted; at: number }[]>();
  const accept = (item: { m: Claimed; outcome: Accepted; at: number }) => {
    const list = accepted.get(item.outcome.connection);
    if (list) list.push(item);
    else accepted.set(item.outcome.connection, [item]);
  };
  const retry: { m: Claimed; outcome: Extract<RoutedOutcome, { kind: 'retry' }> }[] = [];
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
