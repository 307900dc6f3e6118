import type { Config } from '../../platform/config';
import { connectionPolicy, laneOf, type ConnectionPolicy } from '../../platform/connection-policy';
import type { Claimed } from './outcome-sorting';

/** The connections' policies as the dispatcher applies them: each read once, and the receipt deadlines. */
export function dispatchPolicies(config: Config) {
  const policies = new Map<string, ConnectionPolicy>();
  const policyOf = (connection: string) => {
    let p = policies.get(connection);
    if (!p) policies.set(connection, (p = connectionPolicy(config, connection)));
    return p;
  };
  const receiptTimeout = (connection: string, m: Claimed) => {
    const p = policyOf(connection);
    return laneOf(m.priority) === 'otp' ? p.otpReceiptTimeoutMinutes : p.receiptTimeoutMinutes;
  };
  /** No connection's receipt deadline is shorter than this (the overdue sweep's first filter). */
  const shortestReceiptTimeout = Math.min(
    ...[
      config.smscPolicy,
      ...config.smscConnections.map((c) => ({ ...config.smscPolicy, ...c.policy })),
    ].flatMap((p) => [p.receiptTimeoutMinutes ?? Infinity, p.otpReceiptTimeoutMinutes ?? Infinity]),
  );
  return { policyOf, receiptTimeout, shortestReceiptTimeout };
}

export type DispatchPolicies = ReturnType<typeof dispatchPolicies>;
