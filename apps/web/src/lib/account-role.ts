import { useSyncExternalStore } from 'react';
import { isAccountRole, roleCan, type AccountRole, type PermissionDeclaration } from '@wren/contracts';
import { getAccessToken, subscribeSession } from './session';

/**
 * The member's role in the current account, as the session's access token names it (claim `arl`,
 * issue 39; the server checks every call against it too). Read without a request, so the menu
 * knows at once; a switch of account or a role change brings a new token.
 */
export function roleOfToken(token: string | null): AccountRole | undefined {
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { arl?: unknown };
    return isAccountRole(json.arl) ? json.arl : undefined;
  } catch {
    return undefined;
  }
}

export function useAccountRole(): AccountRole | undefined {
  return roleOfToken(useSyncExternalStore(subscribeSession, getAccessToken));
}

/** Whether the current role may do what a route declares (hides what it cannot use). */
export function useCan(permission: PermissionDeclaration): boolean {
  return roleCan(useAccountRole(), permission);
}
