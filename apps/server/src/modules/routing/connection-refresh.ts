import type { Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import type { ConnectionRegistry } from '../../platform/connection-policy';
import type { SmscConnectionConfig } from '../../platform/smsc-connections';
import { configOf, connectionsVersion, loadConnections } from './connection-store';

/**
 * Keeps a worker's connections in step with the stored ones (issue 38 item 1). `check()` runs at
 * each status report (1 s): when the version moved, the connections are read, handed to `apply`
 * (the gateway binds new ones, rebinds changed ones, closes removed ones) and then to the registry
 * every policy is read from. A set that cannot be applied is logged and the last good one kept.
 * While nothing is stored, the node uses `builtin` (the built-in simulator's connection, if started).
 */
export function createConnectionRefresh(deps: {
  db: Db;
  secret: string;
  logger: Logger;
  registry: ConnectionRegistry;
  apply: (connections: SmscConnectionConfig[]) => Promise<void>;
}) {
  const log = deps.logger.child({ component: 'connections' });
  let seen: string | null = null;
  let builtin: SmscConnectionConfig[] = [];
  let checking: Promise<void> | null = null;

  /** The stored connections as the gateway takes them (one whose password cannot be read is left out). */
  async function read(): Promise<SmscConnectionConfig[]> {
    const stored = await loadConnections(deps.db, deps.secret);
    const out: SmscConnectionConfig[] = [];
    for (const c of stored) {
      if (c.password === null) {
        log.error(
          { connection: c.name },
          'SMPP connection not used: its password was sealed under another server secret; enter it again in the console',
        );
        continue;
      }
      out.push(configOf(c.name, c.settings, c.password));
    }
    return out;
  }

  async function check(): Promise<void> {
    const version = await connectionsVersion(deps.db);
    if (version === seen) return;
    const stored = await read();
    const next = stored.length > 0 ? stored : builtin;
    try {
      await deps.apply(next);
      deps.registry.replace(next);
      seen = version;
    } catch (err) {
      seen = version;
      log.error({ err }, 'SMPP connections could not be applied: the last good ones stay in use');
    }
  }

  return {
    /** The connections to start with: the stored ones, else none (the caller may start the simulator). */
    async initial(): Promise<SmscConnectionConfig[]> {
      seen = await connectionsVersion(deps.db);
      return read();
    },
    /** What the node uses while nothing is stored (set once the simulator is up). */
    useWhenNoneStored(connections: SmscConnectionConfig[]) {
      builtin = connections;
    },
    /** Reads the version, applies a change (one check at a time). */
    check(): Promise<void> {
      checking ??= check().finally(() => {
        checking = null;
      });
      return checking;
    },
  };
}
