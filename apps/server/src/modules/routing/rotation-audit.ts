import type { RotationChange } from '../../gateway/routing/rotation';
import type { Db } from '../../platform/db';
import type { Logger } from '../../platform/logger';
import { recordAudit } from '../audit/audit.service';

const pct = (r: number | undefined) =>
  r === undefined ? 'too few receipts' : `${Math.round(r * 1000) / 10}%`;

/** The audit entry's words for a rotation change (the console's audit log shows them). */
export function rotationMessage(c: RotationChange, node: string): string {
  return c.out
    ? `Connection ${c.connection} taken out of route ${c.routeName}'s rotation on ${node}: delivered ${pct(c.deliveredRatio)}, below the floor ${pct(c.floor)}`
    : `Connection ${c.connection} back in route ${c.routeName}'s rotation on ${node}: delivered ${pct(c.deliveredRatio)} (floor ${pct(c.floor)})`;
}

/**
 * Each change of a connection's place in a route's rotation, as a node's routing decided it:
 * logged and audited (by the system: no operator did it). A failure to write it is logged, never
 * thrown into the send path.
 */
export function auditRotation(db: Db, logger: Logger, node: string) {
  return (c: RotationChange): void => {
    const message = rotationMessage(c, node);
    logger.warn({ ...c, node }, message);
    recordAudit(db, {
      accountId: null,
      userId: null,
      actorUserId: null,
      kind: c.out ? 'system.route_rotation_out' : 'system.route_rotation_in',
      message,
      resourceType: 'smsc_route',
      resourceId: c.routeId,
    }).catch((err: unknown) => logger.error({ err, ...c }, 'rotation change not audited'));
  };
}
