import type { HubServerEvents } from '@wren/contracts';
import type { Server, Socket } from 'socket.io';
import type { AccessClaims } from '../modules/auth/tokens';

/**
 * Client events are registered with loose argument types on purpose: whatever a client sends is
 * checked at run time (contracts' HubClientEvents describes the intended shapes).
 */
export type HubListenEvents = Record<string, (...args: unknown[]) => void>;

export interface HubSocketData {
  auth: AccessClaims;
}

export type HubServer = Server<HubListenEvents, HubServerEvents, Record<string, never>, HubSocketData>;
export type HubSocket = Socket<HubListenEvents, HubServerEvents, Record<string, never>, HubSocketData>;

/** Every socket joins its account's room; pushes go to the room, across nodes. */
export const accountRoom = (accountId: string) => `account:${accountId}`;
