import {
  ErrorCode,
  maskEmail,
  roleCan,
  type AcceptInviteInput,
  type AccountRole,
  type CreateInviteInput,
  type Invite,
  type InvitePreview,
  type LoginResponse,
  type Member,
  type MyAccount,
  type TwoFactorChallenge,
} from '@wren/contracts';
import { nowMs, type Clock } from '../../platform/clock';
import { transact, type Db } from '../../platform/db';
import { AppError, FieldError, notFound } from '../../platform/errors';
import type { AccessClaims } from '../../platform/http/principals';
import type { Logger } from '../../platform/logger';
import type { Mailer } from '../../platform/mailer';
import { recordAudit } from '../audit/audit.service';
import type { ClientInfo, StartSession } from '../auth/auth-deps';
import { assertPasswordAllowed } from '../auth/password-policy';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { Sessions } from '../auth/sessions';
import { hashToken, randomToken } from '../auth/tokens';
import { twoFactorEnabled } from '../auth/two-factor';
import { insertUser } from '../users/users.service';
import { addMember, memberRole } from './membership';
import * as repo from './members.repository';

/** How long an invite link works. */
export const INVITE_TTL_MS = 7 * 86_400_000;

const err = (code: ErrorCode, message: string) => new AppError(code, message);
const lastOwner = () =>
  err(ErrorCode.LAST_OWNER, 'An account needs an owner: make another member owner first.');
const ownersOnly = () =>
  err(ErrorCode.PERMISSION_DENIED, 'Only an owner can grant, change or remove the owner role.');

export interface MembersDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  publicUrl: string;
  /** Ends sessions everywhere: a role change or removal ends the member's sessions for the account. */
  sessions: Pick<Sessions, 'invalidate'>;
  /** auth's: opens a session in an account the user is a member of. */
  startSession: StartSession;
  /**
   * auth's (two-factor.ts enrollmentBefore): the enrollment a user without two-factor must finish
   * before a session opens in an account that requires it, or null.
   */
  enrollmentBefore: (trx: Db, userId: string, accountId: string) => Promise<TwoFactorChallenge | null>;
  normalisePhone: (phone: string) => string;
}

