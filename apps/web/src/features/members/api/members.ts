import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MEMBERS_API,
  type AcceptInviteInput,
  type AccountRole,
  type CreateInviteInput,
  type Invite,
  type InvitePreview,
  type LoginResponse,
  type TwoFactorChallenge,
  type Member,
} from '@wren/contracts';
import { http } from '@/lib/http/client';
import { reconnectHub } from '@/lib/hub';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { setSession } from '@/lib/session';

/** Members and invites, accepting one, switching accounts (issue 39). */

export { myAccountsKey, useMyAccounts } from './my-accounts';
export { useAccountRole, useCan } from '@/lib/account-role';

const membersKey = ['members'] as const;
const invitesKey = ['invites'] as const;

export function useMembers() {
  return useQuery({
    queryKey: membersKey,
    queryFn: async () => (await http.get<{ items: Member[] }>(MEMBERS_API.members)).data.items,
  });
}

export function useInvites() {
  return useQuery({
    queryKey: invitesKey,
    queryFn: async () => (await http.get<{ items: Invite[] }>(MEMBERS_API.invites)).data.items,
  });
}

const memberPath = (userId: string) => MEMBERS_API.member.replace(':userId', encodeURIComponent(userId));
const tokenPath = (pattern: string, token: string) => pattern.replace(':token', encodeURIComponent(token));

function useInvalidating<T>(fn: (input: T) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: membersKey }),
        qc.invalidateQueries({ queryKey: invitesKey }),
      ]),
  });
}

export const useChangeRole = () =>
  useInvalidating(({ userId, role }: { userId: string; role: AccountRole }) =>
    http.patch(memberPath(userId), { role }),
  );
export const useRemoveMember = () => useInvalidating((userId: string) => http.delete(memberPath(userId)));
export const useCreateInvite = () =>
  useInvalidating((input: CreateInviteInput) => http.post<Invite>(MEMBERS_API.invites, input));
export const useRevokeInvite = () =>
  useInvalidating((id: string) => http.delete(MEMBERS_API.invite.replace(':id', encodeURIComponent(id))));

export function useInvitePreview(token: string) {
  return useQuery({
    queryKey: ['invite', token],
    queryFn: async () => (await http.get<InvitePreview>(tokenPath(MEMBERS_API.invitePreview, token))).data,
    enabled: Boolean(token),
  });
}

export function useAcceptInvite(token: string) {
  return useMutation({
    mutationFn: async (input: AcceptInviteInput) => {
      // The enrollment step instead when the account requires two-factor and the user has none.
      const { data } = await http.post<LoginResponse | TwoFactorChallenge>(
        tokenPath(MEMBERS_API.inviteAccept, token),
        input,
      );
      return data;
    },
  });
}

/** Starts a session in the accepted or chosen account: new tokens, fresh data, the hub reconnected. */
export function startSession(session: LoginResponse) {
  setSession(session);
  appQueryClient.clear();
  reconnectHub();
}

export function useSwitchAccount() {
  return useMutation({
    mutationFn: async (accountId: string) => {
      const { data } = await http.post<LoginResponse | TwoFactorChallenge>(MEMBERS_API.switchAccount, {
        accountId,
      });
      return data;
    },
    // An account that requires two-factor answers the enrollment step first (no session yet).
    onSuccess: (result) => {
      if (!('twoFactor' in result)) startSession(result);
    },
  });
}
