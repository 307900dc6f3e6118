import { z } from 'zod';
import { emailSchema, nameSchema, passwordSchema, phoneInputSchema, usernameSchema } from './auth';
import { ACCOUNT_ROLES } from './roles';
import { safeString } from './text';

/** The members API's schemas (issue 39); roles and permissions are in roles.ts (no zod: the web app's menu reads them). */

export const accountRoleSchema = z.enum(ACCOUNT_ROLES, { message: 'Choose a role' });

export const memberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  role: accountRoleSchema,
  joinedAt: z.string(),
  you: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;
export const memberListSchema = z.object({ items: z.array(memberSchema) });

export const changeRoleSchema = z.object({ role: accountRoleSchema });

export const createInviteSchema = z.object({ email: emailSchema, role: accountRoleSchema });
export type CreateInviteInput = z.infer<typeof createInviteSchema>;

export const inviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: accountRoleSchema,
  expiresAt: z.string(),
  createdAt: z.string(),
  invitedBy: z.string().nullable(),
});
export type Invite = z.infer<typeof inviteSchema>;
export const inviteListSchema = z.object({ items: z.array(inviteSchema) });

/** GET /api/invites/:token (public): what the link is for, the email masked. */
export const invitePreviewSchema = z.object({
  accountName: z.string(),
  role: accountRoleSchema,
  emailMasked: z.string(),
  /** Whether a user with the invited email exists (then accepting asks for their password). */
  existingUser: z.boolean(),
  expiresAt: z.string(),
});
export type InvitePreview = z.infer<typeof invitePreviewSchema>;

/**
 * POST /api/invites/:token/accept (public). A new email: a new user (username, name, phone and a
 * password under the registration's policy). An existing user: their password.
 */
export const acceptInviteSchema = z.union([
  z.object({ password: safeString().min(1, 'Password is required').max(128) }).strict(),
  /** Signed in already (the access token of the invited email's user). */
  z.object({}).strict(),
  z
    .object({
      username: usernameSchema,
      name: nameSchema,
      phone: phoneInputSchema,
      password: passwordSchema,
    })
    .strict(),
]);
export type AcceptInviteInput = z.infer<typeof acceptInviteSchema>;

export const myAccountSchema = z.object({
  accountId: z.string(),
  name: z.string(),
  role: accountRoleSchema,
  current: z.boolean(),
});
export type MyAccount = z.infer<typeof myAccountSchema>;
export const myAccountListSchema = z.object({ items: z.array(myAccountSchema) });

export const switchAccountSchema = z.object({ accountId: z.uuid('Unknown account') });

/** The invited email with most of its local part hidden: `j***@example.com`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}
