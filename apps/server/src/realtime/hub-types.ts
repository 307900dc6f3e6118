import { ROLE_PERMISSIONS, type AccountRole, type HubServerEvents, type Permission } from '@wren/contracts';
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

/** Every socket joins its account's room (for what concerns all its members' sockets). */
export const accountRoom = (accountId: string) => `account:${accountId}`;

/**
 * A push goes to the room of the permission it needs (contracts' HUB_PUSH_PERMISSIONS), across
 * nodes: a socket joins one such room per permission of its member's role (issue 39), so a push
 * reaches only the roles that may see it. The role is the token's; a role change ends the member's
 * sessions (sessions.invalidate), which closes their sockets (hub-sessions.ts), so a socket's rooms
 * never outlive its role.
 */
export const accountPermissionRoom = (accountId: string, permission: Permission) =>
  `account:${accountId}:${permission}`;

/** The rooms a socket of a member with `role` in `accountId` joins. */
export const roomsOf = (accountId: string, role: AccountRole | null | undefined): string[] => [
  accountRoom(accountId),
  ...(role ? ROLE_PERMISSIONS[role] : []).map((p) => accountPermissionRoom(accountId, p)),
];
