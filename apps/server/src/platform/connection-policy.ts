import type { Config } from './config';
import type { IdNotationSetting } from './smsc-id-notation';
import type { ConnectionPolicySettings, Lane } from './smsc-policy-settings';

export type ConnectionPolicy = Required<ConnectionPolicySettings> & { idNotation: IdNotationSetting };

/**
 * The receipt and resend rules of one SMPP connection: its own settings from SMSC_CONNECTIONS, the
 * SMSC_* defaults for the rest (also for the built-in simulator's connection).
 */
export function connectionPolicy(config: Config, connection: string): ConnectionPolicy {
  const c = config.smscConnections.find((x) => x.name === connection);
  return {
    ...config.smscPolicy,
    ...Object.fromEntries(Object.entries(c?.policy ?? {}).filter(([, v]) => v !== undefined)),
    idNotation: c?.idNotation ?? config.smscIdNotation,
  };
}

/** The lane of a message by its priority (0 = OTP, 1 = single, 2 = bulk). */
export const laneOf = (priority: number): Lane =>
  priority <= 0 ? 'otp' : priority === 1 ? 'single' : 'bulk';
