import { laneOf, type ConnectionRegistry } from '../../platform/connection-policy';
import type { Claimed } from './outcome-sorting';

/** The connections' policies as the dispatcher applies them, and the receipt deadlines. */
export function dispatchPolicies(connections: ConnectionRegistry) {
  const policyOf = (connection: string) => connections.policyOf(connection);
  const receiptTimeout = (connection: string, m: Claimed) => {
    const p = policyOf(connection);
    return laneOf(m.priority) === 'otp' ? p.otpReceiptTimeoutMinutes : p.receiptTimeoutMinutes;
  };
  return { policyOf, receiptTimeout, shortestReceiptTimeout: () => connections.shortestReceiptTimeout() };
}

export type DispatchPolicies = ReturnType<typeof dispatchPolicies>;
