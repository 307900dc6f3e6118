import type { Config, SmscConnectionConfig } from './config';
import type { IdNotationSetting } from './smsc-id-notation';
import type { ConnectionPolicySettings, Lane } from './smsc-policy-settings';

export type ConnectionPolicy = Required<ConnectionPolicySettings> & { idNotation: IdNotationSetting };

/**
 * The receipt and resend rules of one SMPP connection: its own settings, the SMSC_* defaults for
 * the rest (also for the built-in simulator's connection and for a connection no longer configured).
 */
export function connectionPolicy(
  config: Config,
  connection: string,
  connections: readonly SmscConnectionConfig[] = config.smscConnections,
): ConnectionPolicy {
  const c = connections.find((x) => x.name === connection);
  return {
    ...config.smscPolicy,
    ...Object.fromEntries(Object.entries(c?.policy ?? {}).filter(([, v]) => v !== undefined)),
    idNotation: c?.idNotation ?? config.smscIdNotation,
  };
}

/**
 * The connections a node applies now, and their policies: the one place the dispatcher, receipt
 * processing and the gateway read them. An operator's change in the console (issue 38) replaces the
 * list on every worker (modules/routing/connection-store.ts); each policy is then read afresh.
 * Starts from the environment's (SMSC_CONNECTIONS / SMSC_HOST).
 */
export function createConnectionRegistry(config: Config) {
  let list: readonly SmscConnectionConfig[] = config.smscConnections;
  const cache = new Map<string, ConnectionPolicy>();
  const listeners = new Set<() => void>();
  return {
    list: () => list,
    replace(next: readonly SmscConnectionConfig[]) {
      list = next;
      cache.clear();
      for (const l of listeners) l();
    },
    /** Called after each replace (caches of derived values). */
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    policyOf(connection: string): ConnectionPolicy {
      let p = cache.get(connection);
      if (!p) cache.set(connection, (p = connectionPolicy(config, connection, list)));
      return p;
    },
    /** No connection's receipt deadline is shorter than this (the overdue sweep's first filter). */
    shortestReceiptTimeout(): number {
      return Math.min(
        ...[config.smscPolicy, ...list.map((c) => ({ ...config.smscPolicy, ...c.policy }))].flatMap((p) => [
          p.receiptTimeoutMinutes ?? Infinity,
          p.otpReceiptTimeoutMinutes ?? Infinity,
        ]),
      );
    },
  };
}

export type ConnectionRegistry = ReturnType<typeof createConnectionRegistry>;

/** The lane of a message by its priority (0 = OTP, 1 = single, 2 = bulk). */
export const laneOf = (priority: number): Lane =>
  priority <= 0 ? 'otp' : priority === 1 ? 'single' : 'bulk';
