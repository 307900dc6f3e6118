import { useSyncExternalStore } from 'react';
import {
  ACCOUNT_ROLE_LABELS,
  isAccountRole,
  roleCan,
  type AccountRole,
  type PermissionDeclaration,
} from '@wren/contracts';
import { PERMISSION_ACTIONS } from './permission-labels';
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

/**
 * THE web app's permission check (issue 39): whether the current role may do what `permission`
 * stands for (contracts' ROLE_PERMISSIONS, the same table the server enforces). The menu, the
 * routes (paths' `permission`, see app/permission-gate.tsx) and every in-page action use it, or
 * `<Can>` (components/can.tsx). Before the role is known, nothing that needs a permission shows.
 */
export function useCan(permission: PermissionDeclaration): boolean {
  return roleCan(useAccountRole(), permission);
}

/** useCan outside React (the hub's loads): the same check, on the access token stored now. */
export function canNow(permission: PermissionDeclaration): boolean {
  return roleCan(roleOfToken(getAccessToken()), permission);
}

/** "Your role (Analyst) can't send messages or campaigns." */
export function cantSentence(role: AccountRole | undefined, permission: PermissionDeclaration): string {
  const action = permission === 'self' ? 'do this' : PERMISSION_ACTIONS[permission];
  return role
    ? `Your role (${ACCOUNT_ROLE_LABELS[role]}) can’t ${action}.`
    : `Your session has no role in this account, so you can’t ${action}.`;
}
