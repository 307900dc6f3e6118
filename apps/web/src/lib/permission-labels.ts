import type { Permission } from '@wren/contracts';

/**
 * What each permission lets a member do, as the end of "Your role (Analyst) can't …" (issue 39).
 * Keyed by every permission, so a new one in contracts' roles.ts needs its words here.
 */
export const PERMISSION_ACTIONS: Record<Permission, string> = {
  'messages:send': 'send messages or campaigns',
  'messages:read': 'see the message log, campaigns or inbound messages',
  'contacts:read': 'see contacts and contact groups',
  'contacts:write': 'add, edit or delete contacts and contact groups',
  'templates:read': 'see saved messages',
  'templates:write': 'add, edit or delete saved messages',
  'sender-ids:read': 'see sender IDs',
  'sender-ids:manage': 'request, remove or choose sender IDs',
  'reports:read': 'see reports or exports',
  'developer:manage': 'manage API keys, webhooks, SMPP or OTP services',
  'billing:read': 'see the balance, prices or statements',
  'billing:topup': 'ask for a top-up',
  'members:read': 'see the account’s members',
  'members:manage': 'invite or remove members, or change their roles',
  'account:owner': 'grant the owner role or delete the account',
  'subaccounts:manage': 'manage sub-accounts',
};
