import {
  HUB_DELIVERY_PUSH_WINDOW_MS,
  HUB_PUSH_PERMISSIONS,
  HUB_PUSH_WINDOW_MS,
  type HubPush,
  type HubServerEvents,
} from '@wren/contracts';
import type { EventBus } from '../platform/events';
import type { Logger } from '../platform/logger';
import { Coalescer } from './coalescer';
import { accountPermissionRoom } from './hub-types';

/**
 * Where pushes go: the hub's Socket.IO server on nodes that serve the hub, or the Socket.IO
 * PostgreSQL emitter (emitter.ts) on worker nodes without an HTTP server. Either way `to(room)`
 * reaches the account's sockets on every hub node.
 */
export interface PushTarget {
  to(room: string): {
    emit<E extends keyof HubServerEvents>(event: E, ...args: Parameters<HubServerEvents[E]>): boolean;
  };
}

/** Coalescing windows: every push's, and UserSmsDeliveryUpdated's (HUB_DELIVERY_PUSH_WINDOW_MS). */
export interface PushWindows {
  defaultMs: number;
  deliveryMs: number;
}

/**
 * Maps domain events to hub pushes, coalesced per (account, push[, campaign id]), each sent only to
 * the account's sockets whose role has the push's permission (contracts' HUB_PUSH_PERMISSIONS).
 *
 * Each node's EventBus only sees its own node's events, so the push is coalesced here, on the node
 * where the event happened, and then broadcast with `io.to(room)`: with the PostgreSQL adapter that
 * reaches the account's sockets on every node. Nothing checks for local sockets before emitting,
 * since the account's clients may be connected to another node.
 */
/** The room of `accountId`'s sockets that may receive `push` (its role has the push's permission). */
export const pushRoom = (accountId: string, push: keyof typeof HUB_PUSH_PERMISSIONS) =>
  accountPermissionRoom(accountId, HUB_PUSH_PERMISSIONS[push]);

export function mapEventsToPushes(
  io: PushTarget,
  events: EventBus,
  logger: Logger,
  windows: PushWindows = { defaultMs: HUB_PUSH_WINDOW_MS, deliveryMs: HUB_DELIVERY_PUSH_WINDOW_MS },
) {
  const coalescer = new Coalescer(windows.defaultMs, (err) => logger.warn({ err }, 'hub push failed'));

  const push = (
    accountId: string,
    event: Exclude<HubPush, 'BulkSmsUpdated' | 'OtpServiceUpdated' | 'SystemStatusUpdated'>,
  ) =>
    coalescer.run(
      `${accountId}|${event}`,
      () => io.to(pushRoom(accountId, event)).emit(event),
      event === 'UserSmsDeliveryUpdated' ? windows.deliveryMs : windows.defaultMs,
    );
  const bulkSmsUpdated = (accountId: string, campaignId: string) =>
    coalescer.run(`${accountId}|BulkSmsUpdated|${campaignId}`, () =>
      io.to(pushRoom(accountId, 'BulkSmsUpdated')).emit('BulkSmsUpdated', campaignId),
    );

  const unsubscribe = [
    events.subscribe('balance.changed', (e) => push(e.accountId, 'UserAccountUpdated')),
    events.subscribe('sender.changed', (e) => push(e.accountId, 'SenderIdUpdated')),
    events.subscribe('group.changed', (e) => push(e.accountId, 'GroupListUpdated')),
    events.subscribe('template.changed', (e) => push(e.accountId, 'SmsTemplatesUpdated')),
    events.subscribe('messages.changed', (e) => {
      push(e.accountId, 'UserSmsDeliveryUpdated');
      for (const id of new Set(e.campaignIds)) bulkSmsUpdated(e.accountId, id);
    }),
    events.subscribe('campaign.changed', (e) => bulkSmsUpdated(e.accountId, e.campaignId)),
    events.subscribe('inbound.received', (e) => push(e.accountId, 'InboundSmsReceived')),
    events.subscribe('suppressions.changed', (e) => push(e.accountId, 'InboundSmsReceived')),
    events.subscribe('otp.changed', (e) =>
      coalescer.run(`${e.accountId}|OtpServiceUpdated|${e.serviceId}`, () =>
        io.to(pushRoom(e.accountId, 'OtpServiceUpdated')).emit('OtpServiceUpdated', e.serviceId),
      ),
    ),
  ];

  return {
    coalescer,
    stop() {
      for (const off of unsubscribe) off();
      coalescer.close();
    },
  };
}