export function createMembersService(deps: MembersDeps) {
  const { db, clock, sessions } = deps;

  /** The member's current role, with the account's members locked; 404 for a non-member. */
  async function lockedTarget(trx: Db, accountId: string, userId: string) {
    const members = await repo.lockMembers(trx, accountId);
    const target = members.find((m) => m.user_id === userId);
    if (!target) throw notFound('Member');
    const owners = members.filter((m) => m.role === 'owner').length;
    return { role: target.role, owners };
  }

  function checkInvite(
    invite: Awaited<ReturnType<typeof repo.findInviteByHash>>,
  ): asserts invite is NonNullable<typeof invite> {
    if (!invite) throw err(ErrorCode.INVITE_INVALID, 'This invite link is not valid.');
    if (invite.revoked_at) throw err(ErrorCode.INVITE_REVOKED, 'This invite was withdrawn.');
    if (invite.accepted_at) throw err(ErrorCode.INVITE_USED, 'This invite has already been used.');
    if (invite.expires_at.getTime() <= nowMs(clock))
      throw err(ErrorCode.INVITE_EXPIRED, 'This invite has expired. Ask for a new one.');
  }

  return {
    async list(actor: AccessClaims): Promise<{ items: Member[] }> {
      const rows = await repo.listMembers(db, actor.accountId);
      return {
        items: rows.map((r) => ({
          userId: r.user_id,
          name: r.name,
          username: r.username,
          email: r.email,
          role: r.role,
          joinedAt: r.created_at.toISOString(),
          you: r.user_id === actor.userId,
        })),
      };
    },

    /** Changes a member's role; their sessions for this account end at once, on every node. */
    async changeRole(actor: AccessClaims, userId: string, role: AccountRole, client: ClientInfo) {
      await transact(db, async (trx) => {
        const target = await lockedTarget(trx, actor.accountId, userId);
        if (target.role === role) return;
        if ((target.role === 'owner' || role === 'owner') && !roleCan(actor.accountRole, 'account:owner'))
          throw ownersOnly();
        if (target.role === 'owner' && target.owners <= 1) throw lastOwner();
        await repo.setRole(trx, actor.accountId, userId, role);
        await sessions.invalidate({ memberId: userId, accountId: actor.accountId }, 'role_changed', trx);
        await recordAudit(trx, {
          accountId: actor.accountId,
          userId: actor.userId,
          kind: 'member.role_changed',
          message: `Member role changed from ${target.role} to ${role}`,
          ip: client.ip,
          resourceType: 'user',
          resourceId: userId,
        });
      });
    },

    /** Removes a member (or the caller leaves); their sessions for this account end at once. */
    async remove(actor: AccessClaims, userId: string, client: ClientInfo) {
      await transact(db, async (trx) => {
        const target = await lockedTarget(trx, actor.accountId, userId);
        if (
          target.role === 'owner' &&
          userId !== actor.userId &&
          !roleCan(actor.accountRole, 'account:owner')
        )
          throw ownersOnly();
        if (target.role === 'owner' && target.owners <= 1) throw lastOwner();
        await repo.deleteMember(trx, actor.accountId, userId);
        await sessions.invalidate({ memberId: userId, accountId: actor.accountId }, 'member_removed', trx);
        await recordAudit(trx, {
          accountId: actor.accountId,
          userId: actor.userId,
          kind: 'member.removed',
          message: userId === actor.userId ? 'A member left the account' : 'A member was removed',
          ip: client.ip,
          resourceType: 'user',
          resourceId: userId,
        });
      });
    },

    async listInvites(actor: AccessClaims): Promise<{ items: Invite[] }> {
      const rows = await repo.listInvites(db, actor.accountId);
      return {
        items: rows.map((r) => ({
          id: r.id,
          email: r.email,
          role: r.role,
          expiresAt: r.expires_at.toISOString(),
          createdAt: r.created_at.toISOString(),
          invitedBy: r.invited_by_name,
        })),
      };
    },

    /** Invites by email: a single-use link valid 7 days; only its token's hash is kept. */
    async invite(actor: AccessClaims, input: CreateInviteInput, client: ClientInfo): Promise<Invite> {
      if (input.role === 'owner' && !roleCan(actor.accountRole, 'account:owner')) throw ownersOnly();
      const members = await repo.listMembers(db, actor.accountId);
      if (members.some((m) => m.email.toLowerCase() === input.email.toLowerCase()))
        throw new FieldError({ email: ['This person is already a member of the account'] });
      const token = randomToken();
      const row = await transact(db, async (trx) => {
        const created = await repo.insertInvite(trx, {
          accountId: actor.accountId,
          email: input.email,
          role: input.role,
          tokenHash: hashToken(token),
          expiresAt: new Date(nowMs(clock) + INVITE_TTL_MS),
          invitedBy: actor.userId,
        });
        await recordAudit(trx, {
          accountId: actor.accountId,
          userId: actor.userId,
          kind: 'member.invited',
          message: `Invited ${input.email} as ${input.role}`,
          ip: client.ip,
          resourceType: 'invite',
          resourceId: created.id,
        });
        return created;
      });
      const account = await repo.accountName(db, actor.accountId);
      const inviter = await repo.findUserById(db, actor.userId);
      const link = `${deps.publicUrl}/invite/${encodeURIComponent(token)}`;
      await deps.mailer.send({
        to: input.email,
        subject: `You are invited to ${account?.name ?? 'a Wren account'} on Wren`,
        text: `Hello,\n\n${inviter?.name ?? 'A member'} invited you to join ${account?.name ?? 'their account'} on Wren as ${input.role}.\n\nOpen this link within 7 days to accept:\n\n${link}\n\nIf you were not expecting this, you can ignore this email.\n`,
      });
      return {
        id: row.id,
        email: row.email,
        role: row.role,
        expiresAt: row.expires_at.toISOString(),
        createdAt: row.created_at.toISOString(),
        invitedBy: inviter?.name ?? null,
      };
    },

    /**
     * A new sub-account's first owner (sub-accounts): the same single-use link as `invite`, in the
     * child's transaction, naming no inviter (a child never learns its parent's members). An existing
     * user accepts it with their password or signed in, and has the account added.
     */
    async inviteFirstOwner(trx: Db, accountId: string, accountName: string, email: string) {
      const token = randomToken();
      const created = await repo.insertInvite(trx, {
        accountId,
        email,
        role: 'owner',
        tokenHash: hashToken(token),
        expiresAt: new Date(nowMs(clock) + INVITE_TTL_MS),
        invitedBy: null,
      });
      await recordAudit(trx, {
        accountId,
        userId: null,
        kind: 'member.invited',
        message: `Invited ${email} as owner`,
        resourceType: 'invite',
        resourceId: created.id,
      });
      const link = `${deps.publicUrl}/invite/${encodeURIComponent(token)}`;
      // Sent once the transaction has committed (the caller's afterCommit).
      return () =>
        deps.mailer.send({
          to: email,
          subject: `You are invited to ${accountName} on Wren`,
          text: `Hello,\n\nA Wren account, ${accountName}, was opened for you, with you as its owner.\n\nOpen this link within 7 days to accept:\n\n${link}\n\nIf you were not expecting this, you can ignore this email.\n`,
        });
    },

    async revokeInvite(actor: AccessClaims, id: string, client: ClientInfo) {
      await transact(db, async (trx) => {
        const row = await repo.revokeInvite(trx, actor.accountId, id, clock.now());
        if (!row) throw notFound('Invite');
        if (row.role === 'owner' && !roleCan(actor.accountRole, 'account:owner')) throw ownersOnly();
        await recordAudit(trx, {
          accountId: actor.accountId,
          userId: actor.userId,
          kind: 'member.invite_revoked',
          message: `Invite for ${row.email} withdrawn`,
          ip: client.ip,
          resourceType: 'invite',
          resourceId: id,
        });
      });
    },

    async preview(token: string): Promise<InvitePreview> {
      const invite = await repo.findInviteByHash(db, hashToken(token));
      checkInvite(invite);
      const existing = await repo.findUserByEmail(db, invite.email);
      return {
        accountName: invite.account_name,
        role: invite.role,
        emailMasked: maskEmail(invite.email),
        existingUser: existing !== undefined,
        expiresAt: invite.expires_at.toISOString(),
      };
    },

    /**
     * Accepts an invite, once: a new email makes a new user (the registration's password policy);
     * an existing user is signed in already (`signedIn`, whose email must be the invite's) or gives
     * their password. Signs in to the invited account, or, when that account requires two-factor
     * and the user has not turned it on, answers the enrollment step first (as sign-in does): the
     * membership is made, but no token for the account is issued until the user has enrolled.
     */
    async accept(
      token: string,
      input: AcceptInviteInput,
      signedIn: AccessClaims | null,
      client: ClientInfo,
    ): Promise<LoginResponse | TwoFactorChallenge> {
      return transact(db, async (trx) => {
        const invite = await repo.findInviteByHash(trx, hashToken(token), true);
        checkInvite(invite);
        const existing = await repo.findUserByEmail(trx, invite.email);
        let user: { id: string; account_id: string; role: 'user' | 'admin' };
        if (signedIn) {
          if (!existing || existing.id !== signedIn.userId)
            throw err(ErrorCode.INVITE_OTHER_EMAIL, 'This invite is for another email address.');
          user = existing;
        } else if (existing) {
          if (!('password' in input) || 'username' in input)
            throw err(ErrorCode.CONFLICT, 'You already have a Wren account: enter its password to accept.');
          if (!(await verifyPassword(existing.password_hash, input.password)))
            throw err(ErrorCode.WRONG_PASSWORD, 'Incorrect password');
          // A password alone must not open a session for a user with two-factor (two-factor.ts).
          if (await twoFactorEnabled(trx, existing.id))
            throw err(
              ErrorCode.CONFLICT,
              'Your account uses two-factor sign-in: sign in first, then open the invite link again.',
            );
          user = existing;
        } else {
          if (!('username' in input)) throw new FieldError({ username: ['Choose a username'] });
          if (await repo.usernameTaken(trx, input.username))
            throw new FieldError({ username: ['This username is taken'] });
          assertPasswordAllowed('password', input.password, { ...input, email: invite.email });
          const created = await insertUser(trx, {
            accountId: invite.account_id,
            username: input.username,
            name: input.name,
            email: invite.email,
            phone: deps.normalisePhone(input.phone),
            passwordHash: await hashPassword(input.password),
          });
          user = { id: created.id, account_id: invite.account_id, role: 'user' };
        }
        await addMember(trx, {
          accountId: invite.account_id,
          userId: user.id,
          role: invite.role,
          invitedBy: invite.invited_by,
        });
        await repo.markAccepted(trx, invite.id, user.id, clock.now());
        await recordAudit(trx, {
          accountId: invite.account_id,
          userId: user.id,
          kind: 'member.joined',
          message: `Joined the account as ${invite.role}`,
          ip: client.ip,
          resourceType: 'invite',
          resourceId: invite.id,
        });
        const enroll = await deps.enrollmentBefore(trx, user.id, invite.account_id);
        return enroll ?? deps.startSession(trx, user, client, invite.account_id);
      });
    },

    async myAccounts(actor: AccessClaims): Promise<{ items: MyAccount[] }> {
      const rows = await repo.accountsOf(db, actor.userId);
      return {
        items: rows.map((r) => ({
          accountId: r.account_id,
          name: r.name,
          role: r.role,
          current: r.account_id === actor.accountId,
        })),
      };
    },

    /**
     * A new token pair acting on another account the user is a member of; the enrollment step
     * first when that account requires two-factor and the user has not turned it on.
     */
    async switchAccount(
      actor: AccessClaims,
      accountId: string,
      client: ClientInfo,
    ): Promise<LoginResponse | TwoFactorChallenge> {
      const user = await repo.findUserById(db, actor.userId);
      if (!user) throw err(ErrorCode.NOT_A_MEMBER, 'You are not a member of this account.');
      return transact(db, async (trx) => {
        // A non-member gets NOT_A_MEMBER from startSession, never an enrollment for the account.
        if (!(await memberRole(trx, accountId, user.id)))
          throw err(ErrorCode.NOT_A_MEMBER, 'You are not a member of this account.');
        const enroll = await deps.enrollmentBefore(trx, user.id, accountId);
        return enroll ?? deps.startSession(trx, user, client, accountId);
      });
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
