import type { ApiScope } from './api-keys';

/**
 * Members and roles (issue 39). A user belongs to one or more accounts, each with one role; a
 * signed-in session acts on one account (its access token names the account and the role there).
 */
export const ACCOUNT_ROLES = ['owner', 'admin', 'developer', 'sender', 'analyst', 'billing'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

export const ACCOUNT_ROLE_LABELS: Record<AccountRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  sender: 'Sender',
  analyst: 'Analyst',
  billing: 'Billing',
};

/**
 * What a route or hub method may need. Every user route declares one (or `self`: something every
 * member may do for themselves); platform/http/route-auth.ts checks it against the token's role.
 */
export const PERMISSIONS = [
  /** Send single messages and campaigns; pause, cancel, reschedule them. */
  'messages:send',
  /** The message log, campaign progress, inbound messages (read only). */
  'messages:read',
  'contacts:read',
  'contacts:write',
  'templates:read',
  'templates:write',
  /** List the account's sender IDs and use them. */
  'sender-ids:read',
  /** Request sender IDs, remove them, choose the default. */
  'sender-ids:manage',
  /** The dashboard, reports and exports. */
  'reports:read',
  /** API keys, webhooks, SMPP and OTP services. */
  'developer:manage',
  /** Balance, prices, ledger and statements. */
  'billing:read',
  /** Ask for a top-up. */
  'billing:topup',
  /** See the account's members and invites. */
  'members:read',
  /** Invite, remove members and change their roles (not owners). */
  'members:manage',
  /** Grant, change or remove the owner role; delete the account. */
  'account:owner',
  /** Reseller: create child accounts, move balance, set their prices, see usage, lock them (issue 39 item 4). */
  'subaccounts:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** A route's declaration: a permission, or `self` for what any member may do for themselves. */
export type PermissionDeclaration = Permission | 'self';

const all = [...PERMISSIONS];
export const ROLE_PERMISSIONS: Record<AccountRole, readonly Permission[]> = {
  owner: all,
  admin: all.filter((p) => p !== 'account:owner'),
  // Sends through what they build (API keys, SMPP), so also messages:send (and its keys' scopes);
  // reads the sender IDs it sends from and that OTP services name (the send page and the OTP form
  // list them), but requests or removes none (sender-ids:manage).
  developer: ['developer:manage', 'messages:send', 'messages:read', 'reports:read', 'sender-ids:read'],
  sender: [
    'messages:send',
    'messages:read',
    'contacts:read',
    'contacts:write',
    'templates:read',
    'templates:write',
    'sender-ids:read',
  ],
  analyst: ['reports:read', 'messages:read', 'contacts:read', 'templates:read', 'sender-ids:read'],
  billing: ['billing:read', 'billing:topup', 'reports:read'],
};

/** The API-key scopes a member with `role` may give a key (SCOPE_PERMISSION within the role). */
export const scopesOfRole = (role: AccountRole): ApiScope[] =>
  (Object.keys(SCOPE_PERMISSION) as ApiScope[]).filter((s) =>
    ROLE_PERMISSIONS[role].includes(SCOPE_PERMISSION[s]),
  );

export const isAccountRole = (v: unknown): v is AccountRole =>
  typeof v === 'string' && (ACCOUNT_ROLES as readonly string[]).includes(v);

/** Whether `role` has `permission` (`self` is every member's). */
export function roleCan(role: AccountRole | null | undefined, permission: PermissionDeclaration): boolean {
  if (!role) return false;
  return permission === 'self' || ROLE_PERMISSIONS[role].includes(permission);
}

/**
 * The permission an API-key scope stands for: a member can create a key only with the scopes their
 * role has (a key acts with its scopes, never beyond its creator's role at creation).
 */
export const SCOPE_PERMISSION: Record<ApiScope, Permission> = {
  'sms:send': 'messages:send',
  'sms:read': 'messages:read',
  'campaigns:write': 'messages:send',
  otp: 'developer:manage',
  'contacts:write': 'contacts:write',
  'balance:read': 'billing:read',
};

export const MEMBERS_API = {
  members: '/api/members',
  member: '/api/members/:userId',
  invites: '/api/invites',
  invite: '/api/invites/:id',
  invitePreview: '/api/invites/:token',
  inviteAccept: '/api/invites/:token/accept',
  myAccounts: '/api/me/accounts',
  switchAccount: '/api/auth/switch-account',
} as const;
